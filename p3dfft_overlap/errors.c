/* errors.c - error messages, the last-error detail, and enum names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "p3o_internal.h"

static char last_error[512];

const char *p3o_strerror(int err)
{
    switch (err) {
    case P3O_SUCCESS:            return "success";
    case P3O_ERR_ARG:            return "invalid argument (NULL pointer or unknown enum value)";
    case P3O_ERR_SIZE:           return "grid sizes nx, ny, nz must be positive";
    case P3O_ERR_NV:             return "the number of variables nv must be at least 1";
    case P3O_ERR_GRID:           return "process grid row x col does not match the communicator size";
    case P3O_ERR_TOO_MANY_PROCS: return "more processes than the pencil decomposition allows";
    case P3O_ERR_MISMATCH:       return "ranks passed different arguments to a collective call";
    case P3O_ERR_TOO_LARGE:      return "a local count or offset does not fit in an int";
    case P3O_ERR_NOMEM:          return "out of memory";
    case P3O_ERR_FFTW:           return "FFTW could not create a plan";
    case P3O_ERR_MPI:            return "an MPI call failed";
    case P3O_ERR_NBO:            return "a libnbo call failed";
    case P3O_ERR_PLAN:           return "not a valid p3o plan";
    case P3O_ERR_COMM:           return "invalid communicator (MPI_COMM_NULL or an inter-communicator)";
    case P3O_ERR_CUDA:           return "no CUDA in this build, no usable GPU, or a CUDA or cuFFT call failed";
    case P3O_ERR_CODEC:          return "compression cannot run as asked (mode, GPU plan, codec or rate)";
    }
    return "unknown error";
}

const char *p3o_last_error(void) { return last_error; }

int p3o_fail(int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return err;
}

static const char *const mode_names[] = {"blocking", "pipelined_mpi", "pipelined_nbo"};
static const char *const precision_names[] = {"double", "single"};

const char *p3o_mode_name(p3o_mode_t mode)
{
    return (unsigned)mode < 3 ? mode_names[mode] : "unknown";
}

const char *p3o_precision_name(p3o_precision_t precision)
{
    return (unsigned)precision < 2 ? precision_names[precision] : "unknown";
}

int p3o_mode_from_name(const char *name, p3o_mode_t *mode)
{
    for (int i = 0; name && mode && i < 3; i++)
        if (strcmp(name, mode_names[i]) == 0) {
            *mode = (p3o_mode_t)i;
            return P3O_SUCCESS;
        }
    return p3o_fail(P3O_ERR_ARG, "unknown mode '%s' (blocking, pipelined_mpi, pipelined_nbo)",
                    name ? name : "(null)");
}

int p3o_precision_from_name(const char *name, p3o_precision_t *precision)
{
    for (int i = 0; name && precision && i < 2; i++)
        if (strcmp(name, precision_names[i]) == 0) {
            *precision = (p3o_precision_t)i;
            return P3O_SUCCESS;
        }
    return p3o_fail(P3O_ERR_ARG, "unknown precision '%s' (double, single)",
                    name ? name : "(null)");
}
