#include <math.h>
#include <nbo.h>

/* Does every value of x (n doubles) after the exchange stay within the
 * bound the codec states?  -1 where none is stated. */
int within_bound(nbo_codec_t codec, int rate, const double *x, const double *y, int n)
{
    double b, max = 0;
    if (nbo_codec_bound(codec, rate, MPI_DOUBLE, &b) != NBO_SUCCESS)
        return -1;
    for (int i = 0; i < n; i++)
        max = fmax(max, fabs(x[i]));
    for (int i = 0; i < n; i++)
        if (fabs(y[i] - x[i]) > b * max)
            return 0;
    return 1;
}
