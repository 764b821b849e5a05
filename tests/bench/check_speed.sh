#!/usr/bin/env bash
# make bench: how long `lockshim check` takes on a machine with 20 kernels
# (issue 26: under a second). The state is built here, offline: lockshim
# (test db key) starts Debian's signed GRUB (allowed by its digest in
# MokListRT), whose grub.cfg has 20 menu entries, each a distinct copy of
# Debian's kernel signed by the test vendor key in /boot. Each run reads and
# hashes every image; the files are in the page cache after the first.
#
#   tests/bench/check_speed.sh [RUNS]    prints a line of text, then a JSON
#                                        object: {"kernels": 20, "seconds": MEDIAN}
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

runs=${1:-5}
work=build/bench/check-speed
pki=build/pki
mk="python3 tests/cli/mkefivars.py"
GG=8be4df61-93ca-11d2-aa0d-00e098032b8c
fail() { echo "check_speed: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work/vars" "$work/esp/EFI/lockshim" "$work/boot/grub" || fail "cannot make $work"
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz-debian") || fail "no Debian kernel"
grub_dir=$(tests/qemu/debian-package.sh grub-efi-amd64-signed \
	usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed) || fail "no Debian GRUB"
sign() { scripts/sign.sh --key "$pki/$1.key" --cert "$pki/$1.crt" --output "$3" "$2" >/dev/null 2>&1; }
sign db build/lockshimx64.efi "$work/esp/EFI/lockshim/lockshimx64.efi" || fail "cannot sign lockshim"
cp "$grub_dir/grubx64.efi.signed" "$work/esp/EFI/lockshim/grubx64.efi"
python3 tests/cli/mkesl.py SHA256 "$work/grub.esl" "$(build/lockshim hash "$work/esp/EFI/lockshim/grubx64.efi")"
$mk byte "$work/vars" SecureBoot $GG 0x6 1
$mk byte "$work/vars" SetupMode $GG 0x6 0
$mk var "$work/vars" db d719b2cb-3d3a-4596-a3bc-dad00e67656f 0x27 "$pki/db.esl"
$mk var "$work/vars" MokListRT 605dab50-e046-4300-abb6-3dd810dd8b23 0x6 "$work/grub.esl"
$mk order "$work/vars" 1
$mk option "$work/vars" 1 lockshim '\EFI\lockshim\lockshimx64.efi' grubx64.efi
printf 'search.fs_uuid 0b5e6f0e root\nconfigfile /boot/grub/grub.cfg\n' >"$work/esp/EFI/lockshim/grub.cfg"
for i in $(seq 1 20); do
	# each its own file: every one is read and hashed
	sign vendor "$kernel" "$work/boot/vmlinuz-$i" || fail "cannot sign a kernel"
	printf "menuentry 'Debian %d' {\n\tlinux /boot/vmlinuz-%d root=/dev/sda2\n}\n" "$i" "$i"
done >"$work/boot/grub/grub.cfg"

times=()
for _ in $(seq 1 "$runs"); do
	start=$(date +%s.%N)
	build/lockshim check --efivars "$work/vars" --esp "$work/esp" --boot "$work/boot" >"$work/out" 2>&1
	rc=$?
	end=$(date +%s.%N)
	[[ $rc -eq 0 ]] || fail "check exited $rc: $(head -3 "$work/out")"
	times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')")
done
[[ $(grep -c '^  allowed /boot/vmlinuz-' "$work/out") -eq 20 ]] || fail "not every kernel was decided"
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "  20 kernels (8 MB each) behind lockshim and GRUB: ${median} s (median of $runs)"
echo "{\"kernels\": 20, \"seconds\": $median}"
