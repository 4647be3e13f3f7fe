#!/bin/bash
# pack.sh XHPL [DIR]: packs what a node without Go, Open MPI or OpenBLAS needs
# to run validation/nodeloop there (README.md beside this file): emu built
# with -tags cblas, nodeloop, tools/mpibench and tools/swapbench, the given xhpl (HPL 2.3 built
# with -DHPL_DETAILED_TIMING against this machine's Open MPI and OpenBLAS;
# build it outside the repository), this machine's Open MPI (mpirun, its
# components and help files, relocated by OPAL_PREFIX on the node) and every
# shared library they load but the C library's. DIR (default .dev, at the
# repository's root, ignored through .git/info/exclude) gets bundle.tar.xz,
# run.sh, node.toml (node16.toml) and the configs-*.txt beside this file.
set -euo pipefail
xhpl=${1:?usage: pack.sh XHPL [DIR]}
root=$(git rev-parse --show-toplevel)
dir=${2:-$root/.dev}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/lib" "$tmp/root/usr/share" "$dir"
(cd "$root" && go build -tags cblas -o "$tmp/bin/emu" ./cmd/emu &&
	CGO_ENABLED=0 go build -o "$tmp/bin/nodeloop" ./validation/nodeloop &&
	mpicc -O2 -o "$tmp/bin/mpibench" tools/mpibench/mpibench.c &&
	mpicc -O2 -o "$tmp/bin/swapbench" tools/swapbench/swapbench.c -lopenblas)
cp "$xhpl" "$tmp/bin/xhpl"
orterun=$(readlink -f "$(command -v mpirun)")
cp "$orterun" "$tmp/bin/orterun"
ln -s orterun "$tmp/bin/mpirun"
# Open MPI finds its components and help files under OPAL_PREFIX as its own
# build laid them out under its prefix (ompi_info --path all).
prefix=$(ompi_info --path prefix --parsable | sed -n 's/^path:prefix://p')
pkglib=$(ompi_info --path pkglibdir --parsable | sed -n 's/^path:pkglibdir://p')
pkgdata=$(ompi_info --path pkgdatadir --parsable | sed -n 's/^path:pkgdatadir://p')
mkdir -p "$tmp/root/${pkglib%/*}" "$tmp/root/${pkgdata%/*}"
cp -a "$pkglib" "$tmp/root/${pkglib%/*}/"
cp -a "$pkgdata" "$tmp/root/${pkgdata%/*}/"
echo "$prefix" > "$tmp/prefix"
pmix=$(ls -d /usr/lib/*/pmix2/lib/pmix 2>/dev/null | head -1 || true)
if [ -n "$pmix" ]; then
	mkdir -p "$tmp/root/${pmix%/*}" && cp -a "$pmix" "$tmp/root/${pmix%/*}/"
	echo "$pmix" > "$tmp/pmix"
fi
# Every library the programs and components load, but glibc's own.
# (ldd fails on the static nodeloop: not a dynamic executable.)
find "$tmp/bin" "$tmp/root" -type f \( -perm -u+x -o -name '*.so*' \) -print0 |
	{ xargs -0 ldd 2>/dev/null || true; } | awk '/=> \//{print $3}' | sort -u |
	grep -v -E '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux-x86-64)\.so' |
	while read -r l; do cp -L "$l" "$tmp/lib/"; done
tar -C "$tmp" -cf - . | xz -T0 -6 > "$dir/bundle.tar.xz"
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/run.sh" "$dir/run.sh"
cp "$here/node16.toml" "$dir/node.toml"
cp "$here"/configs-*.txt "$dir/"
grep -qx '/.dev/' "$root/.git/info/exclude" 2>/dev/null || { mkdir -p "$root/.git/info"; echo /.dev/ >> "$root/.git/info/exclude"; }
ls -l "$dir"
