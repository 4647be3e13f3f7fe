import os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def write(name, n, lines, head=None):
    with open(os.path.join(out, name + ".txt"), "w") as f:
        if head:
            for h in head.split("\n"):
                f.write("# " + h + "\n")
        for r in range(n):
            f.write(f"{r} init\n")
        for l in lines:
            f.write(l + "\n")
        for r in range(n):
            f.write(f"{r} finalize\n")

SIZES = [1, 100, 1000, 1420, 1500, 6000, 20000, 65519, 65520, 65536, 100000, 1048576, 4194304]

# 1. blocking ping-pong across SMPI's factor breakpoints and the 64 KiB detached threshold
L = []
for s in SIZES:
    L += [f"0 send 1 0 {s}", f"1 recv 0 0 {s}", f"1 send 0 1 {s}", f"0 recv 1 1 {s}"]
write("pingpong", 2, L, "blocking ping-pong, one round trip per size (bytes)")

# 2. nonblocking: isend/irecv/wait, waitall, test, receives posted late and early
L = []
for i, s in enumerate(SIZES):
    L += [f"0 isend 1 {i} {s}", f"1 irecv 0 {i} {s}", f"2 irecv 3 {i} {s}", f"3 isend 2 {i} {s}"]
    L += [f"0 compute 1000", f"1 compute 3000", f"2 compute 2000"]
    L += [f"0 wait 0 1 {i}", f"1 wait 0 1 {i}", f"2 wait 3 2 {i}", f"3 wait 3 2 {i}"]
for r, p in ((0, 1), (1, 0), (2, 3), (3, 2)):
    for i, s in enumerate((500, 70000, 2000000)):
        L += [f"{r} isend {p} {100+i} {s}", f"{r} irecv {p} {100+i} {s}"]
for r in range(4):
    L += [f"{r} waitall"]
L += ["0 isend 2 7 300000", "2 irecv 0 7 300000", "2 compute 20000", "2 test 0 2 7", "2 compute 50000", "2 wait 0 2 7", "0 wait 0 2 7"]
write("nonblocking", 4, L, "isend/irecv/wait, waitall and test across the detached threshold")

# 3. sendRecv pairs and a shift
L = []
for s in (10, 4000, 65536, 300000, 3000000):
    for r in range(4):
        L += [f"{r} sendRecv {s} {r^1} {s} {r^1} 6 6"]
    for r in range(4):
        L += [f"{r} sendRecv {s} {(r+1)%4} {s} {(r-1)%4} 6 6"]
write("sendrecv", 4, L, "sendRecv: pairwise exchange then a shift, per size")

# 4. compute and sleep with messages between
L = []
for r in range(4):
    L += [f"{r} compute {1e6*(r+1):.0f}", f"{r} sleep {0.001*(4-r)}", f"{r} compute 2.5e7"]
L += ["0 send 1 0 2000", "1 recv 0 0 2000", "2 send 3 0 2000000", "3 recv 2 0 2000000"]
for r in range(4):
    L += [f"{r} sleep 0.0005", f"{r} compute 123456789"]
write("compute_sleep", 4, L, "compute (flops) and sleep (s)")

# 5. ring: 8 ranks pass a token of each size around, blocking
L = []
for s in (8, 20000, 65536, 1000000):
    L += [f"0 send 1 0 {s}"]
    for r in range(1, 8):
        L += [f"{r} recv {r-1} 0 {s}", f"{r} compute 1e5", f"{r} send {(r+1)%8} 0 {s}"]
    L += [f"0 recv 7 0 {s}"]
write("ring", 8, L, "a token around 8 ranks, per size")

# 6. many-to-one: 7 ranks send to rank 0 at once (eager and rendezvous), rank 0 posts irecvs then waitall
L = []
for s, tag in ((30000, 1), (2000000, 2)):
    for r in range(1, 8):
        L += [f"0 irecv {r} {tag} {s}"]
    L += ["0 waitall"]
    for r in range(1, 8):
        L += [f"{r} send 0 {tag} {s}"]
for r in range(1, 8):
    L += [f"{r} isend 0 3 {r*100000}"]
for r in range(1, 8):
    L += [f"0 recv {r} 3 {r*100000}"]
for r in range(1, 8):
    L += [f"{r} waitall"]
write("incast", 8, L, "7 senders to rank 0: eager, rendezvous, then uneven isends")

# 6b. flows joining others mid-way: two long transfers, two short ones
# starting 0.2 ms later (on the torus their routes share limiters with the
# long ones' reverse routes, SMPI's 5% cross-traffic)
L = []
for a, b, t, s in ((15, 1, 0, 2000000), (7, 9, 0, 2000000), (3, 4, 0.0002, 400000), (11, 12, 0.0002, 400000)):
    L += [f"{a} sleep {t}", f"{a} isend {b} 0 {s}", f"{b} irecv {a} 0 {s}", f"{a} waitall", f"{b} waitall"]
