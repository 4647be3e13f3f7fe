# Writes the TI traces of TestTIOmpiAgainstSMPI (validation/tiompi_test.go):
# one file per collective, number of ranks and size, each collective called
# twice (rooted ones at root 0, then at the last rank). Sizes are bytes
# (MPI_BYTE counts; an allgatherv's blocks s, 3s/4 and s/2 in turn) chosen to fall in every band of SMPI 3.32's ompi
# decisions at these numbers of ranks. Usage: python3 gen_traces.py traces
import os, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

RANKS = [2, 3, 4, 7, 8, 16, 33, 64]
SIZES = [1, 12, 100, 700, 1500, 3000, 6000, 12000, 24000, 50000, 100000, 200000, 400000, 700000, 1500000]


def write(name, n, lines):
    with open(os.path.join(out, name + ".txt"), "w") as f:
        for r in range(n):
            f.write(f"{r} init\n")
        for l in lines:
            f.write(l + "\n")
        for r in range(n):
            f.write(f"{r} finalize\n")


for n in RANKS:
    write(f"barrier_{n}", n, [f"{r} barrier" for r in range(n)] * 2)
    # alltoallv: rank r sends 1000*(1+(r+i)%3) bytes to rank i
    L = []
    for r in range(n):
        sc = [1000 * (1 + (r + i) % 3) for i in range(n)]
        rc = [1000 * (1 + (i + r) % 3) for i in range(n)]
        L.append(f"{r} alltoallv {sum(sc)} {' '.join(map(str, sc))} {sum(rc)} {' '.join(map(str, rc))}")
    write(f"alltoallv_{n}", n, L * 2)
    for s in SIZES:
        roots = (0, n - 1)
        write(f"bcast_{n}_{s}", n, [f"{r} bcast {s} {root}" for root in roots for r in range(n)])
        write(f"reduce_{n}_{s}", n, [f"{r} reduce {s} 0 {root}" for root in roots for r in range(n)])
        write(f"allreduce_{n}_{s}", n, [f"{r} allreduce {s} 0" for r in range(n)] * 2)
        write(f"gather_{n}_{s}", n, [f"{r} gather {s} {s} {root}" for root in roots for r in range(n)])
        write(f"scatter_{n}_{s}", n, [f"{r} scatter {s} {s} {root}" for root in roots for r in range(n)])
        write(f"allgather_{n}_{s}", n, [f"{r} allgather {s} {s}" for r in range(n)] * 2)
        # allgatherv: rank i's block s, 3s/4 or s/2 bytes by i mod 3
        counts = [s - (i % 3) * (s // 4) for i in range(n)]
        write(f"allgatherv_{n}_{s}", n, [f"{r} allgatherv {counts[r]} {' '.join(map(str, counts))}" for r in range(n)] * 2)
        if s * n <= 20000000:
            write(f"alltoall_{n}_{s}", n, [f"{r} alltoall {s} {s}" for r in range(n)] * 2)
