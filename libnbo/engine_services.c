/* engine_services.c - what the core hands every engine (offload/engine.h):
 * engines call libnbo and progress/ only through it, so that the layers'
 * call edges point down (tests/unit/check_calls.sh). */
#include <stdio.h>

#include "core.h"

const nbo_engine_services_t nbo_engine_services = {
    .complete = nbo_exec_complete,
    .lock = nbo_lock,
    .unlock = nbo_unlock,
};

/* Here, not in offload/registry.c: a probe gets the services. */
int nbo_engine_available(const char *name, char *detail, size_t len)
{
    char tmp[160];
    if (!detail || len == 0) {
        detail = tmp;
        len = sizeof(tmp);
    }
    if (!name) {
        snprintf(detail, len, "no engine named");
        return NBO_ERR_ARG;
    }
    const nbo_engine_ops_t *e = nbo_engine_find(name);
    if (!e) {
        snprintf(detail, len, "not built into this libnbo");
        return NBO_ERR_ENGINE;
    }
    return e->probe(&nbo_engine_services, detail, len);
}
