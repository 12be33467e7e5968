/*
 * reduce_stage.c - a reduction's per-call data (nbo_reduce_t) and, for a
 * type that is not contiguous from 0, its staging: the task list runs on
 * contiguous scratch laid out as the type, the user's data copied in at
 * each start and back at the end with MPI_Pack and MPI_Unpack, so the
 * holes of the user's buffers are never touched.  The request calls these
 * through its stage hooks (nbo_stage_ops_t).
 */
#include <stdlib.h>

#include "../../util/mpi_compat.h"
#include "reduce.h"

static void reduce_free(nbo_reduce_t *red)
{
    if (!red)
        return;
    if (red->owned != MPI_DATATYPE_NULL)
        MPI_Type_free(&red->owned);
    free(red->in);
    free(red->out);
    free(red->packed);
    free(red);
}

/* Copy n elements of type from src to dst through the packed buffer: the
 * data only, never the holes. */
static int typed_copy(nbo_reduce_t *red, const void *src, void *dst, int n, MPI_Comm comm)
{
    if (n == 0)
        return NBO_SUCCESS;
    MPI_Count pos = 0, upos = 0;
    if (nbo_mpi_pack(src, n, red->type, red->packed, (MPI_Count)red->packed_len, &pos, comm) !=
            MPI_SUCCESS ||
        nbo_mpi_unpack(red->packed, pos, &upos, dst, n, red->type, comm) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    return NBO_SUCCESS;
}

static int stage_in(void *data, MPI_Comm comm)
{
    nbo_reduce_t *red = data;
    char *to = (char *)(red->in ? red->in : red->out) - red->shift;
    return typed_copy(red, red->user_in, to, red->n_in, comm);
}

static int stage_out(void *data, MPI_Comm comm)
{
    nbo_reduce_t *red = data;
    return typed_copy(red, (char *)red->out - red->shift, red->user_out, red->n_out, comm);
}

static void free_data(void *data) { reduce_free(data); }

const nbo_stage_ops_t nbo_reduce_plain_ops = {.free = free_data};
const nbo_stage_ops_t nbo_reduce_staged_ops = {.in = stage_in, .out = stage_out, .free = free_data};
