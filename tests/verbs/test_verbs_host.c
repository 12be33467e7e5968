/*
 * test_verbs_host.c - on a machine without an RDMA device (this host), asking
 * for the verbs engine fails cleanly with NBO_ERR_ENGINE on every rank, and
 * auto falls back to another engine; an NBO_VERBS_* value that is not a
 * number in its range gives NBO_ERR_CONFIG instead (auto still falls back).
 * Exits 77 (SKIP) where a device exists:
 * the Soft-RoCE guest checks that case.
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include <nbo.h>

int main(int argc, char **argv)
{
    int provided, rank, fails = 0, any_dev = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (list)
        ibv_free_device_list(list);
    MPI_Allreduce(&n, &any_dev, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_dev) {
        if (rank == 0)
            printf("test_verbs_host: SKIP: an RDMA device is present\n");
        MPI_Finalize();
        return 77;
    }
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "verbs");
    nbo_comm_t c = NBO_COMM_NULL;
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &c);
    if (rc != NBO_ERR_ENGINE || c != NBO_COMM_NULL) {
        fprintf(stderr, "rank %d: engine verbs without a device gave %d (%s)\n", rank, rc,
                nbo_strerror(rc));
        fails++;
    }
    strcpy(cfg.engine, "auto");
    rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &c);
    nbo_comm_info_t info;
    if (rc != NBO_SUCCESS || nbo_comm_query(c, &info) != NBO_SUCCESS ||
        strcmp(info.engine, "verbs") == 0) {
        fprintf(stderr, "rank %d: auto did not fall back (rc %d)\n", rank, rc);
        fails++;
    } else if (rank == 0)
        printf("test_verbs_host: verbs -> NBO_ERR_ENGINE, auto -> %s\n",
               info.engine);
    if (c)
        nbo_comm_free(&c);
    static const char *const bad[][2] = {
        {"NBO_VERBS_PORT", "abc"}, {"NBO_VERBS_ACK_TIMEOUT", "40"}, {"NBO_VERBS_BOUNCE", "-1"}};
    for (int i = 0; i < 3; i++) {
        setenv(bad[i][0], bad[i][1], 1);
        strcpy(cfg.engine, "verbs");
        c = NBO_COMM_NULL;
        rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &c);
        if (rc != NBO_ERR_CONFIG || c != NBO_COMM_NULL) {
            fprintf(stderr, "rank %d: engine verbs with %s=%s gave %d (%s)\n", rank, bad[i][0],
                    bad[i][1], rc, nbo_strerror(rc));
            fails++;
        }
        strcpy(cfg.engine, "auto");
        rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &c);
        if (rc != NBO_SUCCESS) {
            fprintf(stderr, "rank %d: auto with %s=%s gave %d (%s)\n", rank, bad[i][0],
                    bad[i][1], rc, nbo_strerror(rc));
            fails++;
        } else
            nbo_comm_free(&c);
        unsetenv(bad[i][0]);
    }
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_verbs_host: %s\n", all ? "FAIL" : "PASS");
    MPI_Finalize();
    return all ? 1 : 0;
}
