/*
 * select.c - the choice for a call: which algorithm of its family's table
 * and which window.  The one place a tuner plugs in.
 *
 * Every rank must make the same choice, or their task lists do not match
 * and the call hangs.  So the choice is a function of what every rank
 * shares by MPI's rules only: P, the collective, the sizes the table's
 * conditions read (a uniform block, a total, a vector: the same on every
 * rank of a valid call), the op's commutativity, and the configuration.
 * Never of a rank's own irregular sizes, its clock or its history.  The
 * configuration is per communicator and may differ across ranks (each
 * sets its own): under NBO_CHECK the choice is part of the signature the
 * ranks compare (check.c), so that a difference is NBO_ERR_MISMATCH and
 * not a hang.
 */
#include "core.h"

nbo_choice_t nbo_select(const nbo_sched_args_t *args, const nbo_config_t *cfg)
{
    nbo_sched_args_t a = *args;
    a.algorithm = cfg->algorithm;
    nbo_choice_t choice = {.algorithm = nbo_sched_choose(&a), .window = cfg->window};
    return choice;
}
