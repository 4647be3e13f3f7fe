#!/bin/sh
# Replays every trace of traces/ on every platform of platforms/ with SimGrid's
# own replayer (smpirun -replay, SimGrid 3.32 as Debian packages it) and
# writes smpi_times.csv: under SMPI's network model (smpirun's default) and
# under CM02, the simulated time at which the last rank finished,
# read from the clock of the replayer's "Simulation time" line printed with 15
# decimals, the last such line: a rank that ends before the others start prints one too
# ("failed" where smpirun printed none: it crashed). Run from this folder: sh run_smpi.sh > smpi_times.csv
set -eu
idx=$(mktemp smpi-idx-XXXXXX)
trap 'rm -f "$idx"' EXIT
echo "trace,platform,model,ranks,smpi_time_s"
for t in traces/*.txt; do
  n=$(grep -v '^#' "$t" | awk '{print $1}' | sort -un | wc -l)
  echo "$t" > "$idx"
  for p in platforms/*.xml; do
    for model in SMPI CM02; do
      line=$(smpirun -np "$n" -platform "$p" -hostfile hostfile.txt -replay "$idx" --cfg=network/model:$model \
        --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
        { grep ' Simulation time ' || echo failed; } | tail -n 1)
      echo "$(basename "$t" .txt),$(basename "$p" .xml),$model,$n,${line%% *}"
    done
  done
done
