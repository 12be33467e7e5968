/* verbs_settings.c - the NBO_VERBS_* variables, read when a device is
 * opened with the parser every layer shares (util/setting.h): a value
 * outside its range is the user's mistake, said rather than replaced. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_engine.h"

verbs_settings_t verbs_set;

#define F(f) NBO_SETTING_FIELD(verbs_settings_t, f)
#define INT(lo, hi) NBO_SETTING_INT, NULL, 0, lo, hi, NULL, 0, NULL

static const nbo_setting_t verbs_settings[] = {
    {"NBO_VERBS_DEVICE", NBO_SETTING_TEXT, NULL, 0, 0, 0, NULL, 0, NULL, "", F(device),
     "RDMA device name (unset: the first with an active port)"},
    {"NBO_VERBS_PORT", INT(0, 255), "0", F(port), "port number (0: the first active one)"},
    {"NBO_VERBS_GID_INDEX", INT(-1, 65535), "-1", F(gid_index),
     "GID table index (-1: the first non-zero GID on RoCE)"},
    {"NBO_VERBS_BOUNCE", INT(0, 1 << 20), "4096", F(bounce),
     "largest message sent through bounce buffers (0: none)"},
    /* 4.096 us * 2^14 = 67 ms; 7 retries before a peer counts as gone. */
    {"NBO_VERBS_ACK_TIMEOUT", INT(0, 31), "14", F(ack_timeout),
     "IB local ACK timeout exponent (14: 67 ms; 7 retries before a peer counts as gone)"},
    {"NBO_VERBS_DEBUG", INT(0, 2), "0", F(debug),
     "1: print NIC completion errors; 2: flush errors too"},
    {NULL},
};

const nbo_setting_table_t verbs_settings_table = {"verbs engine", "verbs engine",
                                                  verbs_settings, NULL};

int verbs_settings_load(char *why, size_t len)
{
    nbo_settings_defaults(verbs_settings, &verbs_set);
    int rc = NBO_SUCCESS;
    for (const nbo_setting_t *s = verbs_settings; s->name; s++) {
        const char *v = getenv(s->name);
        if (!v || !*v || nbo_setting_set(s, &verbs_set, v) == NBO_SUCCESS)
            continue;
        char want[96];
        nbo_setting_expected(s, want, sizeof(want));
        if (rc == NBO_SUCCESS)
            snprintf(why, len, "%s=%s: expected %s", s->name, v, want);
        rc = NBO_ERR_CONFIG;
    }
    /* nbo_comm_create returns only the code: say which, once. */
    static atomic_int said;
    if (rc != NBO_SUCCESS && !atomic_exchange(&said, 1))
        fprintf(stderr, "libnbo: verbs engine: %s\n", why);
    return rc;
}
