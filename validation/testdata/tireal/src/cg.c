/* CG-like loop on a 1-D row distribution: a halo exchange with the two
 * neighbours (Sendrecv), a local sparse product, two dot products
 * (Allreduce of one double) and a norm check (Allreduce of 2). */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  int h = argc > 2 ? atoi(argv[2]) : 1000; /* halo elements */
  int iters = argc > 3 ? atoi(argv[3]) : 15;
  double *p = calloc(n + 2 * h, sizeof *p), *q = calloc(n, sizeof *q);
  for (int i = 0; i < n + 2 * h; i++) p[i] = 1.0 / (1 + i + rank);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int it = 0; it < iters; it++) {
    MPI_Sendrecv(p + h, h, MPI_DOUBLE, left, 1, p + n + h, h, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(p + n, h, MPI_DOUBLE, right, 2, p, h, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double d = 0;
    for (int i = 0; i < n; i++) { q[i] = 4 * p[i + h] - p[i] - p[i + 2 * h]; d += p[i + h] * q[i]; }
    double g;
    MPI_Allreduce(&d, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double r = 0;
    for (int i = 0; i < n; i++) { p[i + h] -= q[i] / (g + 1); r += q[i] * q[i]; }
    MPI_Allreduce(&r, &g, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (it % 5 == 0) {
      double two[2] = {r, d}, gt[2];
      MPI_Allreduce(two, gt, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
  }
  MPI_Finalize();
  return 0;
}
