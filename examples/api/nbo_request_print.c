#include <stdio.h>
#include <nbo.h>

/* Rank 0's task list, to a file. */
void dump(nbo_request_t req, int rank)
{
    FILE *f = rank == 0 ? fopen("tasks.txt", "w") : NULL;
    if (f) {
        nbo_request_print(req, f);
        fclose(f);
    }
}
