/*
 * nbo_thread.h - what the kernel says about libnbo's progress thread: the
 * tests find it by its name ("nbo-progress") among this process' threads
 * and read its /proc files, so they check what the kernel applies, not
 * what libnbo believes.
 */
#ifndef NBO_THREAD_H
#define NBO_THREAD_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read /proc/self/task/<tid>/<file> of the thread named "nbo-progress"
 * into buf (NUL-terminated).  Returns 0, or -1 when no thread has the name. */
static inline int nbo_thread_read(const char *file, char *buf, size_t len)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int rc = -1;
    struct dirent *e;
    while (rc < 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[300], comm[64] = "";
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        int named = fgets(comm, sizeof(comm), f) && strcmp(comm, "nbo-progress\n") == 0;
        fclose(f);
        if (!named)
            continue;
        snprintf(path, sizeof(path), "/proc/self/task/%s/%s", e->d_name, file);
        if (!(f = fopen(path, "r")))
            continue;
        size_t n = fread(buf, 1, len - 1, f);
        fclose(f);
        buf[n] = '\0';
        rc = 0;
    }
    closedir(d);
    return rc;
}

/* The thread's scheduling policy (field 41 of stat), or -1 if none. */
static inline int nbo_thread_policy(void)
{
    char stat[1024];
    if (nbo_thread_read("stat", stat, sizeof(stat)) != 0)
        return -1;
    /* Fields after the command name, which is in parentheses: state is
     * field 3, policy field 41, so 38 more after the state. */
    char *p = strrchr(stat, ')');
    int field = 2;
    for (; p && *p && field < 41; p++)
        if (*p == ' ')
            field++;
    return p && field == 41 ? atoi(p) : -1;
}

/* How many times the thread went to sleep (voluntary context switches),
 * or -1 if none. */
static inline long nbo_thread_sleeps(void)
{
    char status[4096];
    if (nbo_thread_read("status", status, sizeof(status)) != 0)
        return -1;
    const char *p = strstr(status, "\nvoluntary_ctxt_switches:");
    return p ? atol(p + strlen("\nvoluntary_ctxt_switches:")) : -1;
}

#endif
