/*
 * test_thread_pin.c - NBO_PROGRESS_CPU=last pins the progress thread to the
 * highest core of the process's affinity mask, and a number pins it to
 * that core.  Each rank restricts its own mask first, as a launcher's
 * binding would; the kernel's view of the thread (Cpus_allowed_list in
 * /proc, nbo_thread.h) is what is checked.  Then an all-to-all completes.
 *
 *   test_thread_pin last | N
 */
#define _GNU_SOURCE
#include "nbo_test.h"
#include "nbo_thread.h"

#include <sched.h>
#include <string.h>

int main(int argc, char **argv)
{
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const char *how = argc > 1 ? argv[1] : "last";

    /* This rank's binding: every core it has, or the first two. */
    cpu_set_t mask;
    sched_getaffinity(0, sizeof(mask), &mask);
    int ncpu = CPU_COUNT(&mask), first = -1, second = -1;
    for (int c = 0; c < CPU_SETSIZE && second < 0; c++)
        if (CPU_ISSET(c, &mask)) {
            if (first < 0)
                first = c;
            else
                second = c;
        }
    if (ncpu > 2) {
        CPU_ZERO(&mask);
        CPU_SET(first, &mask);
        CPU_SET(second, &mask);
        sched_setaffinity(0, sizeof(mask), &mask);
    }
    int want = strcmp(how, "last") == 0 ? (second >= 0 ? second : first) : atoi(how);
    setenv("NBO_PROGRESS_CPU", how, 1);
    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);

    char status[4096], list[64] = "?";
    int got = -1;
    const char *l = nbo_thread_read("status", status, sizeof(status)) == 0
                        ? strstr(status, "Cpus_allowed_list:")
                        : NULL;
    if (l && sscanf(l, "Cpus_allowed_list: %63s", list) == 1 && !strchr(list, ',') &&
        !strchr(list, '-'))
        got = atoi(list); /* exactly one core */

    int data_ok, rc = nbo_test_alltoall_once(comm, &data_ok);

    int bad = got != want || rc != NBO_SUCCESS || !data_ok, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    printf("%s: rank %d: NBO_PROGRESS_CPU=%s: thread nbo-progress on CPU %s (want %d), "
           "all-to-all: %s, data %s\n",
           bad ? "FAIL" : "PASS", me, how, list, want, nbo_strerror(rc),
           data_ok ? "right" : "WRONG");
    nbo_comm_free(&comm);
    MPI_Finalize();
    return any ? 1 : 0;
}
