/*
 * mpibench measures what emu's network model needs of a real MPI, with the
 * MPI you run your application with: the one-way time of a ping-pong for
 * message sizes from 1 byte to 16 MiB, as the CSV that `emu fit --network`
 * reads (bytes,seconds), then, as comment lines, the cost of one MPI_Iprobe
 * and of one MPI_Test that finds nothing (network.iprobe_cost, test_cost).
 * Its first line names it and its last line, "# mpibench: done", is written
 * once all is measured: emu fit --network refuses an output that opens with
 * the first and lacks the last (a run killed or out of time, its larger
 * messages or poll costs missing).
 *
 *   mpicc -O2 -o mpibench tools/mpibench/mpibench.c
 *   mpirun -np 2 ./mpibench > pingpong.csv              # two ranks on one node
 *   mpirun -np 2 --map-by node ./mpibench > inter.csv    # one rank on each of two nodes
 *   mpirun -np 16 --bind-to core ./mpibench > loaded.csv # two ranks while 14 others load the node
 *
 * With more than two ranks, ranks 0 and 1 measure as above while every other
 * rank streams memory (a[i] = b[i] + s * c[i] over 3 x 32 MiB of its own, the
 * traffic of a node full of HPL ranks between their kernels), so that the
 * figures are those of shared memory under load.
 *
 * Each size is timed over enough round trips to last about 20 ms, five
 * times (the count refitted after a timing that lasted over 200 ms, as on a
 * busy node); the row holds the median, halved (one way).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median5(double *t) {
    qsort(t, 5, sizeof *t, cmp);
    return t[2];
}

/* pair holds ranks 0 and 1, who measure; the others load the node. */
static MPI_Comm pair;

/* perPoll returns the time of one poll that finds nothing: MPI_Iprobe when
 * req is NULL, MPI_Test of req otherwise. It polls in chunks of 1,000 up to
 * 200,000 times, and stops after 20 ms: a poll costs tens of ns on a quiet
 * node, but yields its time slice on an oversubscribed one, where 200,000
 * took minutes. */
static double perPoll(MPI_Request *req, MPI_Comm comm) {
    int flag, n = 0;
    double t0 = MPI_Wtime(), t;
    do {
        for (int i = 0; i < 1000; i++) {
            if (req == NULL) MPI_Iprobe(MPI_ANY_SOURCE, 99, comm, &flag, MPI_STATUS_IGNORE);
            else MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        }
        n += 1000;
        t = MPI_Wtime() - t0;
    } while (n < 200000 && t < 0.02);
    return t / n;
}

/* roundtrips times n ping-pongs of size bytes between ranks 0 and 1. */
static double roundtrips(char *buf, int size, int n, int rank) {
    MPI_Barrier(pair);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, 0, pair);
            MPI_Recv(buf, size, MPI_BYTE, 1, 0, pair, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, size, MPI_BYTE, 0, 0, pair, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, 0, pair);
        }
    }
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "mpibench: run it on 2 ranks (mpirun -np 2)\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    MPI_Request done; /* every rank enters it once ranks 0 and 1 are through */
    if (rank >= 2) {
        const size_t n = (32u << 20) / sizeof(double);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
        for (size_t i = 0; i < n; i++) a[i] = 0, b[i] = 1, c[i] = 2;
        int flag = 0;
        MPI_Ibarrier(MPI_COMM_WORLD, &done);
        while (!flag) {
            for (size_t i = 0; i < n; i++) a[i] = b[i] + 0.5 * c[i];
            MPI_Test(&done, &flag, MPI_STATUS_IGNORE);
        }
        free(a), free(b), free(c);
        MPI_Finalize();
        return 0;
    }
    const int maxBytes = 16 << 20;
    char *buf = malloc(maxBytes);
    memset(buf, 1, maxBytes);
    /* Warm up: connections, pinned buffers, the shared-memory segments. */
    roundtrips(buf, maxBytes, 4, rank);
    roundtrips(buf, 1, 10000, rank);
    /* The first line, and the last once all is measured, tell a whole
     * output from a run cut short (emu fit --network refuses one). */
    if (rank == 0) printf("# mpibench: one-way ping-pong times, then the costs of a poll; its last line says done\n");
    if (rank == 0) printf("bytes,seconds\n");
    for (int bytes = 1; bytes <= maxBytes; bytes *= 2) {
        /* Calibrate the count on one trial so each timing lasts ~20 ms. */
        int n = 1;
        double t = roundtrips(buf, bytes, n, rank);
        MPI_Bcast(&t, 1, MPI_DOUBLE, 0, pair);
        n = t > 0 ? (int)(0.02 / t) : 1000;
        if (n < 1) n = 1;
        if (n > 100000) n = 100000;
        double times[5];
        for (int r = 0; r < 5; r++) {
            double took = roundtrips(buf, bytes, n, rank);
            times[r] = took / n / 2;
            /* On an oversubscribed or busy node one trial can be fast and the
             * next round trips a time slice each: a count fitted to the trial
             * then runs for minutes. Refit it to the timing just taken (rank
             * 0's, so that both ranks loop alike) when that lasted 10 times
             * the 20 ms it should. */
            MPI_Bcast(&took, 1, MPI_DOUBLE, 0, pair);
            if (took > 0.2) {
                n = (int)(n * 0.02 / took);
                if (n < 1) n = 1;
            }
        }
        if (rank == 0) printf("%d,%.9g\n", bytes, median5(times));
    }
    /* Polls that find nothing: what HPL's broadcasts pay while waiting. */
    double probe[5], test[5];
    for (int r = 0; r < 5; r++) {
        MPI_Request req;
        MPI_Barrier(pair);
        probe[r] = perPoll(NULL, pair);
        MPI_Irecv(buf, 1, MPI_BYTE, MPI_ANY_SOURCE, 98, pair, &req);
        test[r] = perPoll(&req, pair);
        MPI_Cancel(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if (rank == 0) {
        printf("# iprobe_cost %.4g s (network.iprobe_cost)\n", median5(probe));
        printf("# test_cost %.4g s (network.test_cost)\n", median5(test));
        if (size > 2) printf("# loaded: %d other ranks streaming memory throughout\n", size - 2);
        printf("# mpibench: done\n");
    }
    MPI_Ibarrier(MPI_COMM_WORLD, &done);
    MPI_Wait(&done, MPI_STATUS_IGNORE);
    MPI_Comm_free(&pair);
    free(buf);
    MPI_Finalize();
    return 0;
}
