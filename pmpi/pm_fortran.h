/*
 * pm_fortran.h - the Fortran bindings' calls, in C, for the MPIs whose
 * Fortran library calls MPI through PMPI_ names (or its internals) and so
 * bypasses the C entry points this library interposes (docs/fortran.md).
 *
 * Arguments are as every Fortran binding passes them: by reference,
 * handles as MPI_Fint, statuses as MPI_Fint words laid out as the C
 * MPI_Status (MPI_STATUS_SIZE = sizeof(MPI_Status) / sizeof(MPI_Fint) in
 * MPICH and Open MPI alike), LOGICAL as MPI_Fint, indices from 1, ierror
 * NULL where an mpi_f08 caller left it out.  `ign` / `igns` are the
 * binding's MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE.
 */
#ifndef NBO_PM_FORTRAN_H
#define NBO_PM_FORTRAN_H

#include <mpi.h>

void pm_f_init(MPI_Fint *ierr);
void pm_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr);
void pm_f_finalize(MPI_Fint *ierr);

void pm_f_wait(MPI_Fint *req, MPI_Fint *st, const void *ign, MPI_Fint *ierr);
void pm_f_test(MPI_Fint *req, MPI_Fint *flag, MPI_Fint *st, const void *ign, MPI_Fint *ierr);
void pm_f_waitall(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *sts, const void *igns, MPI_Fint *ierr);
void pm_f_testall(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *flag, MPI_Fint *sts, const void *igns,
                  MPI_Fint *ierr);
void pm_f_waitany(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *st, const void *ign,
                  MPI_Fint *ierr);
void pm_f_testany(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *index, MPI_Fint *flag, MPI_Fint *st,
                  const void *ign, MPI_Fint *ierr);
void pm_f_waitsome(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
                   MPI_Fint *sts, const void *igns, MPI_Fint *ierr);
void pm_f_testsome(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *outcount, MPI_Fint *indices,
                   MPI_Fint *sts, const void *igns, MPI_Fint *ierr);
void pm_f_request_get_status(MPI_Fint *req, MPI_Fint *flag, MPI_Fint *st, const void *ign,
                             MPI_Fint *ierr);
void pm_f_start(MPI_Fint *req, MPI_Fint *ierr);
void pm_f_startall(MPI_Fint *n, MPI_Fint *reqs, MPI_Fint *ierr);
void pm_f_request_free(MPI_Fint *req, MPI_Fint *ierr);
void pm_f_cancel(MPI_Fint *req, MPI_Fint *ierr);

/* *ierr = rc where the caller passed ierror. */
static inline void pm_f_rc(MPI_Fint *ierr, int rc)
{
    if (ierr)
        *ierr = rc;
}

#endif
