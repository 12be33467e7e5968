/* ucx_ops.c - the UCX engine's ops table. */
#include "ucx_engine.h"

const nbo_engine_ops_t nbo_ucx_engine = {
    .name = "ucx",
    .settings = &ucx_settings_table,
    .probe = ucx_engine_probe,
    .open = ucx_engine_open,
    .close = ucx_engine_close,
    .caps = ucx_engine_caps,
    .plan_attach = ucx_engine_plan_attach,
    .plan_detach = ucx_engine_plan_detach,
    .post = ucx_engine_post,
    .progress = ucx_engine_progress,
    .event_fd = ucx_engine_event_fd,
    .arm = ucx_engine_arm,
    .cancel = ucx_engine_cancel,
};
