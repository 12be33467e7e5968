/* nbo_json - a streaming JSON writer (nbo_json.h). */
#include "nbo_json.h"

#include <string.h>

void nbo_json_init(nbo_json_t *j, FILE *out)
{
    memset(j, 0, sizeof(*j));
    j->out = out;
}

static void quote(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f); /* UTF-8 passes through as it is */
    }
    fputc('"', f);
}

/* The separator, indentation and "key": before a value. */
static void member(nbo_json_t *j, const char *key)
{
    if (j->depth > 0 && j->depth <= NBO_JSON_DEPTH && j->count[j->depth - 1]++)
        fputc(',', j->out);
    if (j->depth > 0)
        fprintf(j->out, "\n%*s", 2 * j->depth, "");
    if (key) {
        quote(j->out, key, strlen(key));
        fputs(": ", j->out);
    }
}

void nbo_json_begin(nbo_json_t *j, const char *key, char bracket)
{
    if (!j->out)
        return;
    member(j, key);
    fputc(bracket, j->out);
    if (j->depth < NBO_JSON_DEPTH)
        j->count[j->depth] = 0;
    j->depth++;
}

void nbo_json_end(nbo_json_t *j, char bracket)
{
    if (!j->out)
        return;
    j->depth--;
    if (j->depth < NBO_JSON_DEPTH && j->count[j->depth])
        fprintf(j->out, "\n%*s", 2 * j->depth, "");
    fputc(bracket, j->out);
    if (j->depth == 0)
        fputc('\n', j->out);
}

void nbo_json_string_n(nbo_json_t *j, const char *key, const char *value, size_t len)
{
    if (!j->out)
        return;
    member(j, key);
    quote(j->out, value, len);
}

void nbo_json_string(nbo_json_t *j, const char *key, const char *value)
{
    if (!j->out)
        return;
    if (!value) {
        member(j, key);
        fputs("null", j->out);
        return;
    }
    nbo_json_string_n(j, key, value, strlen(value));
}

void nbo_json_bool(nbo_json_t *j, const char *key, int value)
{
    if (!j->out)
        return;
    member(j, key);
    fputs(value ? "true" : "false", j->out);
}

void nbo_json_int(nbo_json_t *j, const char *key, long value)
{
    if (!j->out)
        return;
    member(j, key);
    fprintf(j->out, "%ld", value);
}
