/*
 * test_bench_options.c - nbo_bench's command line (bench/driver/options.c):
 * -T gives short operations enough iterations, -b caps slow ones, -B picks
 * the barrier, -a the methods, -M the parts, -c the collectives, the
 * default sizes are few, and bad values are refused.  Pure code: no MPI at
 * run time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bench.h"

/* Parse a command line (NULL-terminated words after the program name);
 * 0 or options_parse's -1. */
static int parse(options_t *o, ...)
{
    char *argv[16] = {"nbo_bench"};
    int argc = 1;
    va_list ap;
    va_start(ap, o);
    for (char *w; argc < 15 && (w = va_arg(ap, char *)) != NULL;)
        argv[argc++] = w;
    va_end(ap);
    extern int optind;
    optind = 1; /* getopt again from the start */
    return options_parse(argc, argv, o, 1);
}

/* The counts for one operation of `size` bytes that took `probe` seconds,
 * under options o (already parsed). */
static int fitted(const options_t *o, size_t size, double probe, int *skip)
{
    int iters;
    options_fit(o, size, probe, &iters, skip);
    return iters;
}

/* A 0.5 ms operation: 20 iterations would measure 10 ms, one preemption's
 * worth; -T 1 asks for at least a second. */
static void short_ops_get_more_iterations(void **state)
{
    (void)state;
    options_t o;
    int skip;
    assert_int_equal(parse(&o, "-i", "20", "-T", "1", "-b", "0", NULL), 0);
    int iters = fitted(&o, 65536, 0.0005, &skip);
    assert_true(iters * 0.0005 >= 1.0);
    assert_true(iters < 2100);
    assert_int_equal(skip, o.skip_large);
}

/* A 175 ms operation keeps -i: -T asks for less than 20 of them. */
static void long_ops_keep_their_count(void **state)
{
    (void)state;
    options_t o;
    int skip;
    assert_int_equal(parse(&o, "-i", "20", "-T", "1", "-b", "0", NULL), 0);
    assert_int_equal(fitted(&o, 4u << 20, 0.175, &skip), 20);
}

/* The budget wins over -T: about 5 operations per iteration fit in -b. */
static void budget_caps_iterations(void **state)
{
    (void)state;
    options_t o;
    int skip;
    assert_int_equal(parse(&o, "-T", "100", "-b", "10", NULL), 0);
    int iters = fitted(&o, 65536, 0.001, &skip);
    assert_true(0.001 * 5 * (iters + skip) <= 10.0);
    assert_true(iters >= 1900);
}

/* -T 0 leaves the counts of -i alone, and the default is on. */
static void zero_turns_it_off(void **state)
{
    (void)state;
    options_t o;
    int skip;
    assert_int_equal(parse(&o, "-i", "3", "-T", "0", "-b", "0", NULL), 0);
    assert_int_equal(fitted(&o, 1024, 1e-6, &skip), 3);
    assert_int_equal(parse(&o, "-i", "3", NULL), 0);
    assert_true(o.min_time_s > 0);
}

/* A huge -T on a tiny operation stays a count an int holds. */
static void counts_stay_bounded(void **state)
{
    (void)state;
    options_t o;
    int skip;
    assert_int_equal(parse(&o, "-T", "3600", "-b", "0", NULL), 0);
    assert_int_equal(fitted(&o, 1, 1e-9, &skip), BENCH_MAX_ITERS);
}

static void negative_times_are_refused(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, "-T", "-1", NULL), -1);
    assert_int_equal(parse(&o, "-b", "-1", NULL), -1);
}

/* -B: each method's own barrier unless told MPI_Barrier; nothing else. */
static void barrier_choice(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, NULL), 0);
    assert_int_equal(o.own_barrier, 1);
    assert_int_equal(parse(&o, "-B", "mpi", NULL), 0);
    assert_int_equal(o.own_barrier, 0);
    assert_int_equal(parse(&o, "-B", "own", NULL), 0);
    assert_int_equal(o.own_barrier, 1);
    assert_int_equal(parse(&o, "-B", "nbo", NULL), -1);
}

/* With no size option: three sizes, a quick run; -m sweeps or lists. */
static void sizes_quick_by_default(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, NULL), 0);
    assert_int_equal(o.nsizes, 3);
    assert_int_equal(o.sizes[0], 4096);
    assert_int_equal(o.sizes[2], 1u << 20);
    assert_int_equal(parse(&o, "-m", "1:4M", NULL), 0);
    assert_int_equal(o.nsizes, 23);
    assert_int_equal(o.max_size, 4u << 20);
    assert_int_equal(parse(&o, "-m", "64K,4M", NULL), 0);
    assert_int_equal(o.nsizes, 2);
    assert_int_equal(o.sizes[1], 4u << 20);
    assert_int_equal(parse(&o, "-m", "1M", NULL), 0);
    assert_int_equal(o.nsizes, 1);
    assert_int_equal(parse(&o, "-m", "4M:1K", NULL), -1);
    assert_int_equal(parse(&o, "-m", "2G", NULL), -1);
}

