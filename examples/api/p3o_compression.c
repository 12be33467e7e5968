#include <math.h>
#include <stdio.h>
#include <p3dfft_overlap.h>

/* Column exchanges as floats: half the bytes, a round trip within
 * 1.7e-7 (relative 2-norm) of the exact one. */
int lossy_plan(MPI_Comm comm, p3o_plan_t *plan)
{
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.codec = NBO_CODEC_FP32;
    int rc = p3o_plan_create(comm, 128, 128, 128, 8, P3O_DOUBLE, P3O_PIPELINED_NBO, &opt, plan);
    p3o_compression_t c;
    if (rc == P3O_SUCCESS && p3o_compression(*plan, &c) == P3O_SUCCESS && !isinf(c.roundtrip_bound))
        printf("%d compressed exchange(s) a leg, %.0f of %.0f bytes, round trip within %.1e\n",
               c.exchanges, c.wire_bytes, c.raw_bytes, c.roundtrip_bound);
    return rc;
}
