/*
 * sockets.c - the sockets backend's exchange, the testbed's ceiling: the same bytes exchanged with plain
 * TCP sockets between the same ranks.  The process sleeps in poll() while
 * the kernel moves the data, so the CPU time it is charged per operation is
 * the network stack's own cost, which no library can give back to the
 * application: ceiling overlap = 100 * (1 - cpu / wall).
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include "bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct socket_mesh {
    int nprocs, rank;
    int *fd;            /* fd[peer], -1 for self */
    char *barrier;      /* 1 byte per peer each way: P send, then P receive */
    int spin;           /* poll without sleeping (the thread spins) */
};

typedef struct endpoint {
    uint32_t addr;      /* network order */
    uint16_t port;      /* network order */
    uint16_t ok;
} endpoint_t;

/* The address peers can reach: the device UCX is told to use
 * (UCX_NET_DEVICES=eth0 on the emulated cluster), else the first IPv4
 * interface that is up and not loopback, else loopback (one host). */
static uint32_t local_address(void)
{
    const char *want = getenv("UCX_NET_DEVICES");
    struct ifaddrs *ifs, *i;
    uint32_t found = htonl(INADDR_LOOPBACK), first = 0;
    if (getifaddrs(&ifs) != 0)
        return found;
    for (i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP) ||
            (i->ifa_flags & IFF_LOOPBACK))
            continue;
        uint32_t a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
        if (want && strncmp(want, i->ifa_name, strlen(i->ifa_name)) == 0) {
            found = a;
            first = 0;
            break;
        }
        if (!first)
            first = a;
    }
    if (first)
        found = first;
    freeifaddrs(ifs);
    return found;
}

/* All n bytes of a blocking socket, written (out) or read. */
static int move_all(int fd, void *p, size_t n, int out)
{
    char *c = p;
    while (n) {
        ssize_t k = out ? write(fd, c, n) : read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        c += k, n -= (size_t)k;
    }
    return 0;
}

socket_mesh_t *socket_mesh_open(MPI_Comm comm, char *why, size_t whylen)
{
    socket_mesh_t *s = calloc(1, sizeof *s);
    MPI_Comm_size(comm, &s->nprocs);
    MPI_Comm_rank(comm, &s->rank);
    s->fd = malloc(sizeof(int) * (size_t)s->nprocs);
    for (int p = 0; p < s->nprocs; p++)
        s->fd[p] = -1;
    s->barrier = calloc(2, (size_t)s->nprocs);

    endpoint_t me = {local_address(), 0, 0};
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = me.addr};
    socklen_t len = sizeof sa;
    if (lfd >= 0 && bind(lfd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
        listen(lfd, s->nprocs) == 0 && getsockname(lfd, (struct sockaddr *)&sa, &len) == 0) {
        me.port = sa.sin_port;
        me.ok = 1;
    }
    endpoint_t *all = malloc(sizeof *all * (size_t)s->nprocs);
    MPI_Allgather(&me, sizeof me, MPI_BYTE, all, sizeof me, MPI_BYTE, comm);

    /* Lower ranks listen, higher ranks connect (the backlog holds the
     * connections until they are accepted, so the order cannot deadlock). */
    int ok = 1;
    for (int p = 0; p < s->nprocs; p++)
        ok &= all[p].ok;
    for (int p = 0; ok && p < s->rank; p++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in to = {.sin_family = AF_INET, .sin_addr.s_addr = all[p].addr,
                                 .sin_port = all[p].port};
        int32_t r = s->rank;
        if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof to) != 0 ||
            move_all(fd, &r, sizeof r, 1) != 0) {
            snprintf(why, whylen, "connect to rank %d (%s): %s", p, inet_ntoa(to.sin_addr),
                     strerror(errno));
            ok = 0;
            if (fd >= 0)
                close(fd);
            break;
        }
        s->fd[p] = fd;
    }
    for (int n = s->rank + 1; ok && n < s->nprocs; n++) {
        int fd = accept(lfd, NULL, NULL);
        int32_t r = -1;
        if (fd < 0 || move_all(fd, &r, sizeof r, 0) != 0 || r <= s->rank || r >= s->nprocs) {
            snprintf(why, whylen, "accept: %s", strerror(errno));
            ok = 0;
            if (fd >= 0)
                close(fd);
            break;
        }
        s->fd[r] = fd;
    }
    if (lfd >= 0)
        close(lfd);
    free(all);

    int all_ok = ok;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (!all_ok) {
        if (ok)
            snprintf(why, whylen, "another rank could not connect");
        socket_mesh_close(s);
        return NULL;
    }
    for (int p = 0; p < s->nprocs; p++) {
        if (s->fd[p] < 0)
            continue;
        int one = 1;
        setsockopt(s->fd[p], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        fcntl(s->fd[p], F_SETFL, fcntl(s->fd[p], F_GETFL) | O_NONBLOCK);
    }
    return s;
}

