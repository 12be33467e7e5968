#include <stdio.h>
#include <nbo.h>

/* zfp at 16 bits per value where this libnbo has it, else doubles as floats. */
void choose_codec(nbo_config_t *cfg)
{
    char why[128];
    if (nbo_codec_available(NBO_CODEC_ZFP, why, sizeof(why)) == NBO_SUCCESS) {
        cfg->codec = NBO_CODEC_ZFP;
        cfg->codec_rate = 16;
    } else {
        fprintf(stderr, "no zfp: %s\n", why);
        cfg->codec = NBO_CODEC_FP32;
    }
}
