#include <stdio.h>
#include <nbo.h>

void show_choice(nbo_request_t req)
{
    nbo_algorithm_t alg;
    if (nbo_request_algorithm(req, &alg) == NBO_SUCCESS)
        printf("compiled as %s\n", nbo_algorithm_name(alg));
}
