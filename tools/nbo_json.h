/*
 * nbo_json - a streaming JSON writer for nbo_info --json: objects and
 * arrays nested as they are opened, members written as they come, so the
 * tool emits its facts from the same loops that print its text lines.
 */
#ifndef NBO_JSON_H
#define NBO_JSON_H

#include <stdio.h>

#define NBO_JSON_DEPTH 8

typedef struct {
    FILE *out;                   /* NULL: write nothing (MPI ranks but 0) */
    int   depth;
    int   count[NBO_JSON_DEPTH]; /* members written at each level */
} nbo_json_t;

void nbo_json_init(nbo_json_t *j, FILE *out);
/* Opens an object ('{') or array ('['); key is the member's name inside an
 * object, NULL inside an array or at the top. */
void nbo_json_begin(nbo_json_t *j, const char *key, char bracket);
void nbo_json_end(nbo_json_t *j, char bracket);
/* value NULL writes null. */
void nbo_json_string(nbo_json_t *j, const char *key, const char *value);
void nbo_json_bool(nbo_json_t *j, const char *key, int value);
void nbo_json_int(nbo_json_t *j, const char *key, long value);
/* A member whose value is the first len bytes of value. */
void nbo_json_string_n(nbo_json_t *j, const char *key, const char *value, size_t len);

#endif
