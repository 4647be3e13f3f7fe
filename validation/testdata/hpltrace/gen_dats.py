#!/usr/bin/env python3
"""Writes the HPL.dat files of this folder's corpus: dats/NNN.dat, drawn from a seed.

Usage: python3 gen_dats.py SEED COUNT OUTDIR

Every file holds one or two grids of at most 16 ranks (wide rows from file 120 on) and a handful of tests (HPL runs every
combination of its lists). The broadcast, swap and the two factorizations are cycled over the
files so that every value appears; the rest is drawn. Files 144 to 151 take one grid of 17 to 63
ranks (P and Q not powers of 2, LARGE); from file 152 on, DAHU's: examples/dahu's HPL.dat (Crout,
Right, NBMIN 4, NDIV 2, 2ring, DEPTH 1, binary exchange) at small N on grids up to 32 x 32.
"""
import random
import sys

GRIDS = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1), (1, 4), (4, 1), (2, 3), (3, 2),
         (3, 3), (2, 4), (4, 2), (3, 4), (4, 3), (4, 4), (1, 5), (5, 1), (2, 5), (5, 3)]


# Files from 120 on take wide rows, where the rings' halves and the long
# broadcasts' spreads have room (Q up to 16).
WIDE = [(1, 6), (1, 7), (1, 8), (2, 6), (2, 7), (2, 8), (1, 16), (3, 5)]


# Files 144 to 151: one grid of 17 to 64 ranks, P and Q not powers of 2 (drawn like the rest).
LARGE = [(3, 7), (5, 4), (6, 5), (7, 3), (3, 11), (9, 7), (5, 5), (6, 9)]

# From file 152 on: examples/dahu's HPL.dat but for N and NB, which are small so that the
# matrix is computed fast and the digests stay small (each rank's calls grow with the number
# of panels) yet hold several panels: (P, Q, PMAP, N, NB).
DAHU = [(4, 8, 0, 700, 32), (8, 4, 1, 900, 128), (8, 8, 0, 500, 24), (8, 8, 1, 400, 16),
        (16, 16, 0, 250, 20), (16, 16, 1, 200, 16), (32, 32, 0, 250, 32)]


def dahu(i):
    p, q, pmap, n, nb = DAHU[i - 152]
    return dict(ns=[n], nbs=[nb], pmap=pmap, grids=[(p, q)], pf=[1], nbmin=[4], ndiv=[2], rf=[2],
                bc=[2], depth=[1], swap=0, thr=64, l1=0, u=0, equil=1, align=8)


