/*
 * test_api.c - the small pure parts around the compiler: printing a task
 * list, argument errors, NBO_* environment parsing, error messages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sched_case.h"

/* Print a task list to a memory stream and return it (caller frees). */
static char *print_to_string(const nbo_sched_t *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    nbo_sched_print(s, f);
    fclose(f);
    return text;
}

static int compile_case(sched_case_t *c, int r, nbo_sched_t *s)
{
    assert_int_equal(sched_case_build(c), 0);
    nbo_sched_args_t a = sched_case_args(c, r);
    int rc = nbo_sched_compile(&a, s);
    sched_case_free(c);
    return rc;
}

static void print_names_every_kind(void **state)
{
    (void)state;
    /* In place with non-contiguous types: COPY-free pairwise has PACK,
     * UNPACK, RECV, SEND, WAIT; a contiguous own block adds a COPY. */
    sched_case_t c = {.P = 5, .counts = COUNTS_IRREGULAR, .send_contig = 0, .recv_contig = 0,
                      .algorithm = NBO_ALG_PAIRWISE, .window = 2, .bruck_max = 256};
    nbo_sched_t s;
    assert_int_equal(compile_case(&c, 1, &s), NBO_SUCCESS);
    char *text = print_to_string(&s);
    assert_non_null(text);
    assert_true(strlen(text) > 0);
    for (const char *k = "RECV\0SEND\0WAIT\0PACK\0UNPACK\0"; *k; k += strlen(k) + 1)
        if (!strstr(text, k))
            fail_msg("nbo_sched_print names no %s task:\n%s", k, text);
    /* One line per task plus a header line. */
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, s.ntasks + 1);
    free(text);
    nbo_sched_destroy(&s);

    sched_case_t d = {.P = 4, .counts = COUNTS_UNIFORM, .block = 4, .send_contig = 1,
                      .recv_contig = 1, .algorithm = NBO_ALG_BRUCK, .window = 8, .bruck_max = 256};
    assert_int_equal(compile_case(&d, 2, &s), NBO_SUCCESS);
    text = print_to_string(&s);
    if (!strstr(text, "COPY") || !strstr(text, "bruck"))
        fail_msg("Bruck listing lacks COPY or the algorithm name:\n%s", text);
    free(text);
    nbo_sched_destroy(&s);

    for (int k = NBO_TASK_RECV; k <= NBO_TASK_UNPACK; k++)
        assert_string_not_equal(nbo_task_kind_name(k), "?");
}

static void invalid_args(void **state)
{
    (void)state;
    sched_case_t c = {.P = 4, .counts = COUNTS_UNIFORM, .block = 8, .send_contig = 1,
                      .recv_contig = 1, .algorithm = NBO_ALG_PAIRWISE, .window = 8,
                      .bruck_max = 256};
    assert_int_equal(sched_case_build(&c), 0);
    nbo_sched_t s;
    memset(&s, 0x7f, sizeof(s));
    nbo_sched_args_t a = sched_case_args(&c, 0);
    a.window = 0;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    a.window = -3;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    a = sched_case_args(&c, 0);
    a.rank = 4;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    a.rank = -1;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    a = sched_case_args(&c, 0);
    a.size = 0;
    a.rank = 0;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    a = sched_case_args(&c, 0);
    a.rbytes = NULL;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    a = sched_case_args(&c, 0);
    assert_int_equal(nbo_sched_compile(NULL, &s), NBO_ERR_ARG);
    assert_int_equal(nbo_sched_compile(&a, NULL), NBO_ERR_ARG);
    /* Still fine with valid arguments; destroy is idempotent. */
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_SUCCESS);
    nbo_sched_destroy(&s);
    nbo_sched_destroy(&s);
    nbo_sched_destroy(NULL);
    sched_case_free(&c);
}

static const char *const nbo_vars[] = {"NBO_ENGINE", "NBO_PROGRESS", "NBO_ALGORITHM",
                                       "NBO_WINDOW", "NBO_BRUCK_MAX", "NBO_TIMEOUT",
                                       "NBO_PROGRESS_CPU", "NBO_SPIN_US", "NBO_PROGRESS_SCHED",
                                       "NBO_CHECK"};

static int clear_env(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(nbo_vars) / sizeof(nbo_vars[0]); i++)
        unsetenv(nbo_vars[i]);
    return 0;
}

static void env_defaults(void **state)
{
    (void)state;
    nbo_config_t c, d;
    nbo_config_init(&c);
    assert_int_equal(c.engine, NBO_ENGINE_AUTO);
    assert_int_equal(c.progress, NBO_PROGRESS_AUTO);
    assert_int_equal(c.algorithm, NBO_ALG_AUTO);
    assert_true(c.window >= 1);
    assert_int_equal(c.progress_sched, NBO_PROGRESS_SCHED_AUTO);
    d = c;
    assert_int_equal(nbo_config_from_env(&c), NBO_SUCCESS);
    assert_memory_equal(&c, &d, sizeof(c)); /* nothing set: nothing changes */
    setenv("NBO_WINDOW", "", 1);            /* empty counts as unset */
    assert_int_equal(nbo_config_from_env(&c), NBO_SUCCESS);
    assert_int_equal(c.window, d.window);
    assert_int_equal(nbo_config_from_env(NULL), NBO_ERR_ARG);
}

