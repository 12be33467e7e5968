#include <stdio.h>
#include <string.h>
#include <nbo.h>

/* Every engine built in, whether it is usable here; UCX if it is, else
 * whatever auto finds. */
void pick_engine(nbo_config_t *cfg)
{
    strcpy(cfg->engine, "auto");
    for (int i = 0; nbo_engine_at(i); i++) {
        char why[256];
        int ok = nbo_engine_available(nbo_engine_at(i), why, sizeof(why)) == NBO_SUCCESS;
        printf("%-6s %s: %s\n", nbo_engine_at(i), ok ? "usable" : "unusable", why);
        if (ok && strcmp(nbo_engine_at(i), "ucx") == 0)
            strcpy(cfg->engine, "ucx");
    }
}
