/*
 * test_ofi_badinput.c - bad OFI settings end in an error code and a line
 * that names the variable, never a crash nor another engine:
 * NBO_OFI_PROVIDER=nonexistent (NBO_ERR_ENGINE, the provider named on
 * stderr) and NBO_OFI_WAIT_FD=7 (NBO_ERR_CONFIG).  Then, the settings
 * cleared, a communicator on the engine opens and frees.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, failures;

/* nbo_comm_create on ofi with variable=value; its stderr into said. */
static int create_with(const char *var, const char *value, char *said, size_t len)
{
    setenv(var, value, 1);
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_set(&cfg, "NBO_ENGINE", "ofi");
    nbo_comm_t comm = NBO_COMM_NULL;
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(said, 1, len - 1, tmp);
    said[n] = 0;
    fclose(tmp);
    if (comm != NBO_COMM_NULL) {
        fprintf(stderr, "[%d] %s=%s: a communicator was created\n", rank, var, value);
        failures++;
        nbo_comm_free(&comm);
    }
    unsetenv(var);
    return rc;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsetenv("NBO_OFI_PROVIDER");
    unsetenv("NBO_OFI_WAIT_FD");
    char said[4096];

    int rc = create_with("NBO_OFI_PROVIDER", "nonexistent", said, sizeof(said));
    if (rc != NBO_ERR_ENGINE && rc != NBO_ERR_CONFIG) {
        fprintf(stderr, "[%d] NBO_OFI_PROVIDER=nonexistent: %s\n", rank, nbo_strerror(rc));
        failures++;
    }
    if (!strstr(said, "NBO_OFI_PROVIDER=nonexistent")) {
        fprintf(stderr, "[%d] NBO_OFI_PROVIDER=nonexistent: stderr does not name it: '%s'\n",
                rank, said);
        failures++;
    }
    setenv("NBO_OFI_PROVIDER", "nonexistent", 1);
    char detail[128];
    if (nbo_engine_available("ofi", detail, sizeof(detail)) == NBO_SUCCESS) {
        fprintf(stderr, "[%d] ofi available with a nonexistent provider\n", rank);
        failures++;
    }
    unsetenv("NBO_OFI_PROVIDER");

    rc = create_with("NBO_OFI_WAIT_FD", "7", said, sizeof(said));
    if (rc != NBO_ERR_CONFIG || !strstr(said, "NBO_OFI_WAIT_FD")) {
        fprintf(stderr, "[%d] NBO_OFI_WAIT_FD=7: %s, stderr '%s'\n", rank, nbo_strerror(rc), said);
        failures++;
    }

    /* Valid again: the engine opens (the provider of libfabric's order). */
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_set(&cfg, "NBO_ENGINE", "ofi");
    nbo_comm_t comm;
    rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc == NBO_SUCCESS)
        rc = nbo_comm_free(&comm);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "[%d] ofi with valid settings: %s\n", rank, nbo_strerror(rc));
        failures++;
    }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ofi_badinput: %s (%d failures)\n", total ? "FAIL" : "PASS", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
