/* stage_plan.c - the pure arithmetic of staging device buffers (no CUDA). */
#include "device.h"

int nbo_stage_pipelinable(const nbo_sched_t *s, int in_place)
{
    if (in_place || s->tmp_bytes)
        return 0;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        switch (t->kind) {
        case NBO_TASK_WAIT:
            break;
        case NBO_TASK_SEND:
            if (t->buf != NBO_BUF_SEND)
                return 0;
            break;
        case NBO_TASK_RECV:
            if (t->buf != NBO_BUF_RECV)
                return 0;
            break;
        case NBO_TASK_COPY:
            if (t->src_buf != NBO_BUF_SEND || t->buf != NBO_BUF_RECV)
                return 0;
            break;
        default: /* PACK, UNPACK */
            return 0;
        }
    }
    return 1;
}

int nbo_stage_group(const nbo_task_t *tasks, int ntasks, size_t chunk, int *group_of)
{
    int groups = 0;
    size_t fill = 0; /* bytes in the open chunk */
    for (int i = 0; i < ntasks; i++) {
        group_of[i] = -1;
        if (tasks[i].kind != NBO_TASK_SEND || tasks[i].buf != NBO_BUF_SEND)
            continue;
        size_t len = tasks[i].len;
        /* A new chunk when this send does not fit in the open one.  A
         * chunk holds at least one send, so fill may exceed chunk. */
        if (groups == 0 || (fill > 0 && (fill >= chunk || len > chunk - fill))) {
            groups++;
            fill = 0;
        }
        group_of[i] = groups - 1;
        fill += len;
    }
    return groups;
}

void nbo_stage_extent(MPI_Aint lo, MPI_Aint hi, size_t span, MPI_Aint *from, size_t *bytes)
{
    MPI_Aint a = lo < 0 ? lo : 0;
    MPI_Aint b = hi > (MPI_Aint)span ? hi : (MPI_Aint)span;
    if (hi <= lo) /* no block touches the buffer */
        b = (MPI_Aint)span;
    *from = a;
    *bytes = (size_t)(b - a);
}
