/* Distributed matrix transpose (an FFT's global step): Alltoall of equal
 * blocks at three sizes, then an Alltoallv of uneven blocks. */
#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int blocks[3] = {16, 1024, 16384}; /* doubles per pair: 128 B, 8 KiB, 128 KiB */
  int maxb = 16384 + 3 * 8192;
  double *s = calloc((size_t)maxb * size, sizeof *s), *r = calloc((size_t)maxb * size, sizeof *r);
  for (int b = 0; b < 3; b++)
    for (int rep = 0; rep < 2; rep++) {
      MPI_Alltoall(s, blocks[b], MPI_DOUBLE, r, blocks[b], MPI_DOUBLE, MPI_COMM_WORLD);
      for (int i = 0; i < blocks[b] * size; i++) s[i] += r[i] * 0.5;
    }
  int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int));
  int *rc = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int));
  for (int base = 8; base <= 8192; base *= 32) {
    int so = 0, ro = 0;
    for (int j = 0; j < size; j++) {
      sc[j] = base * (1 + (rank + j) % 3); sd[j] = so; so += sc[j];
      rc[j] = base * (1 + (j + rank) % 3); rd[j] = ro; ro += rc[j];
    }
    MPI_Alltoallv(s, sc, sd, MPI_DOUBLE, r, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
