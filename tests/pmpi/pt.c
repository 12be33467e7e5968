/* pt.c - see pt.h. */
#define _GNU_SOURCE
#include "pt.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pt_rank, pt_size;
static const char *pt_name;
static const char *pt_expect = "";
static int failures;

void pt_init(int *argc, char ***argv, const char *name)
{
    pt_name = name;
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &pt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &pt_size);
    for (int i = 1; i < *argc; i++)
        if (strncmp((*argv)[i], "--expect=", 9) == 0)
            pt_expect = (*argv)[i] + 9;
}

void pt_fail(const char *fmt, ...)
{
    if (failures++ < 5) {
        char msg[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof(msg), fmt, ap);
        va_end(ap);
        fprintf(stderr, "%s rank %d: FAIL %s\n", pt_name, pt_rank, msg);
    }
}

void pt_fill(int *send, int n, MPI_Comm comm, int seed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (int d = 0; d < p; d++)
        for (int i = 0; i < n; i++)
            send[d * n + i] = pt_val(me, d, i, seed);
}

void pt_check(const int *recv, int n, MPI_Comm comm, int seed, const char *what)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    for (int s = 0; s < p; s++)
        for (int i = 0; i < n; i++)
            if (recv[s * n + i] != pt_val(s, me, i, seed)) {
                pt_fail("%s: from %d element %d is %d, want %d", what, s, i, recv[s * n + i],
                        pt_val(s, me, i, seed));
                return;
            }
}

void pt_vlayout(MPI_Comm comm, int sc[], int sd[], int rc[], int rd[], int *stotal, int *rtotal)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int s = 0, r = 0;
    for (int d = 0; d < p; d++) {
        sc[d] = pt_vcount(me, d);
        sd[d] = s;
        s += sc[d];
        rc[d] = pt_vcount(d, me);
        rd[d] = r;
        r += rc[d];
    }
    *stotal = s;
    *rtotal = r;
}

void pt_vfill(int *send, MPI_Comm comm, int seed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int k = 0;
    for (int d = 0; d < p; d++)
        for (int i = 0; i < pt_vcount(me, d); i++)
            send[k++] = pt_val(me, d, i, seed);
}

void pt_vcheck(const int *recv, MPI_Comm comm, int seed, const char *what)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    int k = 0;
    for (int s = 0; s < p; s++)
        for (int i = 0; i < pt_vcount(s, me); i++, k++)
            if (recv[k] != pt_val(s, me, i, seed)) {
                pt_fail("%s: from %d element %d is %d, want %d", what, s, i, recv[k],
                        pt_val(s, me, i, seed));
                return;
            }
}

int pt_expect_nbo(void) { return strcmp(pt_expect, "nbo") == 0; }

typedef int (*stats_fn)(long *, long *, long *);

static stats_fn stats(void) { return (stats_fn)dlsym(RTLD_DEFAULT, "nbo_pmpi_stats"); }

long pt_served(void)
{
    long served = -1;
    stats_fn f = stats();
    if (f)
        f(&served, NULL, NULL);
    return served;
}

long pt_live_comms(void)
{
    long live = -1;
    stats_fn f = stats();
    if (f)
        f(NULL, &live, NULL);
    return live;
}

int pt_finish(void)
{
    long served = pt_served();
    if (strcmp(pt_expect, "nbo") == 0)
        PT_CHECK(served > 0, "expected libnbo to serve calls, served=%ld "
                             "(-1: libnbo-mpi not loaded)", served);
    else if (strcmp(pt_expect, "mpi") == 0)
        PT_CHECK(served <= 0, "expected a pass-through, libnbo served %ld calls", served);
    int mine = failures, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (pt_rank == 0)
        printf("%s P=%d expect=%s served=%ld: %s (%d failures)\n", pt_name, pt_size,
               pt_expect[0] ? pt_expect : "-", served, all ? "FAIL" : "PASS", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
