#include <nbo.h>

/* The NBO_* environment, then progress forced inline. */
int make_comm(MPI_Comm parent, nbo_comm_t *comm)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    int rc = nbo_config_from_env(&cfg);     /* bad values named on stderr */
    if (rc != NBO_SUCCESS)
        return rc;
    cfg.progress = NBO_PROGRESS_INLINE;
    return nbo_comm_create(parent, &cfg, comm);
}
