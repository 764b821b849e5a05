#!/usr/bin/env bash
# Check the series as upstream would take it, one patch at a time:
#
#   kernel/check-series.sh [WORKDIR]      (default: a temporary directory
#                                          beside the kernel cache)
#
# Extracts linux-source-6.12 once, then for each kernel/patches/00NN-*.patch
# in order: scripts/checkpatch.pl --strict on it, applies it (patch
# --fuzz=0, as build.sh does), merges kernel/lockshim.config again (the
# options a patch adds exist only from that patch on) and builds bzImage and
# modules incrementally. Prints one line a patch:
#
#   0012 checkpatch ok; build ok (59 s, 0 warnings, EFI_LOCKSHIM=y)
#
# and exits non-zero on the first patch that does not apply, does not build
# or has checkpatch findings. Not part of make check (the first build is a
# whole kernel, then about 20 s to 2 min a patch on two cores).
# Environment: LINUX_SOURCE, JOBS (as kernel/build.sh).
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
die() { echo "check-series.sh: $*" >&2; exit 1; }

LINUX_SOURCE=${LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-2}
cache=${LOCKSHIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lockshim}
[[ -f $LINUX_SOURCE ]] || die "$LINUX_SOURCE missing (apt-get install linux-source-6.12)"

work=${1:-}
if [[ -z $work ]]; then
	mkdir -p "$cache"
	work=$(mktemp -d "$cache/.check-series.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$work"' EXIT
fi
src=$work/src obj=$work/obj log=$work/log
mkdir -p "$src" "$obj"
patches=(kernel/patches/00[0-9][0-9]-*.patch)
fragment=kernel/lockshim.config

tar -xf "$LINUX_SOURCE" -C "$src" --strip-components=1 || die "cannot extract $LINUX_SOURCE"
make -C "$src" O="$obj" tinyconfig >"$log" 2>&1 || die "tinyconfig failed: $log"

for p in "${patches[@]}"; do
	n=$(basename "$p" | cut -c1-4)
	[[ $n == 0000 ]] && continue
	# by its absolute path: given "kernel/patches/...", checkpatch reads the
	# mail signature's "-- " as a line of the diff (trailing whitespace)
	findings=$(perl "$src/scripts/checkpatch.pl" --strict --no-tree -q "$PWD/$p" 2>&1 |
		grep -E '^(ERROR|WARNING|CHECK):')
	patch -d "$src" -p1 --batch --forward --fuzz=0 -i "$PWD/$p" >>"$log" 2>&1 ||
		die "$n does not apply: $log"
	{ "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" >>"$log" 2>&1 &&
		make -C "$src" O="$obj" olddefconfig >>"$log" 2>&1; } || die "$n: configuration failed: $log"
	t0=$SECONDS
	make -C "$src" O="$obj" -j"$JOBS" bzImage modules >"$work/build-$n.log" 2>&1 ||
		die "$n does not build: $work/build-$n.log"
	warnings=$(grep -c 'warning:' "$work/build-$n.log")
	lockshim=$(grep -q '^CONFIG_EFI_LOCKSHIM=y' "$obj/.config" && echo y || echo n)
	echo "$n checkpatch ${findings:+NOT }ok; build ok ($((SECONDS - t0)) s, $warnings warnings, EFI_LOCKSHIM=$lockshim)"
	[[ -z $findings ]] || { printf '%s\n' "$findings" >&2; exit 1; }
done
