#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# A signed PE image of a given size, for the throughput benchmarks:
#
#   tests/bench/mkimage.sh SIZE OUT [BASE]
#
# SIZE is in MiB (12, 128). BASE (default $BUILD/lockshimx64.efi) gets an
# extra section, .bench, of pseudo-random bytes (AES-CTR of zeros with a
# fixed key, so every run makes the same image) that brings it to SIZE MiB;
# scripts/sign.sh then signs it with the test vendor key ($BUILD/pki, from
# tests/pki.sh) and checks the signature with sbverify.
set -euo pipefail
cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
usage() { echo "usage: tests/bench/mkimage.sh SIZE_MIB OUT [BASE]" >&2; exit 2; }
[[ $# -ge 2 && $# -le 3 && $1 =~ ^[1-9][0-9]*$ ]] || usage
size=$(( $1 * 1024 * 1024 ))
out=$2
base=${3:-$BUILD/lockshimx64.efi}
pki=$BUILD/pki
for f in "$base" "$pki/vendor.key" "$pki/vendor.crt"; do
	[[ -f $f ]] || { echo "mkimage.sh: $f missing (make; tests/pki.sh $pki)" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The section fills what BASE does not (its size rounded to a page, and
# room for the signature the image gets).
fill=$(( size - ($(stat -c %s "$base") + 4095) / 4096 * 4096 - 4096 ))
(( fill > 0 )) || { echo "mkimage.sh: $base is already larger than $1 MiB" >&2; exit 1; }
head -c "$fill" /dev/zero | openssl enc -aes-128-ctr -K 6c6f636b7368696d2062656e63680000 \
	-iv 00000000000000000000000000000000 >"$tmp/fill.bin"
# After BASE's last section, page-aligned, as the PE/COFF layout requires.
end=0
while read -r idx _ size vma _; do
	[[ $idx =~ ^[0-9]+$ ]] && (( 16#$vma + 16#$size > end )) && end=$(( 16#$vma + 16#$size ))
done < <(objdump -h "$base")
vma=$(( (end + 4095) / 4096 * 4096 ))
objcopy --add-section .bench="$tmp/fill.bin" \
	--set-section-flags .bench=contents,alloc,load,readonly,data \
	--change-section-address .bench="$vma" \
	"$base" "$tmp/unsigned.efi"
scripts/sign.sh --key "$pki/vendor.key" --cert "$pki/vendor.crt" --output "$out" "$tmp/unsigned.efi" >/dev/null
echo "mkimage.sh: $out ($(stat -c %s "$out") bytes, signed by the test vendor key)"
