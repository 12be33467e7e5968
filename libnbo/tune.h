/*
 * tune.h - the online tuner of persistent requests (tune.c): which
 * algorithm and window a request's starts use while it learns.  Internal
 * to libnbo/; request.c calls it.
 */
#ifndef NBO_TUNE_H
#define NBO_TUNE_H

#include "core.h"

/* At each start of a persistent request, before it begins (lock not
 * held, request inactive): may rebuild the plan with the next candidate,
 * or, at the start that ends the trial, agree with the other ranks and
 * keep the one of least mean time.  Collective at that one start. */
int  nbo_tune_start(struct nbo_request *r);
/* The plan's choice, and how many starts of the trial are left (0: the
 * choice is kept); returns 1 when the request is tuned. */
int  nbo_tune_query(const struct nbo_request *r, nbo_choice_t *choice, int *trial_left);
void nbo_tune_free(struct nbo_request *r);

/* NBO_TUNE_CALLS, a non-persistent call (lock not held): may set a's
 * algorithm and window from its class's trial, and says which class the
 * call belongs to (*cls NULL: not tuned).  Collective at the calls whose
 * step agrees. */
int  nbo_tune_call(struct nbo_comm *c, const nbo_coll_call_t *k, nbo_sched_args_t *a,
                   struct nbo_tune **cls);
/* 1 while the class's trial runs (its calls are not kept for reuse). */
int  nbo_tune_call_learning(const struct nbo_tune *cls);
void nbo_tune_classes_free(struct nbo_comm *c);

#endif
