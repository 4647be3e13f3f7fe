#!/bin/sh
# Replays every trace of traces/ on every platform of platforms/ with SimGrid's
# own replayer (smpirun -replay, SimGrid 3.32 as Debian packages it) under
# SMPI's network model (smpirun's default) and CM02, and writes smpi_times.csv:
# the simulated clock of the replayer's last "Simulation time" line, printed
# with 15 decimals ("failed" where it printed none). A trace whose first line
# (past # comments) names a file is an index (per-rank files, relative to
# traces/); any other is one file shared by all ranks, given to smpirun
# through a one-line index.
# Run from this folder: sh run_smpi.sh > smpi_times.csv
set -eu
cd traces
idx=$(mktemp smpi-idx-XXXXXX)
trap 'rm -f "$idx"' EXIT
echo "trace,platform,model,ranks,smpi_time_s"
for t in *.txt; do
  case $(grep -v '^#' "$t" | head -c 1) in
  [0-9]) echo "$t" > "$idx"; n=$(awk '$1 ~ /^[0-9]+$/ {print $1}' "$t" | sort -un | wc -l) ;;
  *) cp "$t" "$idx"; n=$(wc -l < "$t") ;;
  esac
  for p in ../platforms/*.xml; do
    for model in SMPI CM02; do
      line=$(smpirun -np "$n" -platform "$p" -hostfile ../hostfile.txt -replay "$idx" --cfg=network/model:$model \
        --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
        { grep ' Simulation time ' || echo failed; } | tail -n 1)
      echo "$(basename "$t" .txt),$(basename "$p" .xml),$model,$n,${line%% *}"
    done
  done
done
