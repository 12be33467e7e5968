#include <stdio.h>
#include <nbo.h>

void print_config(const nbo_config_t *cfg)
{
    printf("engine %s, progress %s, algorithm %s, scheduling %s, codec %s\n",
           cfg->engine, nbo_progress_name(cfg->progress),
           nbo_algorithm_name(cfg->algorithm),
           nbo_progress_sched_name(cfg->progress_sched), nbo_codec_name(cfg->codec));
}
