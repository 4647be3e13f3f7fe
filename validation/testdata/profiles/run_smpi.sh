#!/bin/sh
# Replays each case of cases.txt with SimGrid 3.32's own replayer (smpirun
# -replay, Debian's simgrid 3.32) under SMPI's network model (smpirun's
# default) and writes smpi_times.csv: the clock of the replayer's last
# "Simulation time" line printed with 15 decimals, or "failed" (with the
# first critical line) where SimGrid stops. Run from this folder:
#   sh run_smpi.sh > smpi_times.csv
set -eu
idx=$(mktemp smpi-idx-XXXXXX)
trap 'rm -f "$idx"' EXIT
echo "trace,platform,hostfile,np,smpi_time_s"
grep -v '^#' cases.txt | while read -r t p h n; do
  echo "traces/$t.txt" > "$idx"
  dir=platforms; [ "$p" = sg ] && dir=sg && p=small_platform_profile
  out=$(smpirun -np "$n" -platform "$dir/$p.xml" -hostfile "hostfiles/$h.txt" -replay "$idx" \
      --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 || true)
  line=$(echo "$out" | { grep ' Simulation time ' || echo failed; } | tail -n 1)
  [ "$p" = small_platform_profile ] && p=sg
  echo "$t,$p,$h,$n,${line%% *}"
done