/* -a: the methods (API backends); every one by default. */
static void methods_choice(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, NULL), 0);
    assert_true(o.blocking && o.nonblocking && o.nbo && o.sockets);
    assert_int_equal(parse(&o, "-a", "nonblocking", NULL), 0);
    assert_true(!o.blocking && o.nonblocking && !o.nbo && !o.sockets);
    assert_int_equal(parse(&o, "-a", "mpi,sockets", NULL), 0);
    assert_true(o.blocking && o.nonblocking && !o.nbo && o.sockets);
    assert_int_equal(parse(&o, "-a", "nbo,ceiling", NULL), 0);
    assert_true(!o.blocking && !o.nonblocking && o.nbo && o.sockets);
    assert_int_equal(parse(&o, "-a", "nbo,openmp", NULL), -1);
    assert_int_equal(parse(&o, "-a", "", NULL), -1);
}

/* -M: the parts; all three by default. */
static void parts_choice(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, NULL), 0);
    assert_int_equal(o.parts, PART_OSU | PART_WORK | PART_APP);
    assert_int_equal(parse(&o, "-M", "osu,app", NULL), 0);
    assert_int_equal(o.parts, PART_OSU | PART_APP);
    assert_int_equal(parse(&o, "-M", "work", NULL), 0);
    assert_int_equal(o.parts, PART_WORK);
    assert_int_equal(parse(&o, "-M", "osu,latency", NULL), -1);
}

/* -c: collectives by name, "all", or "reduce_scatter" for short. */
static void collectives_choice(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, NULL), 0);
    assert_int_equal(o.ncolls, 1);
    assert_int_equal(o.colls[0], COLL_ALLTOALL);
    assert_int_equal(parse(&o, "-c", "all", NULL), 0);
    assert_int_equal(o.ncolls, COLL_N);
    assert_int_equal(parse(&o, "-c", "bcast,reduce_scatter", NULL), 0);
    assert_int_equal(o.ncolls, 2);
    assert_int_equal(o.colls[1], COLL_REDUCE_SCATTER_BLOCK);
    assert_int_equal(parse(&o, "-c", "alltoallw", NULL), -1);
    assert_int_equal(parse(&o, "-k", "0", NULL), -1);
    assert_int_equal(parse(&o, "-k", "65", NULL), -1);
    assert_int_equal(parse(&o, "-r", "102", NULL), -1);
}

/* -z: codecs of the nbo rows, one row each; all-to-all of doubles only. */
static void codec_choice(void **state)
{
    (void)state;
    options_t o;
    assert_int_equal(parse(&o, "-z", "none,fp32,zfp:8,zfp", NULL), 0);
    assert_int_equal(o.ncodecs, 4);
    assert_int_equal(o.codecs[0], NBO_CODEC_NONE);
    assert_int_equal(o.codecs[1], NBO_CODEC_FP32);
    assert_int_equal(o.codecs[2], NBO_CODEC_ZFP);
    assert_int_equal(o.codec_rates[2], 8);
    assert_int_equal(o.codec_rates[3], 16); /* the default rate */
    assert_int_equal(parse(&o, NULL), 0);
    assert_int_equal(o.ncodecs, 0);
    assert_int_equal(parse(&o, "-z", "lz4", NULL), -1);
    assert_int_equal(parse(&o, "-z", "zfp:0", NULL), -1);
    assert_int_equal(parse(&o, "-z", "zfp:65", NULL), -1);
    assert_int_equal(parse(&o, "-z", "fp32:8", NULL), -1);
    assert_int_equal(parse(&o, "-z", "fp32", "-c", "allreduce", NULL), -1);
    assert_int_equal(parse(&o, "-z", "fp32", "-m", "1K,100", NULL), -1);
    assert_int_equal(parse(&o, "-z", "fp32", "-m", "1K,104", NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_ops_get_more_iterations),
        cmocka_unit_test(long_ops_keep_their_count),
        cmocka_unit_test(budget_caps_iterations),
        cmocka_unit_test(zero_turns_it_off),
        cmocka_unit_test(counts_stay_bounded),
        cmocka_unit_test(negative_times_are_refused),
        cmocka_unit_test(barrier_choice),
        cmocka_unit_test(sizes_quick_by_default),
        cmocka_unit_test(codec_choice),
        cmocka_unit_test(methods_choice),
        cmocka_unit_test(parts_choice),
        cmocka_unit_test(collectives_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
