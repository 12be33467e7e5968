/* setting.c - parse, check, print the NBO_* variables of a settings table. */
#include "setting.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nbo.h> /* the NBO_ERR_* codes */

const nbo_setting_t *nbo_setting_find(const nbo_setting_t *t, const char *name)
{
    for (; t && t->name; t++)
        if (name && strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

/* Integer fields are int, long or size_t: the table gives the size. */
static void store(const nbo_setting_t *s, void *base, long x)
{
    char *p = (char *)base + s->offset;
    if (s->type == NBO_SETTING_SIZE) {
        size_t v = (size_t)x;
        memcpy(p, &v, sizeof(v));
    } else if (s->size == sizeof(long)) {
        memcpy(p, &x, sizeof(x));
    } else {
        int v = (int)x;
        memcpy(p, &v, sizeof(v));
    }
}

static long load(const nbo_setting_t *s, const void *base)
{
    const char *p = (const char *)base + s->offset;
    if (s->type == NBO_SETTING_SIZE) {
        size_t v;
        memcpy(&v, p, sizeof(v));
        return v > LONG_MAX ? LONG_MAX : (long)v;
    }
    if (s->size == sizeof(long)) {
        long v;
        memcpy(&v, p, sizeof(v));
        return v;
    }
    int v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static int in_range(const nbo_setting_t *s, long x)
{
    if (s->type == NBO_SETTING_KEYWORD)
        return x >= 0 && x < s->nkeywords;
    return (x >= s->lo && x <= s->hi) || (s->word && x == s->word_value);
}

int nbo_setting_set(const nbo_setting_t *s, void *base, const char *value)
{
    if (!s || !value)
        return NBO_ERR_ARG;
    if (s->type == NBO_SETTING_TEXT) {
        if (strlen(value) >= s->size || (s->accept && !s->accept(value)))
            return NBO_ERR_CONFIG;
        memcpy((char *)base + s->offset, value, strlen(value) + 1);
        return NBO_SUCCESS;
    }
    if (s->type == NBO_SETTING_KEYWORD) {
        for (int i = 0; i < s->nkeywords; i++)
            if (strcasecmp(value, s->keywords[i]) == 0) {
                store(s, base, i);
                return NBO_SUCCESS;
            }
        return NBO_ERR_CONFIG;
    }
    if (s->word && strcasecmp(value, s->word) == 0) {
        store(s, base, s->word_value);
        return NBO_SUCCESS;
    }
    char *end;
    errno = 0;
    long x = strtol(value, &end, 10);
    if (errno || end == value || *end || x < s->lo || x > s->hi)
        return NBO_ERR_CONFIG;
    store(s, base, x);
    return NBO_SUCCESS;
}

void nbo_setting_format(const nbo_setting_t *s, const void *base, char *out, size_t len)
{
    if (s->type == NBO_SETTING_TEXT) {
        const char *v = (const char *)base + s->offset;
        snprintf(out, len, "%s", *v ? v : "-");
        return;
    }
    long x = load(s, base);
    if (s->type == NBO_SETTING_KEYWORD)
        snprintf(out, len, "%s", in_range(s, x) ? s->keywords[x] : "?");
    else if (s->word && x == s->word_value)
        snprintf(out, len, "%s", s->word);
    else
        snprintf(out, len, "%ld", x);
}

void nbo_setting_expected(const nbo_setting_t *s, char *out, size_t len)
{
    if (s->type == NBO_SETTING_TEXT) {
        snprintf(out, len, "%s", s->word ? s->word : s->accept ? "a name this libnbo knows" : "any text");
        return;
    }
    if (s->type != NBO_SETTING_KEYWORD) {
        snprintf(out, len, "an integer in [%ld, %ld]%s%s", s->lo, s->hi, s->word ? " or " : "",
                 s->word ? s->word : "");
        return;
    }
    size_t n = 0;
    out[0] = 0;
    for (int i = 1; i < s->nkeywords && n < len; i++) /* keywords[0]: "auto" (or "none") */
        n += (size_t)snprintf(out + n, len - n, "%s%s", i > 1 ? ", " : "", s->keywords[i]);
    if (n < len)
        snprintf(out + n, len - n, " or %s", s->keywords[0]);
}

void nbo_settings_defaults(const nbo_setting_t *t, void *base)
{
    for (; t && t->name; t++) {
        if (t->type == NBO_SETTING_TEXT)
            memset((char *)base + t->offset, 0, t->size);
        nbo_setting_set(t, base, t->def); /* tests/unit checks every default parses */
    }
}

int nbo_settings_valid(const nbo_setting_t *t, const void *base)
{
    for (; t && t->name; t++) {
        if (t->type == NBO_SETTING_TEXT) {
            const char *v = (const char *)base + t->offset;
            if (!memchr(v, 0, t->size) || (t->accept && !t->accept(v)))
                return 0;
        } else if (!in_range(t, load(t, base)))
            return 0;
    }
    return 1;
}

int nbo_settings_from_env(const nbo_setting_t *t, void *base, const char *who)
{
    int rc = NBO_SUCCESS;
    for (; t && t->name; t++) {
        const char *val = getenv(t->name);
        if (!val || !*val)
            continue;
        if (nbo_setting_set(t, base, val) != NBO_SUCCESS) {
            char want[96];
            nbo_setting_expected(t, want, sizeof(want));
            fprintf(stderr, "%s: %s=%s is not valid (expected %s)\n", who, t->name, val, want);
            rc = NBO_ERR_CONFIG;
        }
    }
    return rc;
}

/* The values column: keywords, a range, or text. */
static void values_md(const nbo_setting_t *s, char *out, size_t len)
{
    size_t n = 0;
    out[0] = 0;
    if (s->type == NBO_SETTING_KEYWORD) {
        for (int i = 0; i < s->nkeywords && n < len; i++)
            n += (size_t)snprintf(out + n, len - n, "%s`%s`", i ? ", " : "", s->keywords[i]);
    } else if (s->type == NBO_SETTING_TEXT) {
        snprintf(out, len, "%s", s->word ? s->word : s->accept ? "a name" : "text");
    } else {
        if (s->hi == LONG_MAX)
            n = (size_t)snprintf(out, len, "%ld or more", s->lo);
        else
            n = (size_t)snprintf(out, len, "%ld to %ld", s->lo, s->hi);
        if (s->word && n < len)
            snprintf(out + n, len - n, ", `%s`", s->word);
    }
}

void nbo_settings_print_md(const nbo_setting_t *t, int with_field, FILE *out)
{
    fprintf(out, "| variable |%s default | values | meaning |\n", with_field ? " field |" : "");
    fprintf(out, "| --- |%s --- | --- | --- |\n", with_field ? " --- |" : "");
    for (; t && t->name; t++) {
        char values[256];
        values_md(t, values, sizeof(values));
        fprintf(out, "| `%s` |", t->name);
        if (with_field)
            fprintf(out, " %s%s%s |", t->field ? "`" : "", t->field ? t->field : "",
                    t->field ? "`" : "");
        fprintf(out, " %s%s%s | %s | %s |\n", *t->def ? "`" : "", *t->def ? t->def : "unset",
                *t->def ? "`" : "",
                values, t->doc);
    }
}
