/* errors.c - error messages and the version string. */
#include "nbo.h"

#define STR2(x) #x
#define STR(x) STR2(x)

const char *nbo_version(void)
{
    return STR(NBO_VERSION_MAJOR) "." STR(NBO_VERSION_MINOR) "." STR(NBO_VERSION_PATCH);
}

const char *nbo_strerror(int err)
{
    switch (err) {
    case NBO_SUCCESS:          return "success";
    case NBO_ERR_ARG:          return "invalid argument";
    case NBO_ERR_BUFFER:       return "NULL buffer with a nonzero count";
    case NBO_ERR_COUNT:        return "negative count or displacement";
    case NBO_ERR_OVERFLOW:     return "byte size or offset of the buffers overflows";
    case NBO_ERR_DATATYPE:     return "datatype is MPI_DATATYPE_NULL or not committed";
    case NBO_ERR_COMM:         return "invalid communicator (NULL, freed, or an intercommunicator)";
    case NBO_ERR_REQUEST_NULL: return "request is NBO_REQUEST_NULL";
    case NBO_ERR_REQUEST:      return "not a valid request handle";
    case NBO_ERR_ACTIVE:       return "request is active (start it only when inactive, free it only when complete)";
    case NBO_ERR_PENDING:      return "communicator still has requests that are not freed";
    case NBO_ERR_NOMEM:        return "out of memory";
    case NBO_ERR_MPI:          return "an MPI call failed";
    case NBO_ERR_ENGINE:       return "engine not built into libnbo or not usable on this machine";
    case NBO_ERR_CONFIG:       return "invalid configuration value";
    case NBO_ERR_THREAD_LEVEL: return "MPI thread level too low (thread progress needs MPI_THREAD_MULTIPLE)";
    case NBO_ERR_TIMEOUT:      return "request made no progress within the timeout (NBO_TIMEOUT)";
    case NBO_ERR_TRANSPORT:    return "the network transport reported an error";
    case NBO_ERR_PEER:         return "a peer process failed or disconnected";
    case NBO_ERR_MISMATCH:     return "arguments do not match (block sizes, or across ranks)";
    case NBO_ERR_INTERNAL:     return "internal libnbo error";
    case NBO_ERR_OVERLAP:      return "send and receive buffers overlap (use MPI_IN_PLACE)";
    case NBO_ERR_DEVICE:       return "unsupported use of GPU device memory (send and receive buffers on different GPUs)";
    case NBO_ERR_CUDA:         return "CUDA not built into libnbo, no usable CUDA GPU, or a CUDA runtime call failed";
    }
    return "unknown error";
}
