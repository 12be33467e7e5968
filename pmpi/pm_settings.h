/* pm_settings.h - libnbo-mpi's NBO_PMPI_* variables (pm_settings.c), for
 * pm_state.c and for nbo_info's listing. */
#ifndef PM_SETTINGS_H
#define PM_SETTINGS_H

#include "../util/setting.h"

/* As the environment gives them; pm_state.c interprets the text. */
typedef struct pm_env {
    char pmpi[8], log[8], colls[256], min_size[256], blocking[8];
} pm_env_t;

extern const nbo_setting_table_t pm_settings_table;

/* Defaults, then the environment (every value is text, so none is bad). */
void pm_env_read(pm_env_t *e);

#endif
