#!/bin/sh
# Replays every case of smpi_times.csv (its case and model columns) with
# SimGrid's own replayer (smpirun -replay, SimGrid 3.32 as Debian packages
# it) and writes the CSV again on stdout: the simulated time at which the last
# rank finished, read from the clock of the replayer's last "Simulation time"
# line printed with 15 decimals, as ../tireplay/run_smpi.sh does.
# Run from this folder: sh run_smpi.sh > new.csv
set -eu
echo "case,model,ranks,smpi_time_s"
tail -n +2 smpi_times.csv | while IFS=, read -r c model n _; do
  d=cases/$c
  echo "$PWD/$d/t.txt" > "$d/idx"
  line=$(cd "$d" && smpirun -np "$n" -platform p.xml -hostfile hosts.txt -replay idx --cfg=network/model:"$model" \
    --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
    { grep ' Simulation time ' || echo failed; } | tail -n 1)
  rm -f "$d/idx"
  echo "$c,$model,$n,${line%% *}"
done
