/* ofi_ops.c - the OFI engine's ops table. */
#include "ofi_engine.h"

const nbo_engine_ops_t nbo_ofi_engine = {
    .name = "ofi",
    /* Run here on tcp;ofi_rxm and sockets only: never chosen by
     * NBO_ENGINE=auto until it has run on a NIC's own provider. */
    .by_name_only = 1,
    .settings = &ofi_settings_table,
    .probe = ofi_engine_probe,
    .open = ofi_engine_open,
    .close = ofi_engine_close,
    .caps = ofi_engine_caps,
    .plan_attach = NULL, /* no registration: FI_MR_LOCAL is not offered */
    .plan_detach = NULL,
    .post = ofi_engine_post,
    .offload = ofi_engine_offload,
    .progress = ofi_engine_progress,
    .event_fd = ofi_engine_event_fd,
    .arm = ofi_engine_arm,
    .cancel = ofi_engine_cancel,
};
