#!/usr/bin/env bash
# Boot overhead in QEMU, for `make bench`: how many guest TSC ticks pass
# before a 12 MiB payload (tests/guest/tsc_payload.c, carrying .sbat, signed
# with the test db key) starts, Secure Boot on, on five paths:
#   direct          the firmware starts the payload (\EFI\BOOT\BOOTX64.EFI)
#   lockshim        firmware -> lockshim (test build) -> the payload
#   shim            firmware -> Debian's rhboot/shim 16.1 (shim-unsigned,
#                   re-signed with the db key) -> the payload (as grubx64.efi)
#   chain_lockshim  Debian's chain (tests/qemu/debian-chain.sh): Boot0001 ->
#                   \EFI\debian\lockshimx64.efi (Debian's vendor certificate
#                   and dbx, signed with the db key) -> Debian's signed
#                   grubx64.efi -> grub.cfg chainloads \boot\payload.efi
#   chain_shim      the same ESP layout, GRUB bytes and payload, with shim
#                   16.1 (which embeds the same Debian certificate) at
#                   \EFI\debian\shimx64.efi
#
#   tests/bench/boot_overhead.sh [RUNS]      (default 3 runs of each)
#
# QEMU runs with -icount shift=0,sleep=off: guest time then counts executed
# instructions, so the TSC the payload reads at its entry repeats run to run
# and does not depend on the host's load. Each run starts from a fresh copy
# of its VARS (run_qemu's snapshot), so what shim writes (SbatLevel) does not
# carry over, and stops on the payload's marker or on a failure (GRUB's,
# shim's or lockshim's error text), bounded by a timeout. Prints one line
# per run on stderr and then, as JSON on the last line of stdout, each
# path's median, the overheads against direct, the chain's difference and
# ratio, and every run's ticks:
#   {"direct": T, "lockshim": T, "shim": T, "lockshim_overhead": T,
#    "shim_overhead": T, "overhead_ratio": R, "chain_lockshim": T,
#    "chain_shim": T, "chain_difference": T, "chain_ratio": R,
#    "runs": {"direct": [T...], ...}}
# A path that cannot be measured is null, and so is what derives from it.
#
# lockshim's overhead can be below zero: on the direct path the firmware
# verifies the 12 MiB payload with its own (portable C) SHA-256; through
# lockshim it verifies only lockshim, lockshim verifies the payload, and its
# security override lets the firmware load that very buffer without hashing
# it again. shim verifies the payload too, with portable C.
#
# Why the chains end in the payload and not in Debian's kernel: GRUB's
# `linux` under Secure Boot jumps to the kernel's EFI handover entry in
# memory GRUB allocated, with no output there and no counter a run can read
# from outside; the EFI stub's first messages carry no TSC value, and
# Linux's own clock starts from zero at its TSC calibration; timing to /init
# would add kernel work that depends on what each first stage leaves behind
# (MOK tables, the lockdown table). So GRUB `chainloader`s the payload, whose
# first instruction reads the TSC: up to there the chains do what they do
# for a kernel (firmware, the first stage, GRUB, GRUB reading a 12 MiB file
# and asking SHIM_LOCK's Verify), except that `linux` calls Verify twice and
# no LoadImage, while `chainloader` calls Verify once and then the
# firmware's LoadImage (db, and whatever the first stage hooked there).
#
# Needs make (build/), tests/pki.sh and tests/qemu/vars.sh (run by make
# check); fetches Debian's shim and GRUB, builds lockshim with Debian's
# certificate into build/debian-chain.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/qemu/lib.sh
. tests/qemu/debian-chain.sh

runs=${1:-3}
work=$QEMU_BUILD/bench
pki=build/pki
payload_path=boot/payload.efi
paths=(direct lockshim shim chain_lockshim chain_shim)
mkdir -p "$work" "$QEMU_BUILD/logs"
die() { echo "boot_overhead.sh: $*" >&2; exit 1; }
note() { echo "boot_overhead.sh: $*" >&2; }
trap 'rm -f "$work"/*.img' EXIT

tests/guest/build.sh || die "tests/guest/build.sh failed"
tests/pki.sh "$pki" >/dev/null || die "tests/pki.sh failed"
tests/qemu/vars.sh "$pki" >/dev/null || die "tests/qemu/vars.sh failed"
shim_dir=$(tests/bench/debian-shim.sh) || die "cannot fetch Debian's shim"
[[ -s build/lockshimx64.efi ]] || die "build/lockshimx64.efi missing (make)"

if ! { sign_efi db build/lockshimx64.efi "$work/lockshim.efi" >/dev/null &&
	sign_efi db "$shim_dir/shimx64.efi" "$work/shim.efi" >/dev/null &&
	scripts/sign.sh --key "$pki/db.key" --cert "$pki/db.crt" --sbat tests/bench/payload.sbat.csv \
		--output "$work/payload.efi" build/guest/tsc_payload_12m.efi >/dev/null; }; then
	die "signing failed"
fi

