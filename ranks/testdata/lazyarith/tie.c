/* Two ranks run the actions of argv[1+rank]: cD computes D s at 1 Gf
   (smpi_execute_flops), sD sleeps D s, rN receives an int from rank N,
   tN sends one to rank N. Each rank prints its time after each action. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <simgrid/actor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
  char *acts = strdup(argv[1 + me]);
  int buf = 0;
  char *save = NULL;
  for (char *a = strtok_r(acts, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    double d = strtod(a + 1, NULL);
    switch (a[0]) {
    case 'c': smpi_execute_flops(d * 1e9); break;
    case 's': sg_actor_sleep_for(d); break;
    case 'r': MPI_Recv(&buf, 1, MPI_INT, (int)d, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); break;
    case 't': MPI_Send(&buf, 1, MPI_INT, (int)d, 0, MPI_COMM_WORLD); break;
    }
    printf("%d %s %a\n", me, a, MPI_Wtime());
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
