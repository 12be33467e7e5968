/*
 * rdma_objects.h - how many RDMA objects (QPs, CQs, MRs, PDs) this process
 * owns, as the kernel lists them (`rdma resource show`, iproute2): a leak
 * check that does not depend on the engine's own bookkeeping.  -1 when the
 * command cannot run.  Used by tests/verbs/test_verbs.c and, with
 * NBO_SOAK_RDMA=1, tests/reliability/test_soak.c.
 */
#ifndef RDMA_OBJECTS_H
#define RDMA_OBJECTS_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline int rdma_objects_of_self(void)
{
    FILE *f = popen("for r in qp cq mr pd; do rdma resource show $r; done 2>/dev/null", "r");
    if (!f)
        return -1;
    char line[1024], needle[32];
    snprintf(needle, sizeof(needle), " pid %d ", (int)getpid());
    int n = 0;
    while (fgets(line, sizeof(line), f))
        n += strstr(line, needle) != NULL;
    pclose(f);
    return n;
}

#endif
