/* reduce.h - the reductions' stage hooks (reduce_stage.c).  Internal to
 * libnbo/coll/. */
#ifndef NBO_COLL_REDUCE_H
#define NBO_COLL_REDUCE_H

#include "family.h"

/* Both free the nbo_reduce_t they are given; staged copies the user's
 * data to the scratch at each start and the result back at the end. */
extern const nbo_stage_ops_t nbo_reduce_plain_ops, nbo_reduce_staged_ops;

#endif
