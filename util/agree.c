/* agree.c - consensus on a result over a communicator. */
#include "util.h"

#include "nbo.h"

int nbo_allmin(MPI_Comm comm, int value, int *out)
{
    *out = value;
    return MPI_Allreduce(&value, out, 1, MPI_INT, MPI_MIN, comm);
}

int nbo_agree(MPI_Comm comm, int rc)
{
    int all;
    return nbo_allmin(comm, rc, &all) == MPI_SUCCESS ? all : NBO_ERR_MPI;
}
