#include <stdio.h>
#include <nbo.h>

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm); /* NBO_* applies */
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* ... many nbo_ialltoall + nbo_wait on comm ... */
    nbo_comm_free(&comm);
    MPI_Finalize();
    return 0;
}
