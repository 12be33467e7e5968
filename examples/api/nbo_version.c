#include <stdio.h>
#include <nbo.h>

void print_version(void)
{
    printf("libnbo %s, header %d.%d.%d\n", nbo_version(),
           NBO_VERSION_MAJOR, NBO_VERSION_MINOR, NBO_VERSION_PATCH);
}
