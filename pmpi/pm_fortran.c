/*
 * pm_fortran.c - the Fortran forms of MPI_Init*, MPI_Finalize and the
 * completion and start calls, each running this library's C entry point.
 * The names that reach them are each MPI's (pm_fortran_names.c).
 */
#include <stdlib.h>
#include <string.h>

#include "pm_fortran.h"
#include "pmpi.h"

#define F_STATUS_WORDS (sizeof(MPI_Status) / sizeof(MPI_Fint))
_Static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0, "MPI_Status in MPI_Fint words");

/* The C status into a Fortran one, unless the caller ignores it. */
static void status_out(const MPI_Status *c, MPI_Fint *f, const void *ign)
{
    if (f && (const void *)f != ign)
        memcpy(f, c, sizeof(*c));
}

static void statuses_out(int n, const MPI_Status *c, MPI_Fint *f, const void *igns)
{
    if (!f || (const void *)f == igns)
        return;
    for (int i = 0; i < n; i++)
        memcpy(f + (size_t)i * F_STATUS_WORDS, &c[i], sizeof(*c));
}

/* C copies of n Fortran requests, and room for n statuses; NULL if out
 * of memory.  One allocation, statuses first (their alignment is at
 * least a request's), freed by reqs_back. */
static MPI_Request *reqs_in(int n, const MPI_Fint *f, MPI_Status **st)
{
    size_t len = (size_t)(n > 0 ? n : 1);
    *st = malloc(len * (sizeof(MPI_Status) + sizeof(MPI_Request)));
    if (!*st)
        return NULL;
    MPI_Request *c = (MPI_Request *)(void *)(*st + len);
    for (int i = 0; i < n; i++)
        c[i] = PMPI_Request_f2c(f[i]);
    return c;
}

/* The requests back into Fortran (completed ones are MPI_REQUEST_NULL). */
static void reqs_back(int n, MPI_Request *c, MPI_Status *st, MPI_Fint *f)
{
    for (int i = 0; i < n; i++)
        f[i] = PMPI_Request_c2f(c[i]);
    free(st);
}

void pm_f_init(MPI_Fint *ierr) { pm_f_rc(ierr, MPI_Init(NULL, NULL)); }

void pm_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    int p = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(NULL, NULL, *required, &p);
    *provided = p;
    pm_f_rc(ierr, rc);
}

void pm_f_finalize(MPI_Fint *ierr) { pm_f_rc(ierr, MPI_Finalize()); }

void pm_f_wait(MPI_Fint *req, MPI_Fint *st, const void *ign, MPI_Fint *ierr)
{
    MPI_Request r = PMPI_Request_f2c(*req);
    MPI_Status s;
    int rc = MPI_Wait(&r, &s);
    *req = PMPI_Request_c2f(r);
    status_out(&s, st, ign);
    pm_f_rc(ierr, rc);
}

void pm_f_test(MPI_Fint *req, MPI_Fint *flag, MPI_Fint *st, const void *ign, MPI_Fint *ierr)
{
    MPI_Request r = PMPI_Request_f2c(*req);
    MPI_Status s;
    int f = 0;
    int rc = MPI_Test(&r, &f, &s);
    *req = PMPI_Request_c2f(r);
    *flag = f != 0;
    if (f)
        status_out(&s, st, ign);
    pm_f_rc(ierr, rc);
}

void pm_f_request_get_status(MPI_Fint *req, MPI_Fint *flag, MPI_Fint *st, const void *ign,
                             MPI_Fint *ierr)
{
    MPI_Status s;
    int f = 0;
    int rc = MPI_Request_get_status(PMPI_Request_f2c(*req), &f, &s);
    *flag = f != 0;
    if (f)
        status_out(&s, st, ign);
    pm_f_rc(ierr, rc);
}

void pm_f_waitall(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *sts, const void *igns, MPI_Fint *ierr)
{
    MPI_Status *s;
    MPI_Request *c = reqs_in(*n, reqs, &s);
    if (!c)
        return pm_f_rc(ierr, MPI_ERR_NO_MEM);
    int rc = MPI_Waitall(*n, c, s);
    statuses_out(*n, s, sts, igns);
    reqs_back(*n, c, s, reqs);
    pm_f_rc(ierr, rc);
}

