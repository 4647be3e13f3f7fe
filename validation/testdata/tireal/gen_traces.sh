#!/bin/sh
# Builds the programs of src/ with smpicc and traces each at several rank
# counts with smpirun -trace-ti (SimGrid 3.32) into traces/: one shared
# file per run (ti-one-file), but stencil, kept in SMPI's default layout:
# an index naming one file per rank, here renamed NAME/rank-K.txt (the
# tracer's names carry a timestamp) and listed relative to traces/.
# The computes are the programs' measured CPU time at 1 Gflop/s, so a new
# run gives other traces. Run from this folder: sh gen_traces.sh
set -eu
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for p in src/*.c; do smpicc -O2 -o "$bin/$(basename "$p" .c)" "$p"; done
mkdir -p traces
trace() { # NAME NP ONEFILE PROGRAM ARGS...
  name=$1_$2 np=$2 one=$3 prog=$4
  shift 4
  rm -rf "traces/$name.txt" "traces/$name" "$bin/out"*
  smpirun -np "$np" -platform platforms/flat.xml -hostfile hostfile.txt -trace-ti \
    --cfg=tracing/filename:"$bin/out.txt" --cfg=tracing/smpi/format/ti-one-file:"$one" \
    --cfg=smpi/host-speed:1Gf --log=root.thres:critical "$bin/$prog" "$@"
  if [ "$one" = yes ]; then
    mv "$(cat "$bin/out.txt")" "traces/$name.txt"
  else
    mkdir "traces/$name"
    k=0
    while read -r f; do
      mv "$f" "traces/$name/rank-$k.txt"
      echo "$name/rank-$k.txt" >> "traces/$name.txt"
      k=$((k + 1))
    done < "$bin/out.txt"
  fi
}
for np in 4 8 16 32 64; do
  trace stencil $np no stencil 128 20
  trace cg $np yes cg 20000 1000 15
done
for np in 4 8 16 32; do
  trace colls $np yes colls
done
for np in 4 8 16 32 64; do
  trace transpose $np yes transpose
done
for np in 6 8 16; do
  trace split $np yes split
done
for np in 4 8 16; do
  trace calls $np yes calls
done
# What no replayer reads, one 4-rank trace each, in refused/ (run_smpi.sh
# does not replay them: SimGrid's replayer aborts or deadlocks on each).
mkdir -p refused
for w in anysource procnull ssend persistent waitany testall iallreduce; do
  trace "refused_$w" 4 yes refused "$w"
  mv "traces/refused_${w}_4.txt" "refused/$w.txt"
done
