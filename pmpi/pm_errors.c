/*
 * pm_errors.c - libnbo's errors as MPI error codes.
 *
 * At MPI_Init the library adds one MPI error class for libnbo and one code
 * per NBO_ERR_*, whose MPI_Error_string is "libnbo: " + nbo_strerror.  A
 * served collective that fails completes with that code: the return value
 * of MPI_Wait, MPI_Test, MPI_Waitany and MPI_Testany, or its status's
 * MPI_ERROR for the calls that return MPI_ERR_IN_STATUS.  MPICH itself only
 * says that a generalized request's query function failed, so the
 * completion calls (pm_requests.c) put our code in place of MPICH's, found
 * by the handle the failed request had: its free function leaves the error
 * here under that handle (pm_failed_put) until the call takes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

#define NCODES 64 /* indexed by -NBO_ERR_*; libnbo has fewer */

static int codes[NCODES]; /* 0: not made (MPI_ERR_OTHER stands in) */

typedef struct failed {
    MPI_Request    h;
    int            err;
    struct failed *next;
} failed_t;

static failed_t *failed;
static atomic_int nfailed;

void pm_errors_init(void)
{
    int cls;
    if (PMPI_Add_error_class(&cls) != MPI_SUCCESS)
        return;
    for (int e = 1; e < NCODES; e++) {
        const char *msg = nbo_strerror(-e);
        if (strcmp(msg, nbo_strerror(1)) == 0)
            break; /* past the last code: "unknown error" */
        char text[MPI_MAX_ERROR_STRING];
        snprintf(text, sizeof(text), "libnbo: %s", msg);
        int code;
        if (PMPI_Add_error_code(cls, &code) != MPI_SUCCESS ||
            PMPI_Add_error_string(code, text) != MPI_SUCCESS)
            return;
        codes[e] = code;
    }
}

int pm_errcode(int nbo_err)
{
    if (nbo_err == NBO_ERR_NOMEM)
        return MPI_ERR_NO_MEM;
    int e = -nbo_err;
    return e > 0 && e < NCODES && codes[e] ? codes[e] : MPI_ERR_OTHER;
}

void pm_failed_put(MPI_Request h, int nbo_err)
{
    failed_t *f = malloc(sizeof(*f));
    if (!f)
        return; /* MPICH's own code is reported instead */
    f->h = h;
    f->err = nbo_err;
    pthread_mutex_lock(&pm_mutex);
    f->next = failed;
    failed = f;
    atomic_fetch_add(&nfailed, 1);
    pthread_mutex_unlock(&pm_mutex);
}

int pm_failed_take(MPI_Request h)
{
    if (atomic_load(&nfailed) == 0 || h == MPI_REQUEST_NULL)
        return NBO_SUCCESS;
    failed_t *f = NULL;
    pthread_mutex_lock(&pm_mutex);
    for (failed_t **p = &failed; *p; p = &(*p)->next)
        if ((*p)->h == h) {
            f = *p;
            *p = f->next;
            atomic_fetch_sub(&nfailed, 1);
            break;
        }
    pthread_mutex_unlock(&pm_mutex);
    int err = f ? f->err : NBO_SUCCESS;
    free(f);
    return err;
}

int pm_failed_pending(void) { return atomic_load(&nfailed) > 0; }

void pm_failed_clear(void)
{
    pthread_mutex_lock(&pm_mutex);
    failed_t *f = failed;
    failed = NULL;
    atomic_store(&nfailed, 0);
    pthread_mutex_unlock(&pm_mutex);
    while (f) {
        failed_t *next = f->next;
        free(f);
        f = next;
    }
}
