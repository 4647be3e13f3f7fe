#!/bin/sh
# Replays each case of cases.txt, two TI traces at once on backbone.xml, with
# SimGrid 3.32 (Debian's libsimgrid-dev; multi_replay.cpp registers each trace
# as an SMPI application instance) and writes smpi_times.csv: each job's end,
# the largest of its ranks' ends, s, or "failed" (SimGrid stops: the first
# critical line goes to stderr). Job 2's start is a delay of start × 1e9
# flops on its 1 Gf hosts (smpi_replay_run's start_delay_flops). Run from
# this folder:   sh run_smpi.sh > smpi_times.csv
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g++ -O1 -o "$tmp/multi_replay" multi_replay.cpp -lsimgrid
echo "job1,ranks1,job2,ranks2,start2_s,job1_s,job2_s"
grep -v '^#' cases.txt | while read -r t1 n1 t2 n2 start; do
  delay=$(awk "BEGIN{print $start * 1e9}")
  printf 'job1 %s\njob2 %s\n' "$n1" "$n2" > "$tmp/jobs"
  {
    echo "<?xml version='1.0'?><!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"><platform version=\"4.1\">"
    i=0
    for job in "job1 $t1 $n1 0" "job2 $t2 $n2 $delay"; do
      set -- $job
      r=0
      while [ "$r" -lt "$3" ]; do
        i=$((i + 1))
        host=$(echo a b c d e f | cut -d' ' -f$i)
        echo "<actor host=\"$host\" function=\"$1\"><argument value=\"$1\"/><argument value=\"$r\"/><argument value=\"traces/$2.txt\"/><argument value=\"$4\"/></actor>"
        r=$((r + 1))
      done
    done
    echo "</platform>"
  } > "$tmp/deploy.xml"
  out=$("$tmp/multi_replay" "$tmp/jobs" platforms/backbone.xml "$tmp/deploy.xml" \
      --cfg=surf/precision:1e-9 --cfg=network/model:SMPI --log=root.thres:critical 2>&1 || true)
  if echo "$out" | grep -q CRITICAL; then
    echo "$out" | grep CRITICAL | head -n 1 >&2
    echo "$t1,$n1,$t2,$n2,$start,failed,failed"
    continue
  fi
  end() { echo "$out" | awk -v j="$1" '$1 == j && $3 > m { m = $3 } END { printf "%s", m }'; }
  echo "$t1,$n1,$t2,$n2,$start,$(end job1),$(end job2)"
done
