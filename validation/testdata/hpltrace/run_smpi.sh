#!/bin/sh
# Traces xhpl (HPL 2.3, built with smpicc; XHPL names it) on every dats/NNN.dat and writes
# ops/NNN.ops.gz (digest.py, then gzip -9 -n). Run in this folder:
#   XHPL=/path/to/xhpl sh run_smpi.sh [NNN ...]
# Each HPL.dat runs twice: once traced time-independently (the calls in order), once with a
# Paje trace that has each message's size (digest.py says why); every test's residual must pass.
set -eu
here=$(pwd)
: "${XHPL:?set XHPL to an xhpl built with smpicc}"
mkdir -p ops
names=${*:-$(cd dats && ls *.dat | sed 's/\.dat$//')}
for n in $names; do
	d=$(mktemp -d /tmp/hpltrace-run.XXXXXX)
	cp "dats/$n.dat" "$d/HPL.dat"
	np=$(awk 'NR==11{for(i=1;i<=NF&&$i~/^[0-9]+$/;i++)p[i]=$i} NR==12{m=0;for(i=1;i<=NF&&$i~/^[0-9]+$/;i++)if(p[i]*$i>m)m=p[i]*$i; print m}' "$d/HPL.dat")
	seq 0 $((np - 1)) | sed 's/^/node-/' > "$d/hostfile.txt" # rank i on node-i
	common="-np $np -platform $here/platform.xml -hostfile $d/hostfile.txt --cfg=smpi/host-speed:1Gf"
	(cd "$d" && smpirun $common -trace-ti --cfg=tracing/filename:ti.txt \
		--cfg=tracing/smpi/format/ti-one-file:yes "$XHPL" > out-ti.txt 2> err-ti.txt)
	(cd "$d" && smpirun $common -trace --cfg=tracing/smpi/display-sizes:yes \
		--cfg=tracing/filename:paje.trace "$XHPL" > out-paje.txt 2> err-paje.txt)
	for o in out-ti out-paje; do
		tests=$(grep -c '^W[RC]' "$d/$o.txt" || true)
		passed=$(grep -c 'PASSED$' "$d/$o.txt" || true)
		if [ "$tests" = 0 ] || [ "$tests" != "$passed" ] || grep -q FAILED "$d/$o.txt"; then
			echo "$n: $o: $passed of $tests tests passed ($d)" >&2
			exit 1
		fi
	done
	python3 digest.py "$d/ti.txt" "$d/paje.trace" > "$d/ops"
	gzip -9 -n -c "$d/ops" > "ops/$n.ops.gz"
	echo "$n np=$np tests=$tests ops=$(wc -l < "$d/ops")"
	rm -rf "$d"
done
