#!/usr/bin/env python3
"""Digest of one xhpl run under SMPI: per rank, its point-to-point MPI calls in order, with
each message's size in bytes.

Usage: python3 digest.py TI_INDEX PAJE_TRACE > NAME.ops

TI_INDEX is what `smpirun -trace-ti --cfg=tracing/smpi/format/ti-one-file:yes` writes (an index
naming one file of every rank's actions). The TI trace gives each rank's calls in order (send,
isend, ssend, issend, recv, irecv, wait with peer, tag, count and datatype id) but no size for a
derived datatype (id -1: HPL's panel broadcasts and its spread-roll swaps). PAJE_TRACE is the
same run's `smpirun -trace --cfg=tracing/smpi/display-sizes:yes` trace, whose links carry each
message's size in bytes: the k-th send from a rank to a peer with a tag takes the size of the k-th
such link (MPI keeps a channel's order), and the k-th receive on the channel the same size.
The two runs time computations by the host's clock, so their interleavings differ; a channel's
order does not.

Output lines: `RANK OP PEER TAG BYTES` (OP: send, isend, ssend, issend, recv, irecv) and
`RANK wait PEER TAG` (the request's other side and tag, as the TI trace writes them).
Computes, init and finalize are dropped.
"""
import collections
import os
import sys

SIZES = [8, 4, 1, 2, 8, 4, 1]  # SimGrid's datatype ids 0-6: DOUBLE, INT, CHAR, SHORT, LONG, FLOAT, BYTE
P2P = {"send", "isend", "ssend", "issend", "recv", "irecv"}
NAMES = {"Ssend": "ssend", "ISsend": "issend"}  # how SimGrid 3.32 writes these two


def main():
    index, paje = sys.argv[1], sys.argv[2]
    links = collections.defaultdict(list)  # (src, dst, tag) -> [(seq, bytes)]
    with open(paje) as f:
        for line in f:
            w = line.split()
            if len(w) == 8 and w[0] == "15":
                src, dst, tag, seq = (int(x) for x in w[6].split("_"))
                links[(src - 1, dst - 1, tag)].append((seq, int(w[7])))
    for v in links.values():
        v.sort()
    sent = collections.Counter()
    recvd = collections.Counter()
    base = os.path.dirname(index)
    names = [l.strip() for l in open(index) if l.strip()]
    out = []
    for name in names:
        path = name if os.path.exists(name) else os.path.join(base, name)
        for line in open(path):
            w = line.split()
            if len(w) < 2:
                continue
            rank, op = int(w[0]), NAMES.get(w[1], w[1])
            if op in P2P:
                peer, tag, count, dt = int(w[2]), int(w[3]), int(w[4]), int(w[5])
                if op.endswith("send"):
                    key = (rank, peer, tag)
                    k = sent[key]
                    sent[key] += 1
                else:
                    key = (peer, rank, tag)
                    k = recvd[key]
                    recvd[key] += 1
                size = links[key][k][1]
                if dt >= 0 and size != count * SIZES[dt]:
                    sys.exit(f"{path}: {line.strip()}: the Paje trace says {size} bytes")
                out.append(f"{rank} {op} {peer} {tag} {size}")
            elif op == "wait":
                src, dst, tag = int(w[2]), int(w[3]), int(w[4])
                out.append(f"{rank} wait {dst if src == rank else src} {tag}")
            elif op not in ("compute", "init", "finalize"):
                sys.exit(f"{path}: unexpected action {op}")
    for key, v in links.items():
        if len(v) != sent[key] or len(v) != recvd[key]:
            sys.exit(f"channel {key}: {len(v)} links, {sent[key]} sends, {recvd[key]} receives")
    # stable by rank: each rank's lines in their order
    out.sort(key=lambda l: int(l.split()[0]))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
