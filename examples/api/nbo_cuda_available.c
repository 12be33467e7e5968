#include <stdio.h>
#include <nbo.h>

/* Device buffers only where libnbo recognises them. */
int use_device_buffers(void)
{
    char detail[256];
    int rc = nbo_cuda_available(detail, sizeof(detail));
    fprintf(stderr, "CUDA: %s\n", detail);
    return rc == NBO_SUCCESS;
}