static void env_parses(void **state)
{
    (void)state;
    nbo_config_t c;
    nbo_config_init(&c);
    setenv("NBO_ENGINE", "mpi", 1);
    setenv("NBO_PROGRESS", "Thread", 1); /* names are case-insensitive */
    setenv("NBO_ALGORITHM", "BRUCK", 1);
    setenv("NBO_WINDOW", "3", 1);
    setenv("NBO_BRUCK_MAX", "4096", 1);
    setenv("NBO_TIMEOUT", "0", 1);
    setenv("NBO_PROGRESS_CPU", "1", 1);
    setenv("NBO_SPIN_US", "50", 1);
    setenv("NBO_PROGRESS_SCHED", "Normal", 1);
    setenv("NBO_CHECK", "1", 1);
    assert_int_equal(nbo_config_from_env(&c), NBO_SUCCESS);
    assert_int_equal(c.engine, NBO_ENGINE_MPI);
    assert_int_equal(c.progress, NBO_PROGRESS_THREAD);
    assert_int_equal(c.algorithm, NBO_ALG_BRUCK);
    assert_int_equal(c.window, 3);
    assert_int_equal(c.bruck_max, 4096);
    assert_int_equal(c.timeout_ms, 0);
    assert_int_equal(c.progress_cpu, 1);
    assert_int_equal(c.spin_us, 50);
    assert_int_equal(c.progress_sched, NBO_PROGRESS_SCHED_NORMAL);
    assert_int_equal(c.check, 1);
    setenv("NBO_ENGINE", "ucx", 1);
    setenv("NBO_PROGRESS", "inline", 1);
    setenv("NBO_ALGORITHM", "pairwise", 1);
    setenv("NBO_PROGRESS_SCHED", "batch", 1);
    assert_int_equal(nbo_config_from_env(&c), NBO_SUCCESS);
    assert_int_equal(c.progress_sched, NBO_PROGRESS_SCHED_BATCH);
    assert_string_equal(nbo_progress_sched_name(c.progress_sched), "batch");
    setenv("NBO_PROGRESS_SCHED", "AUTO", 1);
    assert_int_equal(nbo_config_from_env(&c), NBO_SUCCESS);
    assert_int_equal(c.progress_sched, NBO_PROGRESS_SCHED_AUTO);
    assert_int_equal(c.engine, NBO_ENGINE_UCX);
    assert_int_equal(c.progress, NBO_PROGRESS_INLINE);
    assert_int_equal(c.algorithm, NBO_ALG_PAIRWISE);
    assert_string_equal(nbo_engine_name(c.engine), "ucx");
    assert_string_equal(nbo_progress_name(c.progress), "inline");
    assert_string_equal(nbo_algorithm_name(c.algorithm), "pairwise");
}

static void env_rejects(void **state)
{
    static const struct { const char *var, *val; } bad[] = {
        {"NBO_ENGINE", "tcp"},      {"NBO_ENGINE", "mpi "},     {"NBO_PROGRESS", "threads"},
        {"NBO_ALGORITHM", "ring"},  {"NBO_WINDOW", "0"},        {"NBO_WINDOW", "-1"},
        {"NBO_WINDOW", "8x"},       {"NBO_WINDOW", "abc"},      {"NBO_WINDOW", "99999999999999999999"},
        {"NBO_BRUCK_MAX", "-5"},    {"NBO_BRUCK_MAX", "1k"},    {"NBO_TIMEOUT", "-1"},
        {"NBO_PROGRESS_CPU", "-2"}, {"NBO_SPIN_US", "-1"},      {"NBO_CHECK", "2"},
        {"NBO_CHECK", "yes"},       {"NBO_PROGRESS_SCHED", "fifo"}, {"NBO_PROGRESS_SCHED", "idle"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        clear_env(state);
        nbo_config_t c;
        nbo_config_init(&c);
        setenv(bad[i].var, bad[i].val, 1);
        int rc = nbo_config_from_env(&c);
        if (rc != NBO_ERR_CONFIG)
            fail_msg("%s=\"%s\": got %d (%s), expected NBO_ERR_CONFIG", bad[i].var, bad[i].val, rc,
                     nbo_strerror(rc));
    }
}

/* Codes run from 0 down without gaps; each has its own real message, and
 * the first code past the last one is "unknown".  Written so that codes
 * added to nbo.h later are covered without editing this test. */
static void strerror_distinct(void **state)
{
    (void)state;
    enum { MAX_CODES = 128 };
    const char *seen[MAX_CODES];
    int last = 1;
    for (int code = 0; code > -MAX_CODES; code--) {
        const char *m = nbo_strerror(code);
        assert_non_null(m);
        assert_true(strlen(m) > 0);
        if (strstr(m, "unknown")) {
            last = code + 1;
            break;
        }
        for (int j = 0; j < -code; j++)
            if (strcmp(seen[j], m) == 0)
                fail_msg("codes %d and %d share \"%s\"", -j, code, m);
        seen[-code] = m;
    }
    if (last > NBO_ERR_INTERNAL)
        fail_msg("nbo_strerror(%d) is unknown, but NBO_ERR_INTERNAL is %d", last - 1,
                 NBO_ERR_INTERNAL);
    for (int code = last - 1; code > last - 10; code--)
        if (!strstr(nbo_strerror(code), "unknown"))
            fail_msg("code %d after a gap has a message: \"%s\"", code, nbo_strerror(code));
    assert_non_null(strstr(nbo_strerror(1), "unknown"));
    assert_non_null(strstr(nbo_strerror(-1000), "unknown"));
    assert_string_equal(nbo_version(), "0.1.0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(print_names_every_kind),
        cmocka_unit_test(invalid_args),
        cmocka_unit_test_setup_teardown(env_defaults, clear_env, clear_env),
        cmocka_unit_test_setup_teardown(env_parses, clear_env, clear_env),
        cmocka_unit_test_setup_teardown(env_rejects, clear_env, clear_env),
        cmocka_unit_test(strerror_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
