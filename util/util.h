/*
 * util.h - small services any layer of libnbo may use, as ucs/ is for UCX.
 * Nothing here knows requests, schedules, engines or progress.
 */
#ifndef NBO_UTIL_H
#define NBO_UTIL_H

#include "nbo_mpi.h" /* MPI by its PMPI_ names */

#define NBO_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Monotonic seconds. */
double nbo_now(void);

/* The minimum of value over comm into *out (MPI_Allreduce); MPI's code.
 * Result codes that are <= 0 on success and failure alike (libnbo's,
 * p3dfft_overlap's) agree this way: every rank then takes the same branch. */
int nbo_allmin(MPI_Comm comm, int value, int *out);

/* nbo_allmin of a libnbo result code: the worst one over comm, or
 * NBO_ERR_MPI if MPI failed. */
int nbo_agree(MPI_Comm comm, int rc);

#endif
