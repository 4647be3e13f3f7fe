/* Every rooted and unrooted collective at small, near-eager-limit and
 * large sizes, roots 0 and size-1, with some compute between. */
#include <mpi.h>
#include <stdlib.h>
static void work(double *a, int n) { for (int i = 1; i < n; i++) a[i] += a[i - 1] * 1e-9; }
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int counts[3] = {4, 8000, 100000}; /* doubles: 32 B, 64,000 B, 800 KB */
  size_t maxc = 2 * 100000 + 4 * (size_t)size;
  double *a = calloc(maxc, sizeof *a), *b = calloc(maxc, sizeof *b);
  int *rc = malloc(size * sizeof(int)), *dp = malloc(size * sizeof(int));
  for (int k = 0; k < 3; k++) {
    int c = counts[k];
    for (int root = 0; root < size; root += size - 1) {
      MPI_Bcast(a, c, MPI_DOUBLE, root, MPI_COMM_WORLD);
      MPI_Reduce(a, b, c, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
      MPI_Gather(a, c / size + 1, MPI_DOUBLE, b, c / size + 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
      MPI_Scatter(a, c / size + 1, MPI_DOUBLE, b, c / size + 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
    }
    work(a, c);
    MPI_Allreduce(a, b, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allgather(a, c / size + 1, MPI_DOUBLE, b, c / size + 1, MPI_DOUBLE, MPI_COMM_WORLD);
    int off = 0;
    for (int j = 0; j < size; j++) { rc[j] = c / size + 1 + j % 3; dp[j] = off; off += rc[j]; }
    MPI_Allgatherv(a, rc[rank], MPI_DOUBLE, b, rc, dp, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Gatherv(a, rc[rank], MPI_DOUBLE, b, rc, dp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatterv(a, rc, dp, MPI_DOUBLE, b, rc[rank], MPI_DOUBLE, size - 1, MPI_COMM_WORLD);
    MPI_Scan(a, b, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(a, b, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int j = 0; j < size; j++) rc[j] = c / size + 1;
    MPI_Reduce_scatter(a, b, rc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int j = 0; j < size; j++) rc[j] = c / size + 1 + j % 2;
    MPI_Reduce_scatter(a, b, rc, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    int iv = rank;
    int ov;
    MPI_Allreduce(&iv, &ov, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
