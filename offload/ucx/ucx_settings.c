/* ucx_settings.c - the NBO_* variables of the UCX engine, read once per
 * context with the parser every layer shares (util/setting.h). */
#include "ucx_engine.h"

ucx_settings_t ucx_set;

#define F(f) NBO_SETTING_FIELD(ucx_settings_t, f)
#define TEXT NBO_SETTING_TEXT, NULL, 0, 0, 0, NULL, 0, NULL
#define INT(lo, hi) NBO_SETTING_INT, NULL, 0, lo, hi, NULL, 0, NULL

/* NBO_UCX_<NAME> is UCX_<NAME> for libnbo's context only: UCX parses it
 * (ucp_config_read with prefix NBO); listed here for the docs. */
static const nbo_setting_t ucx_settings[] = {
    {"NBO_UCX_TLS", TEXT, "", F(tls),
     "transports of libnbo's UCX context (unset: UCX_TLS, else UCX's choice)"},
    {"NBO_UCX_RNDV_THRESH", TEXT, "", F(rndv_thresh),
     "rendezvous threshold (unset: libnbo's over TCP without RDMA, else UCX's)"},
    {"NBO_UCX_ZCOPY_THRESH", TEXT, "", F(zcopy_thresh),
     "zero-copy threshold (unset: inf, UCX's copy path, over TCP without RDMA; auto: UCX's)"},
    {"NBO_PEER_ERRORS", INT(0, 1), "0", F(peer_errors),
     "1: peer error handling on every endpoint (no shared memory)"},
    {"NBO_REGCACHE", INT(0, 1), "1", F(regcache),
     "0: no registration cache (UCX registers on the fly)"},
    {NULL},
};

const nbo_setting_table_t ucx_settings_table = {
    "ucx engine", "UCX engine (libnbo's UCX context reads NBO_UCX_<NAME> as UCX_<NAME>)",
    ucx_settings, "NBO_UCX_"};

int ucx_settings_load(void)
{
    nbo_settings_defaults(ucx_settings, &ucx_set);
    return nbo_settings_from_env(ucx_settings, &ucx_set, "libnbo: ucx engine");
}