void pm_f_testall(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *flag, MPI_Fint *sts, const void *igns,
                  MPI_Fint *ierr)
{
    MPI_Status *s;
    MPI_Request *c = reqs_in(*n, reqs, &s);
    if (!c)
        return pm_f_rc(ierr, MPI_ERR_NO_MEM);
    int f = 0;
    int rc = MPI_Testall(*n, c, &f, s);
    *flag = f != 0;
    if (f)
        statuses_out(*n, s, sts, igns);
    reqs_back(*n, c, s, reqs);
    pm_f_rc(ierr, rc);
}

/* Fortran counts from 1; MPI_UNDEFINED stays. */
static MPI_Fint index_out(int i) { return i == MPI_UNDEFINED ? i : i + 1; }

void pm_f_waitany(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *st, const void *ign,
                  MPI_Fint *ierr)
{
    MPI_Status *s;
    MPI_Request *c = reqs_in(*n, reqs, &s);
    if (!c)
        return pm_f_rc(ierr, MPI_ERR_NO_MEM);
    int i = MPI_UNDEFINED;
    int rc = MPI_Waitany(*n, c, &i, s);
    *index = index_out(i);
    status_out(s, st, ign);
    reqs_back(*n, c, s, reqs);
    pm_f_rc(ierr, rc);
}

void pm_f_testany(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *flag, MPI_Fint *st,
                  const void *ign, MPI_Fint *ierr)
{
    MPI_Status *s;
    MPI_Request *c = reqs_in(*n, reqs, &s);
    if (!c)
        return pm_f_rc(ierr, MPI_ERR_NO_MEM);
    int i = MPI_UNDEFINED, f = 0;
    int rc = MPI_Testany(*n, c, &i, &f, s);
    *index = index_out(i);
    *flag = f != 0;
    if (f)
        status_out(s, st, ign);
    reqs_back(*n, c, s, reqs);
    pm_f_rc(ierr, rc);
}

/* Waitsome and Testsome: the same but for the call. */
static void some(int (*call)(int, MPI_Request *, int *, int *, MPI_Status *), MPI_Fint *n,
                 MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices, MPI_Fint *sts,
                 const void *igns, MPI_Fint *ierr)
{
    MPI_Status *s;
    MPI_Request *c = reqs_in(*n, reqs, &s);
    int *idx = malloc(sizeof(int) * (size_t)(*n > 0 ? *n : 1));
    if (!c || !idx) {
        free(c ? s : NULL);
        free(idx);
        return pm_f_rc(ierr, MPI_ERR_NO_MEM);
    }
    int out = MPI_UNDEFINED;
    int rc = call(*n, c, &out, idx, s);
    *outcount = out;
    for (int k = 0; out != MPI_UNDEFINED && k < out; k++)
        indices[k] = idx[k] + 1;
    if (out != MPI_UNDEFINED)
        statuses_out(out, s, sts, igns);
    reqs_back(*n, c, s, reqs);
    free(idx);
    pm_f_rc(ierr, rc);
}

void pm_f_waitsome(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
                   MPI_Fint *sts, const void *igns, MPI_Fint *ierr)
{
    some(MPI_Waitsome, n, reqs, outcount, indices, sts, igns, ierr);
}

void pm_f_testsome(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
                   MPI_Fint *sts, const void *igns, MPI_Fint *ierr)
{
    some(MPI_Testsome, n, reqs, outcount, indices, sts, igns, ierr);
}

void pm_f_start(MPI_Fint *req, MPI_Fint *ierr)
{
    MPI_Request r = PMPI_Request_f2c(*req);
    int rc = MPI_Start(&r);
    *req = PMPI_Request_c2f(r);
    pm_f_rc(ierr, rc);
}

void pm_f_startall(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *ierr)
{
    MPI_Status *s;
    MPI_Request *c = reqs_in(*n, reqs, &s);
    if (!c)
        return pm_f_rc(ierr, MPI_ERR_NO_MEM);
    int rc = MPI_Startall(*n, c);
    reqs_back(*n, c, s, reqs);
    pm_f_rc(ierr, rc);
}

void pm_f_request_free(MPI_Fint *req, MPI_Fint *ierr)
{
    MPI_Request r = PMPI_Request_f2c(*req);
    int rc = MPI_Request_free(&r);
    *req = PMPI_Request_c2f(r);
    pm_f_rc(ierr, rc);
}

void pm_f_cancel(MPI_Fint *req, MPI_Fint *ierr)
{
    MPI_Request r = PMPI_Request_f2c(*req);
    pm_f_rc(ierr, MPI_Cancel(&r));
}
