/*
 * mpi_thread_single.c - preloaded before libnbo-mpi.so, makes MPI behave
 * like one built without thread support: every MPI_Init_thread (the one
 * libnbo-mpi makes for MPI_Init included) asks MPI for MPI_THREAD_SINGLE,
 * and gets it.  docs/troubleshooting.md quotes what libnbo-mpi then logs.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <mpi.h>

typedef int init_thread_fn(int *, char ***, int, int *);

int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)required;
    init_thread_fn *next = (init_thread_fn *)dlsym(RTLD_NEXT, "PMPI_Init_thread");
    return next ? next(argc, argv, MPI_THREAD_SINGLE, provided) : MPI_ERR_OTHER;
}
