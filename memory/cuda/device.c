/*
 * device.c - where does a buffer live?  The CUDA probe, done lazily and
 * once, and nbo_cuda_available.
 *
 * Host-only programs must not pay for CUDA: a process that has not loaded
 * the CUDA driver (libcuda.so.1) cannot own device memory, so until the
 * driver is in the process every pointer is host memory and no CUDA call
 * is made.  Once it is loaded (the application called CUDA), the first
 * lookup probes cudaGetDeviceCount once; each lookup is then one
 * cudaPointerGetAttributes.  Any CUDA failure means host memory.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <stdio.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <link.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>

#include "device.h"
#include <nbo.h>

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_rc = NBO_ERR_CUDA;
static char probe_detail[160];

static void probe(void)
{
    int n = 0, rt = 0, drv = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n <= 0) {
        snprintf(probe_detail, sizeof(probe_detail), "no CUDA GPU (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found 0 devices");
        cudaGetLastError(); /* clear it: the application's CUDA state is its own */
        return;
    }
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    struct cudaDeviceProp prop;
    const char *name = cudaGetDeviceProperties(&prop, 0) == cudaSuccess ? prop.name : "?";
    snprintf(probe_detail, sizeof(probe_detail), "%d CUDA device%s (0: %.64s), runtime %d.%d, driver %d.%d",
             n, n == 1 ? "" : "s", name, rt / 1000, rt % 1000 / 10, drv / 1000, drv % 1000 / 10);
    probe_rc = NBO_SUCCESS;
}

int nbo_dev_probe(char *detail, size_t len)
{
    pthread_once(&probe_once, probe);
    if (detail && len)
        snprintf(detail, len, "%s", probe_detail);
    return probe_rc;
}

/* Has anybody in this process loaded the CUDA driver?  Once yes, always.
 * This runs on every nbo_ialltoall, so it must cost next to nothing: the
 * loaded objects are scanned with dl_iterate_phdr (no system call), and
 * not even that when the loader's count of additions (dlpi_adds) has not
 * moved since the last scan that found no driver.  (dlopen with
 * RTLD_NOLOAD maps and unmaps ld.so.cache on each call: the unmap's TLB
 * shootdown made a 64 KiB all-to-all start 20 times slower.) */
static atomic_int loaded;
static _Atomic unsigned long long scanned_adds; /* 0: never scanned */

struct scan {
    int first, found;
    unsigned long long adds;
};

static int find_driver(struct dl_phdr_info *info, size_t size, void *data)
{
    struct scan *s = data;
    if (s->first) {
        s->first = 0;
        if (size < offsetof(struct dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds))
            s->adds = 0; /* no counter: scan every time */
        else if ((s->adds = info->dlpi_adds) ==
                 atomic_load_explicit(&scanned_adds, memory_order_relaxed))
            return 1; /* nothing loaded since the last fruitless scan */
    }
    const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    name = name ? name + 1 : info->dlpi_name;
    if (name && strncmp(name, "libcuda.so", 10) == 0) {
        s->found = 1;
        return 1;
    }
    return 0;
}

static int driver_loaded(void)
{
    if (atomic_load_explicit(&loaded, memory_order_relaxed))
        return 1;
    struct scan s = {.first = 1};
    dl_iterate_phdr(find_driver, &s);
    if (s.found) {
        atomic_store_explicit(&loaded, 1, memory_order_relaxed);
        return 1;
    }
    atomic_store_explicit(&scanned_adds, s.adds, memory_order_relaxed);
    return 0;
}

int nbo_dev_locate(const void *p)
{
    if (!p || p == MPI_IN_PLACE || !driver_loaded() || nbo_dev_probe(NULL, 0) != NBO_SUCCESS)
        return -1;
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof(a));
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return a.type == cudaMemoryTypeDevice ? a.device : -1;
}

int nbo_cuda_available(char *detail, size_t len)
{
    return nbo_dev_probe(detail, len);
}
