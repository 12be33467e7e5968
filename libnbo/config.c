/* config.c - nbo_config_t from its settings table (settings.c), names. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <nbo.h>
#include "../util/util.h"
#include "settings.h"

/* Defaults: the table of settings.c (one definition of each variable). */
void nbo_config_init(nbo_config_t *c)
{
    if (!c)
        return;
    memset(c, 0, sizeof(*c));
    nbo_settings_defaults(nbo_config_settings, c);
}

/* The ranges of the table hold for a configuration given as a struct too:
 * one definition of what is valid. */
int nbo_config_valid(const nbo_config_t *c)
{
    return nbo_settings_valid(nbo_config_settings, c);
}

int nbo_config_set(nbo_config_t *c, const char *name, const char *value)
{
    if (!c || !name || !value)
        return NBO_ERR_ARG;
    const nbo_setting_t *s = nbo_setting_find(nbo_config_settings, name);
    return s ? nbo_setting_set(s, c, value) : NBO_ERR_ARG;
}

/* Every variable that is set is read, so that one run names every bad
 * value; the valid ones are applied. */
int nbo_config_from_env(nbo_config_t *c)
{
    if (!c)
        return NBO_ERR_ARG;
    return nbo_settings_from_env(nbo_config_settings, c, "libnbo");
}

const char *nbo_progress_name(nbo_progress_mode_t m)
{
    return (unsigned)m < NBO_ARRAY_LEN(nbo_progress_names) ? nbo_progress_names[m] : "?";
}

const char *nbo_algorithm_name(nbo_algorithm_t a)
{
    return (unsigned)a < NBO_ARRAY_LEN(nbo_alg_names) ? nbo_alg_names[a] : "?";
}

const char *nbo_progress_sched_name(nbo_progress_sched_t s)
{
    return (unsigned)s < NBO_ARRAY_LEN(nbo_sched_names) ? nbo_sched_names[s] : "?";
}

const char *nbo_codec_name(nbo_codec_t c)
{
    return (unsigned)c < NBO_ARRAY_LEN(nbo_codec_names) ? nbo_codec_names[c] : "?";
}
