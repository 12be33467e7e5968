/* sizes.c - byte sizes on the command line (sizes.h). */
#include "sizes.h"

#include <errno.h>
#include <stdlib.h>

size_t bench_size(const char *s, const char **end)
{
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    if (errno || e == s)
        return 0;
    if (*e == 'K' || *e == 'k')
        v <<= 10, e++;
    else if (*e == 'M' || *e == 'm')
        v <<= 20, e++;
    else if (*e == 'G' || *e == 'g')
        v <<= 30, e++;
    if (end)
        *end = e;
    return (size_t)v;
}

int bench_size_list(const char *s, size_t *out, int max)
{
    int n = 0;
    for (const char *p = s; *p;) {
        const char *e;
        size_t v = bench_size(p, &e);
        if (!v || (*e && *e != ',') || n == max)
            return -1;
        out[n++] = v;
        p = *e ? e + 1 : e;
    }
    return n;
}
