#include "mpitest.h"
int main(int argc, char **argv) { mt_init(&argc, &argv, "test_allgather"); return mt_finish(); }
