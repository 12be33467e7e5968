/*
 * test_ucx_query.c - a UCX communicator says what it is: engine "ucx", a
 * completion descriptor (NBO_CAP_EVENT_FD), the UCX version and transports
 * in its detail; NBO_CAP_OFFLOAD exactly when an RDMA transport (rc/dc) is
 * configured; and the rendezvous threshold libnbo sets on TCP without RDMA
 * exactly when the user set none: "rndv from 128K" with a peer on the same
 * host, "eager at all sizes" when every peer is on another host (the
 * cluster suite runs this program too); UCX's copy path ("tcp copy
 * path") on TCP without RDMA exactly when the user set no zero-copy
 * threshold; and a UCX value UCX
 * rejects (NBO_UCX_RNDV_THRESH=bogus) makes nbo_comm_create fail with
 * NBO_ERR_CONFIG, not a crash or a vague engine error.  And the first
 * nbo_comm_create, which starts UCX, leaves the caller's strtok loop alone.
 * Exits 77 without UCX.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is a listed transport ("... tl self,tcp,rc_mlx5, ...") named `name`, or,
 * with prefix, does one start with it? */
static int has_transport(const char *detail, const char *name, int prefix)
{
    const char *tl = strstr(detail, "tl ");
    size_t n = strlen(name);
    if (!tl)
        return 0;
    for (const char *p = tl + 3; *p && *p != ' '; p++)
        if ((p == tl + 3 || p[-1] == ',') && !strncmp(p, name, n) &&
            (prefix || p[n] == ',' || p[n] == 0))
            return 1;
    return 0;
}

static int has_rdma_transport(const char *detail)
{
    return has_transport(detail, "rc", 1) || has_transport(detail, "dc", 1);
}

/* libnbo's TCP threshold: in the detail exactly when the transports are
 * tcp without rc/dc and neither NBO_UCX_RNDV_THRESH nor UCX_RNDV_THRESH is
 * set (the user's choice wins); which one, from where this rank's peers run
 * (MPI's own idea of a node: alone in its shared-memory communicator). */
static int check_rndv_default(const char *detail)
{
    int user = getenv("NBO_UCX_RNDV_THRESH") || getenv("UCX_RNDV_THRESH");
    int want = has_transport(detail, "tcp", 0) && !has_rdma_transport(detail) && !user;
    MPI_Comm node;
    int local = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    int remote = local == 1; /* no other rank on this node */
    const char *expect = remote ? "eager at all sizes" : "rndv from 128K";
    const char *other = remote ? "rndv from" : "eager at all sizes";
    int ok = want ? strstr(detail, expect) && !strstr(detail, other)
                  : !strstr(detail, "rndv from") && !strstr(detail, "eager at all sizes");
    if (ok)
        return 0;
    fprintf(stderr, "rendezvous threshold: expected %s%s in \"%s\"\n", want ? "" : "none, UCX's own, not ",
            want ? expect : "libnbo's", detail);
    return 1;
}

/* libnbo's copy path for TCP (UCX 1.13 aborts a survivor of a dead peer
 * on its zero-copy tcp sends): in the detail exactly when the transports
 * are tcp without rc/dc and the user left the zero-copy threshold alone,
 * with libnbo's 64 KiB segments unless the user sized tcp's segments. */
static int check_copy_path(const char *detail)
{
    int user = getenv("NBO_UCX_ZCOPY_THRESH") || getenv("UCX_ZCOPY_THRESH");
    int user_seg = getenv("UCX_TCP_TX_SEG_SIZE") || getenv("UCX_TCP_RX_SEG_SIZE");
    int want = has_transport(detail, "tcp", 0) && !has_rdma_transport(detail) && !user;
    int seg = !!strstr(detail, "tcp copy path (64K segments)");
    if (!!strstr(detail, "tcp copy path") == want && seg == (want && !user_seg))
        return 0;
    fprintf(stderr, "copy path: expected it %s in \"%s\"\n", want ? "named" : "absent", detail);
    return 1;
}

/* UCX prints which variable it rejects; libnbo must answer NBO_ERR_CONFIG
 * on every rank and leave no communicator behind. */
