/*
 * swapbench measures what one of HPL's row interchanges costs on a node
 * full of ranks, in the settings that tell apart why HPL's laswp phase on a
 * 16-core node took some 30 times what emu's lockstep calibration measured
 * for the same interchanges (docs/evidence/node16.md).
 *
 * Each rank holds an LDA x N matrix as HPL holds its local part (malloc'd,
 * first touched by the rank) and, in each pass, swaps its NB top rows with
 * rows drawn anywhere below, across the N columns, 32 columns at a time
 * with the rows outermost, the loop order of HPL_dlaswp00N. Settings:
 *
 *   alone     rank 0 swaps, the other ranks wait in a barrier
 *   together  every rank swaps at once (what emu calibrate's lockstep times)
 *   updated   every rank first updates its whole matrix as HPL's trailing
 *             update does (dgemm, C -= L * U with depth NB), then swaps;
 *             only the swaps are timed
 *   beside    rank 0 swaps while every other rank runs that update
 *
 * It prints one CSV row per timed pass (setting,rank,pass,ns_per_element)
 * and, as comment lines, each setting's median.
 *
 * A fifth argument says how the matrix is paged: "malloc" (the default, as
 * HPL allocates it), "small" (4 KiB pages, madvise MADV_NOHUGEPAGE) or
 * "huge" (2 MiB transparent huge pages, MADV_HUGEPAGE). An interchange
 * touches one line a column, each column LDA*8 bytes from the next, so
 * with 4 KiB pages nearly every element is on a page of its own: if the
 * settings read far apart, HPL's laswp pays for the TLB (and, in a virtual
 * machine, for the nested page walks), not for the lines it moves.
 *
 *   mpicc -O2 -o swapbench tools/swapbench/swapbench.c -lopenblas
 *   mpirun -np 16 --bind-to core ./swapbench 12000 750 96 5 > swaps.csv
 *   mpirun -np 16 --bind-to core ./swapbench 12000 750 96 5 huge > swaps-huge.csv
 *
 * Set OPENBLAS_NUM_THREADS=1, as for HPL: one rank a core.
 */
#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define DEPTH 32 /* HPL_LASWP00N_DEPTH */

static int lda, n, nb, passes, rank, size;
static double *a, *l, *u;
static int *piv;
static unsigned long long rng = 88172645463325252ULL;

static unsigned long long next(void) { /* xorshift64 */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* swap interchanges row i of the top nb rows with row piv[i], as
 * HPL_dlaswp00N: blocks of DEPTH columns, the rows outermost. */
static void swap(void) {
    for (int j0 = 0; j0 < n; j0 += DEPTH) {
        int j1 = j0 + DEPTH < n ? j0 + DEPTH : n;
        for (int i = 0; i < nb; i++) {
            double *x = a + i + (size_t)j0 * lda, *y = a + piv[i] + (size_t)j0 * lda;
            for (int j = j0; j < j1; j++, x += lda, y += lda) {
                double t = *x;
                *x = *y;
                *y = t;
            }
        }
    }
}

/* update is HPL's trailing update over the whole matrix: the rows below the
 * top nb, minus L (their panel) times U (the top rows). */
static void update(void) {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, lda - nb, n, nb, -1e-9, l, lda - nb, u, nb,
                1.0, a + nb, lda);
}

static void drawPivots(void) {
    for (int i = 0; i < nb; i++)
        piv[i] = i + (int)(next() % (unsigned long long)(lda - i));
}

static double timedSwap(void) {
    drawPivots();
    double t0 = MPI_Wtime();
    swap();
    return 1e9 * (MPI_Wtime() - t0) / ((double)nb * n);
}

/* allocMatrix allocates the bytes of the local matrix, paged as pages
 * says ("malloc", "small" or "huge"); NULL when it cannot. */
static double *allocMatrix(size_t bytes, const char *pages) {
    if (strcmp(pages, "malloc") == 0)
        return malloc(bytes);
    size_t huge = (size_t)2 << 20;
    bytes = (bytes + huge - 1) / huge * huge;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (madvise(p, bytes, strcmp(pages, "huge") == 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0)
        fprintf(stderr, "swapbench: madvise %s failed; the matrix is paged as the system chooses\n", pages);
    return p;
}

/* hugeKB reads how much of this process's memory is on transparent huge pages. */
static long hugeKB(void) {
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "AnonHugePages:", 14) == 0)
            kb = atol(line + 14);
    fclose(f);
    return kb;
}