def draw(rng, i):
    if i >= 152:
        return dahu(i)
    if i >= 144:
        return draw_large(rng, i)
    p, q = GRIDS[i % len(GRIDS)] if i < 120 else WIDE[i % len(WIDE)]
    grids = [(p, q)]
    if rng.random() < 0.25:
        grids.append(rng.choice([g for g in GRIDS if g[0] * g[1] <= 16]))
    if p * q > 16:
        grids = [(q, p)] if q * p <= 16 else [(4, 4)]
    big = rng.random() < 0.15
    n = rng.randint(700, 1500) if big else rng.randint(50, 420)
    ns = [n]
    if not big and rng.random() < 0.3:
        ns.append(rng.randint(50, 300))
    nb = rng.choice([1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 24, 31, 32, 48, 64, 80])
    if big:
        nb = rng.choice([24, 31, 32, 48, 64, 80, 96, 100])
    elif nb < 4 and n > 200:
        nb += 8
    nbs = [nb]
    if rng.random() < 0.15:
        nbs.append(n + rng.randint(1, 40))  # NB > N
    elif rng.random() < 0.3:
        nbs.append(rng.choice([6, 9, 13, 20, 33]))
    pf = [i % 3]
    rf = [(i // 3) % 3]
    if rng.random() < 0.3:
        pf.append((pf[0] + 1) % 3)
    nbmin = [rng.randint(1, 8)]
    if rng.random() < 0.3:
        nbmin.append(rng.randint(1, 8))
    ndiv = [rng.randint(2, 4)]
    bc = [i % 6]
    if rng.random() < 0.4:
        bc.append(rng.choice([b for b in range(6) if b != bc[0]]))
    depth = [rng.choice([0, 1, 2])]
    if rng.random() < 0.3:
        depth.append(rng.choice([d for d in range(3) if d != depth[0]]))
    swap = (i // 2) % 3
    thr = max(0, nbs[0] + rng.randint(-nbs[0] // 2 - 1, nbs[0] // 2 + 1))
    l1 = rng.randint(0, 1)
    u = rng.randint(0, 1)
    equil = rng.randint(0, 1)
    align = rng.choice([4, 8, 16])
    pmap = rng.randint(0, 1)
    d = dict(ns=ns, nbs=nbs, pmap=pmap, grids=grids, pf=pf, nbmin=nbmin, ndiv=ndiv, rf=rf,
                bc=bc, depth=depth, swap=swap, thr=thr, l1=l1, u=u, equil=equil, align=align)
    # at most 6 tests a file: drop the second values, the lists' last first
    for k in ("depth", "bc", "nbmin", "pf", "nbs", "ns", "grids"):
        if tests(d) > 6 and len(d[k]) > 1:
            d[k] = d[k][:1]
    return d


def draw_large(rng, i):
    """One test on one grid of LARGE, drawn as draw's files are; N small and one test, so that
    the digests of 17 to 63 ranks stay small."""
    p, q = LARGE[i - 144]
    n = rng.randint(200, 500)
    nb = rng.choice([7, 12, 16, 17, 24, 31, 32])
    nbs = [nb]
    pf = [i % 3]
    rf = [(i // 3) % 3]
    bc = [i % 6]
    swap = i % 3
    thr = max(0, nb + rng.randint(-nb // 2 - 1, nb // 2 + 1))
    return dict(ns=[n], nbs=nbs, pmap=rng.randint(0, 1), grids=[(p, q)], pf=pf,
                nbmin=[rng.randint(1, 8)], ndiv=[rng.randint(2, 4)], rf=rf, bc=bc,
                depth=[rng.choice([0, 1, 2])], swap=swap, thr=thr, l1=rng.randint(0, 1),
                u=rng.randint(0, 1), equil=rng.randint(0, 1), align=rng.choice([4, 8, 16]))


def tests(d):
    t = 1
    for k in ("ns", "nbs", "grids", "pf", "nbmin", "ndiv", "rf", "bc", "depth"):
        t *= len(d[k])
    return t


def text(d):
    def ints(v):
        return " ".join(str(x) for x in v)
    lines = [
        "HPLinpack benchmark input file",
        "hpltrace corpus (validation/testdata/hpltrace/gen_dats.py)",
        "HPL.out      output file name (if any)",
        "6            device out (6=stdout,7=stderr,file)",
        f"{len(d['ns'])}            # of problems sizes (N)",
        f"{ints(d['ns'])}  Ns",
        f"{len(d['nbs'])}            # of NBs",
        f"{ints(d['nbs'])}  NBs",
        f"{d['pmap']}            PMAP process mapping (0=Row-,1=Column-major)",
        f"{len(d['grids'])}            # of process grids (P x Q)",
        f"{ints(g[0] for g in d['grids'])}  Ps",
        f"{ints(g[1] for g in d['grids'])}  Qs",
        "16.0         threshold",
        f"{len(d['pf'])}            # of panel fact",
        f"{ints(d['pf'])}  PFACTs (0=left, 1=Crout, 2=Right)",
        f"{len(d['nbmin'])}            # of recursive stopping criterium",
        f"{ints(d['nbmin'])}  NBMINs (>= 1)",
        f"{len(d['ndiv'])}            # of panels in recursion",
        f"{ints(d['ndiv'])}  NDIVs",
        f"{len(d['rf'])}            # of recursive panel fact.",
        f"{ints(d['rf'])}  RFACTs (0=left, 1=Crout, 2=Right)",
        f"{len(d['bc'])}            # of broadcast",
        f"{ints(d['bc'])}  BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)",
        f"{len(d['depth'])}            # of lookahead depth",
        f"{ints(d['depth'])}  DEPTHs (>=0)",
        f"{d['swap']}            SWAP (0=bin-exch,1=long,2=mix)",
        f"{d['thr']}           swapping threshold",
        f"{d['l1']}            L1 in (0=transposed,1=no-transposed) form",
        f"{d['u']}            U  in (0=transposed,1=no-transposed) form",
        f"{d['equil']}            Equilibration (0=no,1=yes)",
        f"{d['align']}            memory alignment in double (> 0)",
    ]
    return "\n".join(lines) + "\n"


def main():
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    for i in range(count):
        with open(f"{out}/{i:03d}.dat", "w") as f:
            f.write(text(draw(rng, i)))


if __name__ == "__main__":
    main()
