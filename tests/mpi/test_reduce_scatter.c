#include "mpitest.h"
int main(int argc, char **argv) { mt_init(&argc, &argv, "test_reduce_scatter"); return mt_finish(); }
