/*
 * resident_memory.h - resident memory (RSS) and open file descriptors, for
 * the leak checks and probes that read them: tests/reliability/test_soak.c,
 * tests/ucx/test_ucx_leak.c, tests/cluster/comm_cost.c.
 *
 * Call resident_memory_small_pages() first thing in main.  With transparent
 * huge pages set to "always" (Debian's kernel, so the Soft-RoCE guest),
 * one page fault or a khugepaged collapse at any moment adds 2 MiB to RSS at
 * once; CI once saw a soak fail on exactly such a step (+2184 KiB, flat
 * afterwards).  PR_SET_THP_DISABLE keeps this process on 4 KiB pages, so RSS
 * grows only with what is touched.
 */
#ifndef RESIDENT_MEMORY_H
#define RESIDENT_MEMORY_H

#include <dirent.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

static inline void resident_memory_small_pages(void)
{
    if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0)
        perror("prctl(PR_SET_THP_DISABLE)"); /* RSS may then step by 2 MiB */
}

/* Resident memory in KiB, -1 when /proc cannot be read. */
static inline long resident_memory_kib(void)
{
    long pages = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = -1;
        fclose(f);
    }
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The process's open file descriptors (entries of /proc/self/fd, the
 * directory's own among them), -1 when it cannot be read. */
static inline int open_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

#endif
