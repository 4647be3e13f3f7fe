#!/bin/bash
# run.sh BUDGET_S CONFIGS [SAMPLES]: on a node with none of the tools, one
# round of validation/nodeloop (real HPL before and after a lockstep
# calibration, then emu's predictions; with BESIDE=dgemm in the environment
# also a calibration with --beside dgemm and the predictions from it) on the
# tests of CONFIGS, with what
# pack.sh packed beside this file; then a calibration with --repeats 1 if
# time is left. Everything lands in $OUT (the device's) or ./device-out:
# facts.txt (the machine), node.txt (every 2 s: clocks, load, steal time,
# context switches, page faults, TLB shootdowns),
# pingpong.csv (tools/mpibench, 2 ranks), pingpong-loaded.csv (the same
# while the other cores stream memory), swaps.csv (tools/swapbench, a rank a
# core, the matrix malloc'd as HPL's), swaps-huge.csv (the same on 2 MiB
# pages), xhpl-f01-{4k,huge,4k-again}.txt (f01's real HPL with its matrix
# on 4 KiB, then 2 MiB, then 4 KiB pages), nodeloop.log and results.tgz.
# It stops itself BUDGET_S seconds after it starts, keeping what it has.
set -u
t0=$(date +%s)
budget=${1:?usage: run.sh BUDGET_S CONFIGS [SAMPLES]}
configs=${2:?usage: run.sh BUDGET_S CONFIGS [SAMPLES]}
samples=${3:-60}
left() { echo $((budget - ($(date +%s) - t0))); }
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$PWD/device-out}
b=/tmp/emu-bundle w=/tmp/emu-work
mkdir -p "$out" "$b" "$w"
tar -xJf "$here/bundle.tar.xz" -C "$b" || { echo "run.sh: cannot unpack the bundle"; exit 1; }
export LD_LIBRARY_PATH=$b/lib OPAL_PREFIX=$b/root$(cat "$b/prefix") PATH=$b/bin:$PATH
if [ -f "$b/pmix" ]; then
	export PMIX_MCA_mca_base_component_path=$b/root$(cat "$b/pmix")
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Shared memory only; the packed network components would look for hardware.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx
export OMPI_MCA_btl_base_warn_component_unused=0 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
f=$out/facts.txt
{ date -u; uname -a; lscpu; free -g; cat /sys/kernel/mm/transparent_hugepage/enabled; cat /proc/loadavg; } > "$f" 2>&1
# Every 2 s: the clocks, the load, and what the kernel and the hypervisor did
# (steal time and context switches from /proc/stat; page faults, NUMA hint
# faults, TLB shootdowns), to set against the runs' start times.
sample() {
	echo "epoch mhz... load1 load5 load15 running steal_ticks ctxt pgfault pgmajfault numa_hint_faults tlb_shootdowns"
	while true; do
		echo "$(date +%s)$(awk '/MHz/{printf " %d", $4}' /proc/cpuinfo) $(cut -d' ' -f1-4 /proc/loadavg)" \
			"$(awk '$1=="cpu"{s=$9} $1=="ctxt"{c=$2} END{print s, c}' /proc/stat)" \
			"$(awk '$1=="pgfault"||$1=="pgmajfault"||$1=="numa_hint_faults"{v[$1]=$2} END{print v["pgfault"]+0, v["pgmajfault"]+0, v["numa_hint_faults"]+0}' /proc/vmstat)" \
			"$(awk '$1=="TLB:"{for(i=2;i<=NF&&$i~/^[0-9]+$/;i++)t+=$i} END{print t+0}' /proc/interrupts)"
		sleep 2
	done
}
sample > "$out/node.txt" 2>&1 &
sampler=$!
echo "== mpibench, $(left) s left" | tee -a "$f"
(cd "$w" && timeout 40 mpirun -np 2 --bind-to core "$b/bin/mpibench" > "$out/pingpong.csv" 2>> "$f")
(cd "$w" && timeout 40 mpirun -np "$(getconf _NPROCESSORS_ONLN)" --bind-to core "$b/bin/mpibench" > "$out/pingpong-loaded.csv" 2>> "$f")
echo "== swapbench, $(left) s left" | tee -a "$f"
(cd "$w" && timeout 60 mpirun -np "$(getconf _NPROCESSORS_ONLN)" --bind-to core "$b/bin/swapbench" 12000 750 96 5 > "$out/swaps.csv" 2>> "$f")
grep '^#' "$out/swaps.csv" >> "$f"
(cd "$w" && timeout 60 mpirun -np "$(getconf _NPROCESSORS_ONLN)" --bind-to core "$b/bin/swapbench" 12000 750 96 5 huge > "$out/swaps-huge.csv" 2>> "$f")
grep '^#' "$out/swaps-huge.csv" >> "$f"
# f01's test (1x16, where laswp took 31 times emu's) with HPL's matrix on
# 4 KiB pages, then on 2 MiB pages (glibc's malloc asks for transparent huge
# pages under this tunable), then on 4 KiB again: its laswp phase says
# whether the interchanges pay for page walks.
echo "== xhpl f01, 4 KiB and 2 MiB pages, $(left) s left" | tee -a "$f"
mkdir -p "$w/pages" && cat > "$w/pages/HPL.dat" <<'DAT'
HPLinpack benchmark input file
f01 on 4 KiB and 2 MiB pages
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
12000        Ns
1            # of NBs
96           NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
16           Qs
16.0         threshold
1            # of panel fact
2            PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
DAT
for pages in 4k huge 4k-again; do
	tun=
	[ "$pages" = huge ] && tun=glibc.malloc.hugetlb=1
	(cd "$w/pages" && GLIBC_TUNABLES=$tun timeout 60 mpirun -np 16 --bind-to core -x GLIBC_TUNABLES "$b/bin/xhpl" > "$out/xhpl-f01-$pages.txt" 2>> "$f")
	grep -E '^WR|Max aggregated wall time (laswp|update)' "$out/xhpl-f01-$pages.txt" | sed "s/^/$pages: /" >> "$f"
done
echo "== nodeloop, $(left) s left" | tee -a "$f"
timeout $(($(left) - 100)) "$b/bin/nodeloop" -hpl "$b/bin/xhpl" -mpirun "$b/bin/mpirun" -emu "$b/bin/emu" \
	-node "$here/node.toml" -configs "$configs" -loops 1 -repeats 1 -samples "$samples" -quiet 0 -apart=false \
	-out "$w/loop" -run-timeout 80s -emu-timeout 200s ${BESIDE:+-beside "$BESIDE"} > "$out/nodeloop.log" 2>&1
echo "nodeloop exit $?, $(left) s left" | tee -a "$f"
if [ "$(left)" -gt 50 ] && ls "$w"/loop/hpl-dat/*.dat > /dev/null 2>&1; then
	echo "== calibrate --repeats 1, $(left) s left" | tee -a "$f"
	timeout $(($(left) - 20)) "$b/bin/emu" calibrate "$here/node.toml" --hpl-dat "$(ls "$w"/loop/hpl-dat/*.dat | paste -sd,)" \
		--repeats 1 --samples "$samples" -o "$w/samples_r1.csv" >> "$f" 2>&1
	echo "calibrate exit $?" >> "$f"
fi
kill $sampler
(cd "$w" && tar -czf "$out/results.tgz" loop $(ls samples_r1.csv 2>/dev/null)) 2>> "$f"
echo "done, $(left) s left" | tee -a "$f"
