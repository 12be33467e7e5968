# model.gp - the all-to-all task lists' time, in ms (docs/model.md).
#   P ranks, m bytes per peer, W sends per window, a: 0 pairwise, 1 Bruck.
# Parameters (fit.sh fits them): s, h, o ms; B, B1 Gbit/s; gam, cp
# ns/byte; rho.  Constants: L ms (one-way latency), S bytes of switch buffer per
# port, bst bytes a flow bursts into a port, NC cores the P ranks share.
max(a, b) = a > b ? a : b
min(a, b) = a < b ? a : b
# P ranks on NC cores: a rank's CPU costs stretch by its share kap.
kap(P) = P > NC ? P / NC : 1.0
# ms per byte of a window of W flows: the link (B, or W flows of at most
# B1 each), or the CPU's per-byte cost on the rank's share of a core.
G(P, W) = max(8e-6 / min(B, W * B1), gam * 1e-6 * kap(P))
# A window's W flows into one receiver's port: what overflows its buffer
# is resent (rho: the cost of an overflowing byte over its wire time).
inc(W, m) = rho * max(0, W * min(m, bst) - S) * 8e-6 / B
# One window of W sends of m bytes each, closed by its WAIT.
win(P, m, W) = L + h * kap(P) + W * (o * kap(P) + m * G(P, W)) + inc(W, m)
nw(P, W) = ceil((P - 1.0) / W)
lastw(P, W) = P - 1 - (nw(P, W) - 1) * W
Tpair(P, m, W) = (nw(P, W) - 1) * win(P, m, W) + win(P, m, lastw(P, W))
rounds(P) = ceil(log(P) / log(2) - 1e-9)
# Bruck: one message of about P/2 blocks per round, and (rounds + 2)
# copies of the P blocks (the two rotations, a pack and unpack per round).
Tbruck(P, m) = rounds(P) * win(P, ceil(P / 2.0) * m, 1) \
    + (rounds(P) + 2) * P * m * cp * 1e-6 * kap(P)
# The progress thread's part: the host costs of the operation, its windows
# (or rounds) and its messages.
hostcost(P, W, a) = (s + (a < 0.5 ? nw(P, W) * h + (P - 1) * o : rounds(P) * (h + o))) * kap(P)
# Bytes per peer below which a window's host cost exceeds its wire time.
mstar(P, W) = (h / W + o) * kap(P) / G(P, W)
# s: the operation's own host cost (its start handed to the progress
# thread, the waiter woken at its end).
T(P, m, W, a) = s * kap(P) + (a < 0.5 ? Tpair(P, m, W) : Tbruck(P, m))
