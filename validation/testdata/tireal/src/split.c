/* Row and column communicators of a 2-D grid (as a dense solver's):
 * Bcast along rows, Allreduce along columns, Comm_dup, then a world Allreduce. */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm row, col, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank / dims[1], rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % dims[1], rank, &col);
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  double *a = calloc(20000, sizeof *a), *b = calloc(20000, sizeof *b);
  for (int it = 0; it < 3; it++) {
    MPI_Bcast(a, 10000, MPI_DOUBLE, it % dims[1], row);
    MPI_Allreduce(a, b, 100, MPI_DOUBLE, MPI_SUM, col);
    MPI_Allreduce(a, b, 10, MPI_DOUBLE, MPI_SUM, dup);
  }
  MPI_Comm_free(&row); MPI_Comm_free(&col); MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
