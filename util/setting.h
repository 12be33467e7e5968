/*
 * setting.h - one NBO_* variable, defined once: its name, type, range,
 * default, one-line meaning and the struct field it sets.
 *
 * Each layer that reads variables keeps a table of them (libnbo's
 * nbo_config_t, each engine's own struct, libnbo-mpi's) and reads them
 * with the functions below: the parser, the checks, nbo_info's listing and
 * the documentation tables (nbo_info --settings-md) all come from it.
 */
#ifndef NBO_SETTING_H
#define NBO_SETTING_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    NBO_SETTING_KEYWORD, /* one of keywords[] (case ignored); stored as its index */
    NBO_SETTING_INT,     /* a decimal integer in [lo, hi] (or word); an int field */
    NBO_SETTING_SIZE,    /* a decimal byte count in [lo, hi]; a size_t field      */
    NBO_SETTING_TEXT     /* a string, checked by accept() if set; a char[] field */
} nbo_setting_type_t;

typedef struct nbo_setting {
    const char        *name;     /* "NBO_WINDOW"; NULL ends a table          */
    nbo_setting_type_t type;
    const char *const *keywords; /* KEYWORD: the values, in enum order        */
    int                nkeywords;
    long               lo, hi;   /* INT, SIZE                                 */
    const char        *word;     /* INT: a keyword standing for word_value;
                                    TEXT: the valid values in words (or NULL) */
    long               word_value;
    int (*accept)(const char *value); /* TEXT: 1 if valid (NULL: any)      */
    const char        *def;      /* the default, as a user writes it          */
    size_t             offset;   /* of the field in the layer's struct        */
    size_t             size;     /* of the field (TEXT: the array's length)   */
    const char        *field;    /* the field's name for the docs, or NULL    */
    const char        *doc;      /* one line: what it does                    */
} nbo_setting_t;

/* A layer's table, as nbo_info lists it. */
typedef struct nbo_setting_table {
    const char          *layer;    /* "libnbo", "ucx engine", "libnbo-mpi"      */
    const char          *reader;   /* who reads it, a line for the listing      */
    const nbo_setting_t *settings; /* ends with a NULL name                     */
    /* Other variables with this prefix the layer hands to a library it
     * uses ("NBO_UCX_": UCX reads them), or NULL. */
    const char          *passthrough;
} nbo_setting_table_t;

/* Declarators for the tables: field f of struct type T. */
#define NBO_SETTING_FIELD(T, f) offsetof(T, f), sizeof(((T *)0)->f), #f

/* The setting called name in t, or NULL. */
const nbo_setting_t *nbo_setting_find(const nbo_setting_t *t, const char *name);

/* Parse value and store it into base's field.  NBO_SUCCESS, or
 * NBO_ERR_CONFIG (the field is left as it was). */
int nbo_setting_set(const nbo_setting_t *s, void *base, const char *value);

/* The field's value as a user writes it ("auto", "8"). */
void nbo_setting_format(const nbo_setting_t *s, const void *base, char *out, size_t len);

/* What a valid value looks like ("an integer in [1, 1048576]"). */
void nbo_setting_expected(const nbo_setting_t *s, char *out, size_t len);

/* Every field of t to its default. */
void nbo_settings_defaults(const nbo_setting_t *t, void *base);

/* 1 when every field of base is a value its setting accepts. */
int nbo_settings_valid(const nbo_setting_t *t, const void *base);

/* Every variable of t that the environment sets (an empty one counts as
 * unset) into base: each bad value is named on stderr after who
 * ("libnbo"), the valid ones are applied.  NBO_SUCCESS or NBO_ERR_CONFIG. */
int nbo_settings_from_env(const nbo_setting_t *t, void *base, const char *who);

/* The Markdown table of t: | variable | field | default | values | meaning |
 * (field only when with_field). */
void nbo_settings_print_md(const nbo_setting_t *t, int with_field, FILE *out);

#endif /* NBO_SETTING_H */
