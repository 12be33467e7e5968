/* mpi_endpoint.c - open, close and describe the MPI engine. */
#include <stdio.h>
#include <stdlib.h>

#include "mpi_engine.h"

int mpi_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len)
{
    (void)sv; /* nothing shared to lock */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(lib, &n);
    for (int i = 0; i < n; i++)
        if (lib[i] == '\n') {
            lib[i] = 0;
            break;
        }
    snprintf(detail, len, "%s", lib);
    return NBO_SUCCESS;
}

int mpi_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                    nbo_engine_comm_t **out)
{
    (void)cfg;
    nbo_engine_comm_t *ec = calloc(1, sizeof(*ec));
    if (!ec)
        return NBO_ERR_NOMEM;
    ec->sv = sv;
    ec->comm = comm;
    int *ub, flag = 0;
    MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag);
    ec->tag_ub = flag ? *ub : 32767;
    *out = ec;
    return NBO_SUCCESS;
}

void mpi_engine_close(nbo_engine_comm_t *ec, int broken)
{
    (void)broken; /* nothing here waits on a peer */
    if (!ec)
        return;
    free(ec->reqs);
    free(ec->ops);
    free(ec->idx);
    free(ec->st);
    free(ec);
}

unsigned mpi_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len)
{
    (void)ec;
    mpi_engine_probe(ec->sv, detail, len);
    return 0; /* the host runs everything, and there is nothing to sleep on */
}
