#include <stdio.h>
#include <string.h>
#include <nbo.h>

/* A setting from the command line, such as "NBO_WINDOW=16". */
int apply_option(nbo_config_t *cfg, const char *opt)
{
    const char *eq = strchr(opt, '=');
    char name[64];
    if (!eq || eq - opt >= (long)sizeof(name))
        return NBO_ERR_ARG;
    snprintf(name, sizeof(name), "%.*s", (int)(eq - opt), opt);
    int rc = nbo_config_set(cfg, name, eq + 1);
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "%s: %s\n", opt, nbo_strerror(rc));
    return rc;
}
