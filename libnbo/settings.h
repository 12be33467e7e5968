/* settings.h - the NBO_* variables of nbo_config_t (settings.c), for the
 * parser of config.c and for nbo_info's listing. */
#ifndef NBO_SETTINGS_H
#define NBO_SETTINGS_H

#include "../util/setting.h"

extern const nbo_setting_t       nbo_config_settings[];
extern const nbo_setting_table_t nbo_config_table;

/* The keywords of the enum variables, in enum order. */
extern const char *const nbo_progress_names[3];
extern const char *const nbo_alg_names[12];
extern const char *const nbo_sched_names[3];
extern const char *const nbo_codec_names[3];
extern const char *const nbo_tune_names[4];

#endif
