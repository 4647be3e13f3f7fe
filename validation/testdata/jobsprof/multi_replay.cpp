// multi_replay: several TI traces replayed at once in one SimGrid
// simulation, each an SMPI application instance of its own (its own
// MPI_COMM_WORLD) on one platform, which is what emu's [[jobs]] are.
//
//   multi_replay JOBS PLATFORM DEPLOYMENT [--cfg=... --log=...]
//
// JOBS has a line "NAME RANKS" per instance; DEPLOYMENT places each
// actor on its host with the arguments NAME RANK TRACE [DELAY_FLOPS]
// (run_smpi.sh writes both). Each rank prints "NAME RANK END" when its
// replay returns, END the simulated clock then, s.
#include <simgrid/engine.h>
#include <smpi/smpi.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

static void replay_rank(int argc, char* argv[])
{
  double delay_flops = argc > 4 ? std::atof(argv[4]) : 0; // a delayed start: an execution of that many flops
  smpi_replay_run(argv[1], std::atoi(argv[2]), delay_flops, argv[3]);
  std::printf("%s %s %.15f\n", argv[1], argv[2], simgrid_get_clock());
}

int main(int argc, char* argv[])
{
  simgrid_init(&argc, argv);
  SMPI_init();
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s JOBS PLATFORM DEPLOYMENT\n", argv[0]);
    return 2;
  }
  simgrid_load_platform(argv[2]);
  std::ifstream jobs(argv[1]);
  std::string line;
  while (std::getline(jobs, line)) {
    std::istringstream fields(line);
    std::string name;
    int ranks;
    if (fields >> name >> ranks)
      SMPI_app_instance_register(name.c_str(), replay_rank, ranks);
  }
  simgrid_load_deployment(argv[3]);
  simgrid_run();
  SMPI_finalize();
  return 0;
}
