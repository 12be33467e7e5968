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
 * keep the fastest.  Collective at that one start. */
int  nbo_tune_start(struct nbo_request *r);
/* A run of r ended (lock held): its time counts for its candidate. */
void nbo_tune_finished(struct nbo_request *r, int status);
/* The plan's choice, and how many starts of the trial are left (0: the
 * choice is kept); returns 1 when the request is tuned. */
int  nbo_tune_query(const struct nbo_request *r, nbo_choice_t *choice, int *trial_left);
void nbo_tune_free(struct nbo_request *r);

#endif
