/* verbs_ops.c - the verbs engine's ops table. */
#include "verbs_engine.h"

const nbo_engine_ops_t nbo_verbs_engine = {
    .name = "verbs",
    .settings = &verbs_settings_table,
    /* Tested on Soft-RoCE only; UCX drives real InfiniBand/RoCE NICs. */
    .by_name_only = 1,
    .probe = verbs_engine_probe,
    .open = verbs_engine_open,
    .close = verbs_engine_close,
    .caps = verbs_engine_caps,
    .plan_attach = verbs_plan_attach,
    .plan_detach = verbs_plan_detach,
    .post = verbs_engine_post,
    .progress = verbs_engine_progress,
    .event_fd = verbs_engine_event_fd,
    .arm = verbs_engine_arm,
    .cancel = verbs_engine_cancel,
};
