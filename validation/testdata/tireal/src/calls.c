/* Calls real codes make beyond the basics, those whose TI trace SimGrid's
 * replayer reads: a receive of any tag, Probe and Iprobe before a Recv,
 * Sendrecv_replace, derived datatypes (traced as -1), a Test loop, Waitsome
 * (not traced: the requests stay pending), Request_free on an Isend,
 * MPI_IN_PLACE collectives, a split communicator's Bcast and Send (traced
 * in world ranks), Alltoallw (traced as alltoallv), and Isends and Irecvs
 * left to MPI_Finalize after a Waitsome. */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *a = calloc(1 << 17, sizeof *a), *b = calloc(1 << 17, sizeof *b);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request rq[4];
  MPI_Status st;
  MPI_Irecv(b, 100, MPI_DOUBLE, left, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[0]);
  MPI_Send(a, 100, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  for (int it = 0; it < 2; it++) {
    if (rank % 2 == 0 && rank + 1 < size) MPI_Send(a, 777, MPI_DOUBLE, rank + 1, 6, MPI_COMM_WORLD);
    if (rank % 2 == 1) {
      int c, f = 0;
      MPI_Probe(rank - 1, 6, MPI_COMM_WORLD, &st);
      while (!f) MPI_Iprobe(rank - 1, 6, MPI_COMM_WORLD, &f, &st);
      MPI_Get_count(&st, MPI_DOUBLE, &c);
      MPI_Recv(b, c, MPI_DOUBLE, rank - 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Sendrecv_replace(a, 4000 << (4 * it), MPI_DOUBLE, right, 9, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Datatype col;
    MPI_Type_vector(100, 1, 100, MPI_DOUBLE, &col);
    MPI_Type_commit(&col);
    MPI_Sendrecv(a, 1, col, right, 10, b, 1, col, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(a, 3, col, 0, MPI_COMM_WORLD);
    MPI_Type_free(&col);
    MPI_Irecv(b, 300 << (6 * it), MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(a, 300 << (6 * it), MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &rq[1]);
    int f = 0;
    while (!f) MPI_Test(&rq[0], &f, MPI_STATUS_IGNORE);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    MPI_Irecv(b, 5000, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(a, 5000, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
    int d = 0, o, ix[2];
    while (d < 2) { MPI_Waitsome(2, rq, &o, ix, MPI_STATUSES_IGNORE); d += o; }
    MPI_Isend(a, 100, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Request_free(&rq[0]);
    MPI_Recv(b, 100, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, a, 1000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) MPI_Reduce(MPI_IN_PLACE, a, 1000, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    else MPI_Reduce(a, b, 1000, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 100, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Bcast(a, 100, MPI_DOUBLE, 0, half);
    int hr;
    MPI_Comm_rank(half, &hr);
    if (hr == 0) MPI_Send(a, 10, MPI_DOUBLE, 1, 0, half);
    if (hr == 1) MPI_Recv(b, 10, MPI_DOUBLE, 0, 0, half, MPI_STATUS_IGNORE);
    MPI_Comm_free(&half);
    int *c = malloc(size * sizeof(int)), *dp = malloc(size * sizeof(int));
    MPI_Datatype *t = malloc(size * sizeof(MPI_Datatype));
    for (int i = 0; i < size; i++) { c[i] = 10 + i + rank; dp[i] = 256 * i * sizeof(double); t[i] = MPI_DOUBLE; }
    MPI_Alltoallw(a, c, dp, t, b, c, dp, t, MPI_COMM_WORLD);
    free(c); free(dp); free(t);
  }
  MPI_Irecv(b, 2000, MPI_DOUBLE, left, 12, MPI_COMM_WORLD, &rq[0]);
  MPI_Isend(a, 2000, MPI_DOUBLE, right, 12, MPI_COMM_WORLD, &rq[1]);
  MPI_Irecv(b, 9000, MPI_DOUBLE, right, 13, MPI_COMM_WORLD, &rq[2]);
  MPI_Isend(a, 9000, MPI_DOUBLE, left, 13, MPI_COMM_WORLD, &rq[3]);
  int d = 0, o, ix[4];
  while (d < 4) { MPI_Waitsome(4, rq, &o, ix, MPI_STATUSES_IGNORE); d += o; }
  MPI_Finalize();
  return 0;
}
