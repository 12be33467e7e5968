#!/usr/bin/env python3
"""incast.py - senders into one receiver over TCP, for testbed-test.sh.

    incast.py recv ADDR SENDERS   accept SENDERS connections on ADDR:5999,
                                  read until all close, print the goodput
                                  (bit/s, first byte to last) of all together
    incast.py send ADDR SECONDS   connect to ADDR:5999 (retrying while the
                                  receiver starts) and send for SECONDS
"""
import select
import socket
import sys
import time

PORT = 5999


def recv(addr, senders):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, PORT))
    srv.listen(senders)
    conns = [srv.accept()[0] for _ in range(senders)]
    total, first, last = 0, None, None
    while conns:
        for c in select.select(conns, [], [])[0]:
            data = c.recv(1 << 20)
            if not data:
                conns.remove(c)
                continue
            first = first or time.monotonic()
            last = time.monotonic()
            total += len(data)
    print(int(total * 8 / (last - first)))


def send(addr, seconds):
    for _ in range(50):
        try:
            s = socket.create_connection((addr, PORT))
            break
        except OSError:
            time.sleep(0.1)
    else:
        sys.exit("incast.py: no receiver at %s:%d" % (addr, PORT))
    block, end = bytes(1 << 16), time.monotonic() + seconds
    while time.monotonic() < end:
        s.sendall(block)
    s.close()


if __name__ == "__main__":
    if sys.argv[1] == "recv":
        recv(sys.argv[2], int(sys.argv[3]))
    else:
        send(sys.argv[2], float(sys.argv[3]))
