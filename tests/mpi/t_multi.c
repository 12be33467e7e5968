#include "mpitest.h"
int main(int c, char **v) { mt_init(&c, &v, "t_multi"); mt_fail("not written"); return mt_finish(); }
