/* decomp.c - block splits of a dimension and the choice of the ROW x COL grid. */
#include <stdlib.h>

#include "p3o_internal.h"

int p3o_split_size(int n, int m, int i) { return n / m + (i < n % m ? 1 : 0); }

int p3o_split_start(int n, int m, int i) { return i * (n / m) + (i < n % m ? i : n % m); }

static int fits(int row, int col, int row_max, int col_max)
{
    return row >= 1 && col >= 1 && row <= row_max && col <= col_max;
}

/*
 * MPI_Dims_create's balanced factorisation first, with the larger factor on
 * COL: the row transpose runs between contiguous ranks (inside a node when
 * ranks are placed in blocks), so it should be the smaller group, as in the
 * paper.  If that does not fit the pencils, the most balanced factorisation
 * that does.
 */
int p3o_grid_choose(int P, int row_max, int col_max, int *row, int *col)
{
    int dims[2] = {0, 0};
    if (MPI_Dims_create(P, 2, dims) == MPI_SUCCESS) {
        int small = dims[0] < dims[1] ? dims[0] : dims[1];
        int large = P / small;
        if (fits(small, large, row_max, col_max)) {
            *row = small;
            *col = large;
            return P3O_SUCCESS;
        }
        if (fits(large, small, row_max, col_max)) {
            *row = large;
            *col = small;
            return P3O_SUCCESS;
        }
    }
    int best = -1;
    for (int r = 1; r <= P; r++) {
        if (P % r || !fits(r, P / r, row_max, col_max))
            continue;
        int gap = abs(P / r - r);
        if (best < 0 || gap < abs(P / best - best))
            best = r;
    }
    if (best < 0)
        return P3O_ERR_TOO_MANY_PROCS;
    *row = best;
    *col = P / best;
    return P3O_SUCCESS;
}
