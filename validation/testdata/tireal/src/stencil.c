/* 2-D five-point stencil on a px x py grid of ranks: each iteration posts
 * Irecv/Isend to its (up to four) neighbours, Waitall, updates its block,
 * and every 5th iteration an Allreduce of the residual. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 256; /* local block edge */
  int iters = argc > 2 ? atoi(argv[2]) : 20;
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int px = dims[0], py = dims[1];
  int x = rank % px, y = rank / px;
  int nb[4] = {x > 0 ? rank - 1 : MPI_PROC_NULL, x < px - 1 ? rank + 1 : MPI_PROC_NULL,
               y > 0 ? rank - px : MPI_PROC_NULL, y < py - 1 ? rank + px : MPI_PROC_NULL};
  double *u = calloc((size_t)(n + 2) * (n + 2), sizeof *u);
  double *v = calloc((size_t)(n + 2) * (n + 2), sizeof *v);
  double *sbuf[4], *rbuf[4];
  for (int i = 0; i < 4; i++) { sbuf[i] = calloc(n, sizeof(double)); rbuf[i] = calloc(n, sizeof(double)); }
  for (int i = 0; i < (n + 2) * (n + 2); i++) u[i] = rank + i % 7;
  for (int it = 0; it < iters; it++) {
    MPI_Request req[8];
    int k = 0;
    for (int d = 0; d < 4; d++)
      if (nb[d] != MPI_PROC_NULL) MPI_Irecv(rbuf[d], n, MPI_DOUBLE, nb[d], it, MPI_COMM_WORLD, &req[k++]);
    for (int d = 0; d < 4; d++)
      if (nb[d] != MPI_PROC_NULL) MPI_Isend(sbuf[d], n, MPI_DOUBLE, nb[d], it, MPI_COMM_WORLD, &req[k++]);
    MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
    double res = 0;
    for (int i = 1; i <= n; i++)
      for (int j = 1; j <= n; j++) {
        int c = i * (n + 2) + j;
        v[c] = 0.25 * (u[c - 1] + u[c + 1] + u[c - n - 2] + u[c + n + 2]);
        res += (v[c] - u[c]) * (v[c] - u[c]);
      }
    double *t = u; u = v; v = t;
    if (it % 5 == 4) {
      double g;
      MPI_Allreduce(&res, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