write("staggered", 16, L, "two long transfers, two short ones joining 0.2 ms later")

# 7. collectives
def coll(n):
    CS = {}
    small, mid, big = 64, 20000, 400000
    CS["barrier"] = [f"{r} barrier" for r in range(n)] * 2
    CS["bcast"] = [f"{r} bcast {s} {root}" for s, root in ((small, 0), (mid, 1), (big, 0), (big, n-1)) for r in range(n)]
    CS["reduce"] = [f"{r} reduce {s} {f} {root}" for s, f, root in ((small, 100, 0), (mid, 0, 2), (big, 1e6, 0)) for r in range(n)]
    CS["allreduce"] = [f"{r} allreduce {s} {f}" for s, f in ((small, 10), (mid, 1e5), (big, 0)) for r in range(n)]
    CS["alltoall"] = [f"{r} alltoall {s} {s}" for s in (small, 300, 5000, 100000) for r in range(n)]
    CS["gather"] = [f"{r} gather {s} {s} {root}" for s, root in ((small, 0), (mid, 1), (big, 0)) for r in range(n)]
    CS["allgather"] = [f"{r} allgather {s} {s}" for s in (small, mid, big) for r in range(n)]
    CS["scatter"] = [f"{r} scatter {s} {s} {root}" for s, root in ((small, 0), (mid, 1), (big, 0)) for r in range(n)]
    CS["scan"] = [f"{r} {op} {s} {f}" for op in ("scan", "exscan") for s, f in ((small, 10), (big, 1e5)) for r in range(n)]
    def v(k, base):
        return [base * (1 + (k + i) % 3) for i in range(n)]
    L = []
    for base in (10, 30000):
        for r in range(n):
            sc = [base * (1 + (r + j) % 3) for j in range(n)]
            rc = [base * (1 + (j + r) % 3) for j in range(n)]  # what j sends to r
            rc = [base * (1 + (j + r) % 3) for j in range(n)]
            L.append(f"{r} alltoallv {sum(sc)} {' '.join(map(str, sc))} {sum(rc)} {' '.join(map(str, rc))}")
    CS["alltoallv"] = L
    L = []
    for base, root in ((50, 0), (40000, n//2)):
        counts = [base * (1 + j % 3) for j in range(n)]
        for r in range(n):
            L.append(f"{r} gatherv {counts[r]} {' '.join(map(str, counts))} {root}")
    CS["gatherv"] = L
    L = []
    for base in (50, 40000):
        counts = [base * (1 + j % 3) for j in range(n)]
        for r in range(n):
            L.append(f"{r} allgatherv {counts[r]} {' '.join(map(str, counts))}")
    CS["allgatherv"] = L
    L = []
    for base, root in ((50, 0), (40000, 1)):
        counts = [base * (1 + j % 3) for j in range(n)]
        for r in range(n):
            L.append(f"{r} scatterv {' '.join(map(str, counts))} {counts[r]} {root}")
    CS["scatterv"] = L
    L = []
    for base, f in ((100, 0), (50000, 1e6)):
        counts = [base] * n
        for r in range(n):
            L.append(f"{r} reducescatter {' '.join(map(str, counts))} {f:g}")
    CS["reducescatter"] = L
    # unequal counts: SMPI runs MPICH's recursive doubling up to 524288
    # elements in all, its pairwise exchange above (the last in doubles:
    # few elements, many bytes)
    L = []
    for base, f, dt in ((1000, 0, ""), (100000, 1e5, ""), (20000, 0, " 0")):
        counts = [base * (1 + j % 3) for j in range(n)]
        for r in range(n):
            L.append(f"{r} reducescatter {' '.join(map(str, counts))} {f:g}{dt}")
    CS["reducescatterv"] = L
    return CS

for n in (4, 6, 8, 16):
    for name, L in coll(n).items():
        write(f"{name}_{n}", n, L, f"{name} at {n} ranks (MPI_BYTE counts)")

# alltoall at 2 ranks, across SMPI's decision for two (pair and basic_linear),
# and at 4 ranks in its pair band (524288 to 1048576 bytes a block)
write("alltoall_2", 2, [f"{r} alltoall {s} {s}" for s in (1, 2, 8, 32, 100, 1000, 10000, 100000, 500000, 2000000) for r in range(2)],
      "alltoall at 2 ranks: SMPI's pair and basic_linear by size")
write("alltoall_4pair", 4, [f"{r} alltoall 600000 600000" for r in range(4)], "alltoall at 4 ranks, 600 kB blocks: SMPI's pair")
