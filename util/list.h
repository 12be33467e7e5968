/*
 * list.h - intrusive doubly-linked lists for every layer: glibc's
 * <sys/queue.h> LIST_* macros, plus an unlink that tolerates an element in
 * no list.  An element's link must start zeroed (calloc, memset): a zero
 * link means "in no list", and NBO_LIST_UNLINK leaves it zero again.
 */
#ifndef NBO_LIST_H
#define NBO_LIST_H

#include <stddef.h>
#include <sys/queue.h>

#define NBO_LIST_LINKED(elm, field) ((elm)->field.le_prev != NULL)

#define NBO_LIST_UNLINK(elm, field)                                     \
    do {                                                                \
        if (NBO_LIST_LINKED(elm, field)) {                              \
            LIST_REMOVE(elm, field);                                    \
            (elm)->field.le_next = NULL;                                \
            (elm)->field.le_prev = NULL;                                \
        }                                                               \
    } while (0)

#endif
