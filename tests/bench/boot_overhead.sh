#!/usr/bin/env bash
# Boot overhead in QEMU, for `make bench`: how many guest TSC ticks pass
# before a 12 MiB payload (tests/guest/tsc_payload.c, carrying .sbat, signed
# with the test db key) starts, when the firmware starts it directly, through
# lockshim, and through Debian's rhboot/shim 16.1 (re-signed with the db key;
# the payload is its grubx64.efi).
#
#   tests/bench/boot_overhead.sh [RUNS]      (default 3 runs of each)
#
# QEMU runs with -icount shift=0,sleep=off: guest time then counts executed
# instructions, so the TSC the payload reads at its entry repeats run to run
# and does not depend on the host's load. Secure Boot is on (vars-secboot.fd,
# a fresh copy each run). Prints one line per run and then, as JSON on the
# last line, the median of each path and the overheads:
#   {"direct": T, "lockshim": T, "shim": T, "lockshim_overhead": T,
#    "shim_overhead": T, "overhead_ratio": R}
# lockshim's overhead can be below zero: on the direct path the firmware
# verifies the 12 MiB payload with its own (portable C) SHA-256; through
# lockshim it verifies only lockshim, lockshim verifies the payload, and its
# security override lets the firmware load that very buffer without hashing
# it again. shim verifies the payload too, with portable C.
# Needs make (build/), tests/pki.sh and tests/qemu/vars.sh (run by make check).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh

runs=${1:-3}
work=$QEMU_BUILD/bench
pki=build/pki
mkdir -p "$work" "$QEMU_BUILD/logs"
die() { echo "boot_overhead.sh: $*" >&2; exit 1; }

tests/guest/build.sh || die "tests/guest/build.sh failed"
tests/pki.sh "$pki" >/dev/null || die "tests/pki.sh failed"
tests/qemu/vars.sh "$pki" >/dev/null || die "tests/qemu/vars.sh failed"
shim_dir=$(tests/bench/debian-shim.sh) || die "cannot fetch Debian's shim"
[[ -s build/lockshimx64.efi ]] || die "build/lockshimx64.efi missing (make)"

sign_efi db build/lockshimx64.efi "$work/lockshim.efi" >/dev/null &&
	sign_efi db "$shim_dir/shimx64.efi" "$work/shim.efi" >/dev/null &&
	scripts/sign.sh --key "$pki/db.key" --cert "$pki/db.crt" --sbat tests/bench/payload.sbat.csv \
		--output "$work/payload.efi" build/guest/tsc_payload_12m.efi ||
	die "signing failed"

# one_boot NAME FILE ESPPATH...: boot an ESP of these files; prints the TSC.
one_boot() {
	local name=$1; shift
	make_esp "$work/$name.img" "$@" || return 1
	run_qemu --esp "$work/$name.img" --vars "$QEMU_BUILD/vars-secboot.fd" \
		--log "$QEMU_BUILD/logs/bench-$name.log" --timeout 300 \
		--stop 'TSC-PAYLOAD entry [0-9]+' --stop 'lockshim: refusing' --stop 'No bootable option' \
		-- -icount shift=0,sleep=off >/dev/null
	rm -f "$work/$name.img"
	sed -n 's/.*TSC-PAYLOAD entry \([0-9][0-9]*\).*/\1/p' "$LOG" | head -n1 | grep . ||
		{ echo "boot_overhead.sh: $name: no TSC line (see $LOG)" >&2; return 1; }
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

declare -A med
for path in direct lockshim shim; do
	: >"$work/$path.tsc"
	for (( i = 1; i <= runs; i++ )); do
		case $path in
		direct) t=$(one_boot direct "$work/payload.efi" EFI/BOOT/BOOTX64.EFI) ;;
		lockshim) t=$(one_boot lockshim "$work/lockshim.efi" EFI/BOOT/BOOTX64.EFI \
			"$work/payload.efi" EFI/BOOT/vmlinuz.efi) ;;
		shim) t=$(one_boot shim "$work/shim.efi" EFI/BOOT/BOOTX64.EFI \
			"$work/payload.efi" EFI/BOOT/grubx64.efi) ;;
		esac || die "$path run $i failed"
		echo "# $path run $i: $t TSC ticks to the payload" >&2
		echo "$t" >>"$work/$path.tsc"
	done
	med[$path]=$(median <"$work/$path.tsc")
done

lo=$(( med[lockshim] - med[direct] )) so=$(( med[shim] - med[direct] ))
ratio=$(awk -v a="$lo" -v b="$so" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "null" }')
printf '{"direct": %s, "lockshim": %s, "shim": %s, "lockshim_overhead": %s, "shim_overhead": %s, "overhead_ratio": %s}\n' \
	"${med[direct]}" "${med[lockshim]}" "${med[shim]}" "$lo" "$so" "$ratio"
