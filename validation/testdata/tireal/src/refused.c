/* Calls whose TI trace neither SimGrid 3.32's replayer nor emu replays,
 * one per run (argv[1]): SMPI's tracer writes an action the replayer does
 * not read, or -333 (MPI_UNDEFINED) for a wildcard or MPI_PROC_NULL peer. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *a = calloc(1 << 16, sizeof *a), *b = calloc(1 << 16, sizeof *b);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request rq[4];
  const char *w = argc > 1 ? argv[1] : "";
  if (!strcmp(w, "anysource")) { /* master/worker */
    if (rank == 0)
      for (int i = 1; i < size; i++) MPI_Recv(b, 100, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
      MPI_Send(a, 100, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
  } else if (!strcmp(w, "procnull")) { /* a non-periodic shift */
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, dn = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Irecv(b, 500, MPI_DOUBLE, up, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(a, 500, MPI_DOUBLE, dn, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
  } else if (!strcmp(w, "ssend")) {
    MPI_Irecv(b, 10, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Ssend(a, 10, MPI_DOUBLE, right, 7, MPI_COMM_WORLD);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  } else if (!strcmp(w, "persistent")) {
    MPI_Recv_init(b, 2000, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(a, 2000, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &rq[1]);
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
  } else if (!strcmp(w, "waitany")) {
    MPI_Irecv(b, 5000, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(a, 5000, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &rq[1]);
    for (int k = 0; k < 2; k++) { int i; MPI_Waitany(2, rq, &i, MPI_STATUS_IGNORE); }
  } else if (!strcmp(w, "testall")) {
    MPI_Irecv(b, 300, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(a, 300, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &rq[1]);
    int f = 0;
    while (!f) MPI_Testall(2, rq, &f, MPI_STATUSES_IGNORE);
  } else if (!strcmp(w, "iallreduce")) {
    MPI_Request r;
    MPI_Iallreduce(a, b, 1000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
