#!/bin/sh
# Replays each case of cases.txt with SimGrid 3.32's own replayer (smpirun
# -replay, Debian's simgrid 3.32) under SMPI's network model (smpirun's
# default) and CM02, and writes smpi_times.csv: the simulated time at which
# the last rank finished, the clock of the replayer's last "Simulation time"
# line printed with 15 decimals. Run from this folder:
#   sh run_smpi.sh > smpi_times.csv
set -eu
idx=$(mktemp smpi-idx-XXXXXX)
trap 'rm -f "$idx"' EXIT
echo "trace,platform,hostfile,np,model,smpi_time_s"
grep -v '^#' cases.txt | while read -r t p h n; do
  echo "traces/$t.txt" > "$idx"
  hf=""
  if [ "$h" != "-" ]; then hf="-hostfile hostfiles/$h.txt"; fi
  for model in SMPI CM02; do
    line=$(smpirun -np "$n" -platform "platforms/$p.xml" $hf -replay "$idx" --cfg=network/model:$model \
      --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
      { grep ' Simulation time ' || echo failed; } | tail -n 1)
    echo "$t,$p,$h,$n,$model,${line%% *}"
  done
done