static int check_bad_ucx_value(void)
{
    const char *old = getenv("NBO_UCX_RNDV_THRESH");
    char *saved = old ? strdup(old) : NULL;
    setenv("NBO_UCX_RNDV_THRESH", "bogus", 1);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "ucx");
    nbo_comm_t comm = (nbo_comm_t)&cfg; /* must be reset to NBO_COMM_NULL */
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    int bad = rc != NBO_ERR_CONFIG || comm != NBO_COMM_NULL;
    if (bad)
        fprintf(stderr, "NBO_UCX_RNDV_THRESH=bogus: nbo_comm_create said \"%s\"%s, "
                        "expected \"%s\"\n", nbo_strerror(rc),
                comm != NBO_COMM_NULL ? " and left a communicator" : "",
                nbo_strerror(NBO_ERR_CONFIG));
    if (rc == NBO_SUCCESS)
        nbo_comm_free(&comm);
    if (saved)
        setenv("NBO_UCX_RNDV_THRESH", saved, 1);
    else
        unsetenv("NBO_UCX_RNDV_THRESH");
    free(saved);
    return bad;
}

int main(int argc, char **argv)
{
    int provided, rank, bad = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "ucx");
    nbo_comm_t comm;
    /* Inside a strtok loop of the caller's: the engine parses text too. */
    char list[] = "first,second";
    char *tok = strtok(list, ",");
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    tok = strtok(NULL, ",");
    if (rc == NBO_SUCCESS && (!tok || strcmp(tok, "second") != 0)) {
        fprintf(stderr, "nbo_comm_create disturbed the caller's strtok: next token \"%s\"\n",
                tok ? tok : "(none)");
        bad = 1;
    }
    if (rc == NBO_ERR_ENGINE) {
        if (rank == 0)
            printf("test_ucx_query: UCX engine not usable here: SKIP\n");
        MPI_Finalize();
        return 77;
    }
    nbo_comm_info_t info;
    if (rc == NBO_SUCCESS)
        rc = nbo_comm_query(comm, &info);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "test_ucx_query: %s\n", nbo_strerror(rc));
        bad = 1;
    } else {
        int rdma = has_rdma_transport(info.engine_detail);
        if (strcmp(info.engine, "ucx") != 0) {
            fprintf(stderr, "engine is %s, not ucx\n", info.engine);
            bad = 1;
        }
        if (!(info.engine_caps & NBO_CAP_EVENT_FD)) {
            fprintf(stderr, "no NBO_CAP_EVENT_FD in caps 0x%x\n", info.engine_caps);
            bad = 1;
        }
        if (info.engine_caps & NBO_CAP_HW_WAITS) {
            fprintf(stderr, "UCX cannot run waits on the NIC, yet caps say so\n");
            bad = 1;
        }
        if (strncmp(info.engine_detail, "UCX 1.", 6) != 0 || !strstr(info.engine_detail, "tl ")) {
            fprintf(stderr, "detail lacks version and transports: \"%s\"\n", info.engine_detail);
            bad = 1;
        }
        if (!!(info.engine_caps & NBO_CAP_OFFLOAD) != rdma) {
            fprintf(stderr, "NBO_CAP_OFFLOAD %s but transports are \"%s\"\n",
                    info.engine_caps & NBO_CAP_OFFLOAD ? "set" : "clear", info.engine_detail);
            bad = 1;
        }
        bad |= check_rndv_default(info.engine_detail);
        bad |= check_copy_path(info.engine_detail);
        if (rank == 0)
            printf("engine %s, progress %s, caps 0x%x, detail \"%s\"\n", info.engine,
                   nbo_progress_name(info.progress), info.engine_caps, info.engine_detail);
        rc = nbo_comm_free(&comm);
        if (rc != NBO_SUCCESS) {
            fprintf(stderr, "comm_free: %s\n", nbo_strerror(rc));
            bad = 1;
        }
    }
    bad |= check_bad_ucx_value();
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int P;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    /* "PASS (" is the line the cluster tests watch for (tests/cluster). */
    if (rank == 0)
        printf("test_ucx_query P=%d: %s (detail, caps and threshold checked)\n", P,
               all ? "FAIL" : "PASS");
    MPI_Finalize();
    return all ? 1 : 0;
}