void socket_mesh_close(socket_mesh_t *s)
{
    if (!s)
        return;
    for (int p = 0; p < s->nprocs; p++)
        if (s->fd[p] >= 0)
            close(s->fd[p]);
    free(s->fd);
    free(s->barrier);
    free(s);
}

int socket_mesh_alltoall(socket_mesh_t *s, const char *send, char *recv, size_t n)
{
    int P = s->nprocs;
    size_t *sent = calloc((size_t)P, sizeof *sent), *got = calloc((size_t)P, sizeof *got);
    struct pollfd *pfd = malloc(sizeof *pfd * (size_t)P);
    int *peer = malloc(sizeof(int) * (size_t)P);
    memcpy(recv + (size_t)s->rank * n, send + (size_t)s->rank * n, n);
    const time_t spin_until = time(NULL) + 60; /* as poll's own 60 s */
    int rc = 0;
    for (;;) {
        int k = 0;
        for (int p = 0; p < P; p++) {
            if (s->fd[p] < 0)
                continue;
            short ev = (short)((sent[p] < n ? POLLOUT : 0) | (got[p] < n ? POLLIN : 0));
            if (ev) {
                pfd[k] = (struct pollfd){.fd = s->fd[p], .events = ev};
                peer[k++] = p;
            }
        }
        if (k == 0)
            break;
        int ready = poll(pfd, (nfds_t)k, s->spin ? 0 : 60000);
        if (ready == 0 && s->spin && time(NULL) < spin_until)
            continue; /* a software NIC that polls, as libfabric's sockets provider does */
        if (ready <= 0) {
            rc = -1;
            break;
        }
        for (int i = 0; i < k; i++) {
            int p = peer[i];
            if (pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL)) {
                rc = -1;
                goto out;
            }
            if (pfd[i].revents & POLLOUT) {
                ssize_t w = write(s->fd[p], send + (size_t)p * n + sent[p], n - sent[p]);
                if (w > 0)
                    sent[p] += (size_t)w;
            }
            if (pfd[i].revents & POLLIN) {
                ssize_t r = read(s->fd[p], recv + (size_t)p * n + got[p], n - got[p]);
                if (r == 0) {
                    rc = -1;
                    goto out;
                }
                if (r > 0)
                    got[p] += (size_t)r;
            }
        }
    }
out:
    free(sent), free(got), free(pfd), free(peer);
    return rc;
}

/* Every peer's byte arrives only once that peer has started, and it
 * queues behind the previous exchange's data on the same sockets. */
int socket_mesh_barrier(socket_mesh_t *s)
{
    return s->barrier ? socket_mesh_alltoall(s, s->barrier, s->barrier + s->nprocs, 1) : -1;
}

/* ------------------------------------------------- the exchange on a thread
 * The work-based ceiling: the same socket exchange run by a thread of its
 * own while the application computes, as the simplest library would.  The
 * thread sleeps in poll() between the kernel's events; what it and the
 * kernel take from the application's work is this testbed's floor. */

struct socket_worker {
    socket_mesh_t *mesh;
    const coll_op_t *op;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int go, done, stop, rc;
};

static void *worker_main(void *arg)
{
    socket_worker_t *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        while (!w->go && !w->stop)
            pthread_cond_wait(&w->cond, &w->lock);
        if (w->stop)
            break;
        w->go = 0;
        pthread_mutex_unlock(&w->lock);
        /* NBO_BENCH_CEILING_SPIN=1: the ceiling of an offload whose engine
         * polls on the host (docs/benchmarks.md, the ofi engine). */
        const char *spin = getenv("NBO_BENCH_CEILING_SPIN");
        w->mesh->spin = spin && *spin == '1';
        int rc = socket_mesh_alltoall(w->mesh, w->op->send, w->op->recv, w->op->size);
        w->mesh->spin = 0;
        pthread_mutex_lock(&w->lock);
        w->rc = rc;
        w->done = 1;
        pthread_cond_broadcast(&w->cond);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

socket_worker_t *socket_worker_start(socket_mesh_t *s)
{
    socket_worker_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->mesh = s;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        free(w);
        return NULL;
    }
    /* The row's own thread in the CPU columns (threads.c). */
    pthread_setname_np(w->thread, THREADS_EXCHANGE_NAME);
    return w;
}

void socket_worker_post(socket_worker_t *w, const coll_op_t *op)
{
    pthread_mutex_lock(&w->lock);
    w->op = op;
    w->go = 1;
    w->done = 0;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

int socket_worker_wait(socket_worker_t *w)
{
    pthread_mutex_lock(&w->lock);
    while (!w->done)
        pthread_cond_wait(&w->cond, &w->lock);
    int rc = w->rc;
    pthread_mutex_unlock(&w->lock);
    return rc;
}

void socket_worker_stop(socket_worker_t *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stop = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->cond);
    free(w);
}
