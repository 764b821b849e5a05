#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# Verification throughput of lockshim's core on the host, per image size:
#
#   tests/bench/verify_throughput.sh [--runs N] [--json FILE] [SIZE_MIB...]
#
# For each size (default 12 and 128 MiB; images from mkimage.sh, kept in
# $BUILD/bench/images): verify_image() with the UEFI libcrypto built with
# assembly and without, and the system OpenSSL's SHA-256 over the same
# bytes (the CPU's limit); each the median of N runs (default 7). Prints one
# line per size with the ratios; --json also writes them as a JSON array.
# Needs `make bench-verify-tools` and $BUILD/lockshimx64.efi, $BUILD/pki.
set -euo pipefail
cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
bench=$BUILD/bench
runs=7 json= sizes=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--json) json=$2; shift 2 ;;
	[1-9]*) sizes+=("$1"); shift ;;
	*) echo "usage: verify_throughput.sh [--runs N] [--json FILE] [SIZE_MIB...]" >&2; exit 2 ;;
	esac
done
[[ ${#sizes[@]} -gt 0 ]] || sizes=(12 128)
for v in asm noasm system; do
	[[ -x $bench/bench_verify-$v ]] || { echo "verify_throughput.sh: run make bench-verify-tools" >&2; exit 1; }
done

# mb_per_s VARIANT MODE IMAGE [ARGS...]: the median MB/s bench_verify prints
mb_per_s() {
	local variant=$1 mode=$2 image=$3
	shift 3
	"$bench/bench_verify-$variant" --runs "$runs" --json "$mode" "$@" "$image" |
		sed -n 's/.*"mb_per_s": \([0-9.]*\).*/\1/p'
}

mkdir -p "$bench/images"
records=()
for mib in "${sizes[@]}"; do
	image=$bench/images/signed-${mib}MiB.efi
	if [[ ! -f $image || $BUILD/lockshimx64.efi -nt $image ]]; then
		tests/bench/mkimage.sh "$mib" "$image" >&2
	fi
	trust=(--vendor-cert "$BUILD/pki/vendor.der")
	asm=$(mb_per_s asm verify "$image" "${trust[@]}")
	noasm=$(mb_per_s noasm verify "$image" "${trust[@]}")
	ref=$(mb_per_s system sha256 "$image")
	[[ -n $asm && -n $noasm && -n $ref ]] || { echo "verify_throughput.sh: a run failed" >&2; exit 1; }
	ratio_ref=$(awk -v a="$asm" -v b="$ref" 'BEGIN { printf "%.2f", a / b }')
	ratio_noasm=$(awk -v a="$asm" -v b="$noasm" 'BEGIN { printf "%.2f", a / b }')
	printf '%4d MiB: verify asm %8.1f MB/s  no-asm %8.1f MB/s  system SHA-256 %8.1f MB/s  asm/system %s  asm/no-asm %s\n' \
		"$mib" "$asm" "$noasm" "$ref" "$ratio_ref" "$ratio_noasm"
	records+=("{\"size_mib\": $mib, \"bytes\": $(stat -c %s "$image"), \"runs\": $runs, \"verify_asm_mb_s\": $asm, \"verify_noasm_mb_s\": $noasm, \"system_sha256_mb_s\": $ref, \"asm_over_system\": $ratio_ref, \"asm_over_noasm\": $ratio_noasm}")
done
echo "crypto (asm build): $("$bench/bench_verify-asm" --runs 1 sha256 "$image" | sed 's/.*\[\(.*\)\]$/\1/')"
if [[ -n $json ]]; then
	(IFS=,; echo "[${records[*]}]") >"$json"
fi
