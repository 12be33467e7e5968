/* ofi_settings.c - the NBO_OFI_* variables, read at probe and at open with
 * the parser every layer shares (util/setting.h). */
#include "ofi_engine.h"

#define F(f) NBO_SETTING_FIELD(ofi_settings_t, f)
#define TEXT NBO_SETTING_TEXT, NULL, 0, 0, 0, NULL, 0, NULL
#define INT(lo, hi) NBO_SETTING_INT, NULL, 0, lo, hi, NULL, 0, NULL

static const char *const offload_words[] = {"0", "auto", "all"};

static const nbo_setting_t ofi_settings[] = {
    {"NBO_OFI_PROVIDER", TEXT, "", F(provider),
     "libfabric provider, as fi_info -l names it: tcp;ofi_rxm, sockets, verbs;ofi_rxm, efa, cxi "
     "(unset: libfabric's order, FI_PROVIDER applies)"},
    {"NBO_OFI_WAIT_FD", INT(0, 1), "1", F(wait_fd),
     "0: no wait descriptor on the completion queue (the progress thread polls)"},
    {"NBO_OFI_OFFLOAD", NBO_SETTING_KEYWORD, offload_words, NBO_ARRAY_LEN(offload_words), 0, 0,
     NULL, 0, NULL, "auto", F(offload),
     "auto: the provider runs all-to-all, broadcast and allgather task lists, and integer "
     "allreduce and reduce-scatter-block by triggered atomics, where it takes deferred work "
     "(sockets); all: float and double reductions too (not bitwise reproducible); 0: the host "
     "posts every window"},
    {"NBO_OFI_TRIG_COUNTERS", INT(0, 1024), "64", F(trig_counters),
     "counters the offload opens per communicator for lists that forward received data "
     "(broadcast, allgather: one per window); a list with more windows runs on the host path"},
    {NULL},
};

const nbo_setting_table_t ofi_settings_table = {"ofi engine", "OFI (libfabric) engine",
                                                ofi_settings, NULL};

int ofi_settings_load(ofi_settings_t *s)
{
    nbo_settings_defaults(ofi_settings, s);
    return nbo_settings_from_env(ofi_settings, s, "libnbo: ofi engine");
}
