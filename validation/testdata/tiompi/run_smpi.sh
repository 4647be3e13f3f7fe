#!/bin/sh
# Replays every trace of traces/ with SimGrid's own replayer (smpirun -replay,
# SimGrid 3.32 as Debian packages it) under SMPI's ompi collective selector and
# writes smpi_times.csv: every trace on platforms/flat.xml, and the traces of
# 3, 8, 33 and 64 ranks on platforms/fattree.xml too; the figure is the clock
# (15 decimals) of the replayer's last "Simulation time" line ("failed" where
# smpirun printed none). Two replays at a time.
# Run from this folder: sh run_smpi.sh > smpi_times.csv
set -eu
one() {
  t=$1 p=$2
  n=$(grep -v '^#' "$t" | awk '{print $1}' | sort -un | wc -l)
  idx=$(mktemp smpi-idx-XXXXXX)
  echo "$t" > "$idx"
  line=$(smpirun -np "$n" -platform "$p" -hostfile hostfile.txt -replay "$idx" --cfg=smpi/coll-selector:ompi \
    --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info 2>&1 |
    { grep ' Simulation time ' || echo failed; } | tail -n 1)
  rm -f "$idx"
  echo "$(basename "$t" .txt),$(basename "$p" .xml),$n,${line%% *}"
}
if [ $# -eq 2 ]; then one "$1" "$2"; exit; fi
echo "trace,platform,ranks,smpi_time_s"
for t in traces/*.txt; do
  echo "$t platforms/flat.xml"
  case "$t" in *_3.txt|*_3_*|*_8.txt|*_8_*|*_33.txt|*_33_*|*_64.txt|*_64_*) echo "$t platforms/fattree.xml";; esac
done | xargs -P 2 -n 2 sh "$0" | sort