static int cmp(const void *x, const void *y) {
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

/* report prints this setting's rows and, on rank 0, the median of all. */
static void report(const char *setting, double *ns, int count) {
    double *all = NULL;
    int *counts = NULL, *offs = NULL, total = 0;
    if (rank == 0) {
        counts = malloc(size * sizeof *counts);
        offs = malloc(size * sizeof *offs);
    }
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++) {
            offs[r] = total;
            total += counts[r];
        }
        all = malloc((total > 0 ? total : 1) * sizeof *all);
    }
    MPI_Gatherv(ns, count, MPI_DOUBLE, all, counts, offs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++)
            for (int p = 0; p < counts[r]; p++)
                printf("%s,%d,%d,%.2f\n", setting, r, p + 1, all[offs[r] + p]);
        qsort(all, total, sizeof *all, cmp);
        printf("# %s: median %.2f ns per element over %d passes\n", setting, all[total / 2], total);
        fflush(stdout);
        free(all);
        free(counts);
        free(offs);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *pages = argc == 6 ? argv[5] : "malloc";
    if (argc < 5 || argc > 6 || (lda = atoi(argv[1])) < 2 || (n = atoi(argv[2])) < 1 || (nb = atoi(argv[3])) < 1 ||
        nb >= lda || (passes = atoi(argv[4])) < 1 ||
        (strcmp(pages, "malloc") != 0 && strcmp(pages, "small") != 0 && strcmp(pages, "huge") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: swapbench LDA N NB PASSES [malloc|small|huge] (NB < LDA)\n");
        MPI_Finalize();
        return 2;
    }
    rng += 7919ULL * (unsigned long long)rank;
    a = allocMatrix((size_t)lda * n * sizeof *a, pages);
    l = malloc((size_t)(lda - nb) * nb * sizeof *l);
    u = malloc((size_t)nb * n * sizeof *u);
    piv = malloc(nb * sizeof *piv);
    double *ns = malloc(passes * sizeof *ns);
    if (!a || !l || !u || !piv || !ns) {
        fprintf(stderr, "swapbench: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < (size_t)lda * n; i++)
        a[i] = (double)(next() >> 11) / 9007199254740992.0;
    for (size_t i = 0; i < (size_t)(lda - nb) * nb; i++)
        l[i] = 1.0;
    for (size_t i = 0; i < (size_t)nb * n; i++)
        u[i] = 1.0;
    long kb = hugeKB();
    if (rank == 0) {
        printf("# pages %s: rank 0 has %ld KiB on transparent huge pages\n", pages, kb);
        printf("setting,rank,pass,ns_per_element\n");
    }

    MPI_Barrier(MPI_COMM_WORLD);
    int count = 0;
    if (rank == 0)
        for (count = 0; count < passes; count++)
            ns[count] = timedSwap();
    MPI_Barrier(MPI_COMM_WORLD);
    report("alone", ns, count);

    MPI_Barrier(MPI_COMM_WORLD);
    for (count = 0; count < passes; count++)
        ns[count] = timedSwap();
    report("together", ns, count);

    MPI_Barrier(MPI_COMM_WORLD);
    for (count = 0; count < passes; count++) {
        update();
        ns[count] = timedSwap();
    }
    report("updated", ns, count);

    /* beside: the others update until rank 0 has made its passes. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Request done;
    count = 0;
    if (rank == 0) {
        update(); /* rank 0's matrix in the same state as theirs */
        for (; count < passes; count++)
            ns[count] = timedSwap();
        MPI_Ibarrier(MPI_COMM_WORLD, &done);
        MPI_Wait(&done, MPI_STATUS_IGNORE);
    } else {
        int flag = 0;
        MPI_Ibarrier(MPI_COMM_WORLD, &done);
        while (!flag) {
            update();
            MPI_Test(&done, &flag, MPI_STATUS_IGNORE);
        }
    }
    report("beside", ns, count);

    if (strcmp(pages, "malloc") == 0)
        free(a);
    else
        munmap(a, ((size_t)lda * n * sizeof *a + ((size_t)2 << 20) - 1) / ((size_t)2 << 20) * ((size_t)2 << 20));
    free(l);
    free(u);
    free(piv);
    free(ns);
    MPI_Finalize();
    return 0;
}