# Each path's ESP and VARS, made once; a path left out here is not measured.
declare -A esp vars
vars[direct]=$QEMU_BUILD/vars-secboot.fd vars[lockshim]=${vars[direct]} vars[shim]=${vars[direct]}
if ! { make_esp "$work/direct.img" "$work/payload.efi" EFI/BOOT/BOOTX64.EFI &&
	make_esp "$work/lockshim.img" "$work/lockshim.efi" EFI/BOOT/BOOTX64.EFI \
		"$work/payload.efi" EFI/BOOT/vmlinuz.efi &&
	make_esp "$work/shim.img" "$work/shim.efi" EFI/BOOT/BOOTX64.EFI \
		"$work/payload.efi" EFI/BOOT/grubx64.efi; }; then
	die "cannot make the ESPs"
fi
esp[direct]=$work/direct.img esp[lockshim]=$work/lockshim.img esp[shim]=$work/shim.img

# chain_setup PATH FIRST_STAGE_NAME FIRST_STAGE: Debian's chain with
# FIRST_STAGE at \EFI\debian\FIRST_STAGE_NAME, started by Boot0001.
chain_setup() {
	local path=$1 name=$2 first=$3
	debian_chain_boot_entry "$work/Boot0001-$path.bin" "$name" >/dev/null &&
		vars[$path]=$(tests/qemu/vars.sh --variant "bench-$path" "${DEBIAN_CHAIN_BOOT_VARS[@]}" "$pki" |
			tail -n 1) &&
		debian_chain_esp "$work/$path.img" "$name" "$first" "$work/chain-grub.cfg" \
			"$work/payload.efi" "$payload_path" &&
		esp[$path]=$work/$path.img
}
if chain_lockshim=$(debian_chain_lockshim "$DEBIAN_CHAIN_BUILD") &&
	sign_efi db "$chain_lockshim" "$work/chain-lockshim.efi" >/dev/null &&
	debian_chain_grub_cfg_chainload "$work/chain-grub.cfg" "$payload_path"; then
	chain_setup chain_lockshim lockshimx64.efi "$work/chain-lockshim.efi" ||
		note "chain_lockshim: cannot set up Debian's chain; not measured"
	chain_setup chain_shim shimx64.efi "$work/shim.efi" ||
		note "chain_shim: cannot set up Debian's chain; not measured"
else
	note "cannot build lockshim with Debian's certificate or fetch Debian's GRUB; the chains are not measured"
fi

# Success is the payload's marker; the rest are how each stage gives up
# (GRUB's errors and its key prompt, shim's error box, lockshim's refusal,
# the firmware's), so that no run waits for a key until the timeout.
stops=()
for s in 'TSC-PAYLOAD entry [0-9]+' 'lockshim: refusing' 'No bootable option' '^error: ' \
	'Press any key' 'Verification failed' "$QEMU_CRASH"; do
	stops+=(--stop "$s")
done

# one_boot PATH: boot PATH's ESP once; prints the TSC the payload read.
one_boot() {
	local path=$1
	run_qemu --esp "${esp[$path]}" --vars "${vars[$path]}" --log "$QEMU_BUILD/logs/bench-$path.log" \
		--timeout 300 "${stops[@]}" -- -icount shift=0,sleep=off >/dev/null
	sed -n 's/.*TSC-PAYLOAD entry \([0-9][0-9]*\).*/\1/p' "$LOG" | head -n1 | grep . ||
		{ echo "boot_overhead.sh: $path: no TSC line (see $LOG)" >&2; return 1; }
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# Each path's median, or null when it was not set up or a run failed.
declare -A med
for path in "${paths[@]}"; do
	med[$path]=null
	: >"$work/$path.tsc"
	[[ -n ${esp[$path]:-} ]] || continue
	for (( i = 1; i <= runs; i++ )); do
		t=$(one_boot "$path") || { note "$path run $i failed; not measured"; continue 2; }
		echo "# $path run $i: $t TSC ticks to the payload" >&2
		echo "$t" >>"$work/$path.tsc"
	done
	med[$path]=$(median <"$work/$path.tsc")
done

# difference A B, ratio A B: of two medians, null if either is.
difference() { [[ $1 == null || $2 == null ]] && echo null || echo $(( $1 - $2 )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "null" && b != "null" && b > 0) printf "%.3f", a / b; else print "null" }'; }

lo=$(difference "${med[lockshim]}" "${med[direct]}") so=$(difference "${med[shim]}" "${med[direct]}")
runs_json=
for path in "${paths[@]}"; do
	runs_json+="${runs_json:+, }\"$path\": [$(paste -sd, "$work/$path.tsc" | sed 's/,/, /g')]"
done
printf '{"direct": %s, "lockshim": %s, "shim": %s, "lockshim_overhead": %s, "shim_overhead": %s, "overhead_ratio": %s, ' \
	"${med[direct]}" "${med[lockshim]}" "${med[shim]}" "$lo" "$so" "$(ratio "$lo" "$so")"
printf '"chain_lockshim": %s, "chain_shim": %s, "chain_difference": %s, "chain_ratio": %s, "runs": {%s}}\n' \
	"${med[chain_lockshim]}" "${med[chain_shim]}" \
	"$(difference "${med[chain_lockshim]}" "${med[chain_shim]}")" \
	"$(ratio "${med[chain_lockshim]}" "${med[chain_shim]}")" "$runs_json"
