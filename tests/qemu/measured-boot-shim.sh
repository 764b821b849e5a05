#!/usr/bin/env bash
# The same boot measured twice, for comparing lockshim's events with
# rhboot/shim 16.1's (README, "Measured boot"): Debian's chain
# (tests/qemu/debian-chain.sh), Secure Boot on, swtpm attached, first stage
# lockshim (Debian's vendor certificate) and then Debian's shim 16.1
# (shim-unsigned, signed with the test db key as make bench does), each
# starting Debian's signed GRUB, which boots Debian's signed kernel with a
# mokutil guest that prints the event log (test_measured_boot.sh's steps).
# Then the same twice more with a grub.cfg that first asks about a
# rogue-signed kernel (refused under both; shim's Verify measures it before
# it decides) and then boots Debian's: the PCR 4 events after the first
# stage's must be the same under both.
#
#   tests/qemu/measured-boot-shim.sh     prints both logs' PCR 4, 7 and 14 events,
#                                        the PCRs, and lockshim's prediction over
#                                        each boot's firmware events
#
# Not a test: a comparison for people (and the note of issue 16). Logs:
# build/qemu/logs/compare-{lockshim,shim}.{log,tpmlog,events}.

# shellcheck source=tests/qemu/test_measured_boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/test_measured_boot.sh" # cds to the repository
. tests/qemu/debian-chain.sh
set -uo pipefail

die() { echo "measured-boot-shim.sh: $*" >&2; exit 1; }
CMP=$QEMU_BUILD/compare
mkdir -p "$CMP"
measured_prepare
[[ -z $PREP_ERROR ]] || die "$PREP_ERROR"

shim_dir=$(tests/bench/debian-shim.sh) || die "cannot fetch Debian's shim"
lockshim=$(debian_chain_lockshim "$DEBIAN_CHAIN_BUILD") || die "cannot build lockshim for Debian"
grub=$(debian_chain_grub) || die "cannot fetch Debian's GRUB"
tests/qemu/debian-kernel.sh --as-shipped "$CMP/kernel-debian.efi" >/dev/null || die "Debian's kernel"
sign_efi db "$lockshim" "$CMP/lockshimx64.efi" >/dev/null &&
	sign_efi db "$shim_dir/shimx64.efi" "$CMP/shimx64.efi" >/dev/null || die "signing"
debian_chain_grub_cfg "$CMP/grub.cfg" 'console=ttyS0 panic=-1' || die "grub.cfg"
sign_efi rogue "$LD_WORK/kernel-unsigned.efi" "$CMP/kernel-rogue.efi" >/dev/null || die "rogue kernel"
{
	printf "set default=0\nset timeout=0\nmenuentry 'refused, then allowed' {\n"
	printf 'linux /boot/vmlinuz-rogue console=ttyS0 panic=-1\n'
	printf 'linux /boot/vmlinuz console=ttyS0 panic=-1\ninitrd /boot/initrd.img\n}\n'
} >"$CMP/grub-refused.cfg"
printf '%s\n' "$TPM_STEPS" >"$CMP/steps"
tests/initramfs/mokutil-guest.sh --base "$MOK_WORK/mokutil-guest.img" --steps "$CMP/steps" \
	"$CMP/initrd.img" >/dev/null || die "guest initramfs"

for run in lockshim shim refused-lockshim refused-shim; do
	first=${run#refused-} name=compare-$run cfg=$CMP/grub.cfg predict_refused=()
	if [[ $run == refused-* ]]; then
		cfg=$CMP/grub-refused.cfg predict_refused=(--shim-lock "$CMP/kernel-rogue.efi")
	fi
	debian_chain_boot_entry "$CMP/Boot0001-$first.bin" "${first}x64.efi" >/dev/null || die "Boot0001"
	vars=$(tests/qemu/vars.sh --variant "compare-$first" "${DEBIAN_CHAIN_BOOT_VARS[@]}" "$PKI" | tail -n1)
	[[ -s $vars ]] || die "vars.sh"
	cp "$vars" "$CMP/$name.fd"
	debian_chain_esp "$CMP/$name.img" "${first}x64.efi" "$CMP/${first}x64.efi" "$cfg" \
		"$CMP/kernel-debian.efi" boot/vmlinuz "$CMP/kernel-rogue.efi" boot/vmlinuz-rogue \
		"$CMP/initrd.img" boot/initrd.img || die "ESP"
	# GRUB's "error: bad shim signature" and the prompt after it (which
	# times out) are expected in the refused runs: no stop on them
	stop_error=(--stop '^error: ' --stop 'Press any key')
	[[ $run == refused-* ]] && stop_error=()
	run_qemu --esp "$CMP/$name.img" --vars "$CMP/$name.fd" --log "$BOOT_LOGS/$name.log" --tpm \
		--timeout 180 --stop 'TPM-LOG-END' "${stop_error[@]}" --stop "$QEMU_CRASH"
	rm -f "$CMP/$name.img"
	qemu_outcome "$name"
	sed -n 's/^TPM-B64 //p' "$LOG" | tr -d '\r' | base64 -d >"$BOOT_LOGS/$name.tpmlog" ||
		die "$name: no event log (see $LOG)"
	tpm2_eventlog "$BOOT_LOGS/$name.tpmlog" >"$BOOT_LOGS/$name.yaml" || die "$name: tpm2_eventlog"
	python3 "$TPM_LOG" events "$BOOT_LOGS/$name.tpmlog" >"$BOOT_LOGS/$name.events"
	echo "== $first: PCR 4, 7 and 14 events (PCR TYPE SHA256 EVENT-DATA, data cut at 96 hex digits)"
	awk '$1 == 4 || $1 == 7 || $1 == 14 { print $1, $2, $3, substr($4, 1, 96) }' "$BOOT_LOGS/$name.events"
	echo "== $first: replayed"
	python3 "$TPM_LOG" replay "$BOOT_LOGS/$name.tpmlog" | awk '$1 == 4 || $1 == 7 || $1 == 14'
	tr -d '\r' <"$LOG" | grep -E '^TPM-PCR '
	# lockshim's events over this boot's firmware part: equal under both first stages
	echo "== lockshim pcr --predict over $first's firmware events"
	build/lockshim pcr --predict --event-log "$BOOT_LOGS/$name.tpmlog" \
		--vendor-cert "$DEBIAN_CHAIN_BUILD/vendor.der" --vendor-dbx "$DEBIAN_CHAIN_BUILD/vendor-dbx.esl" \
		"$grub" "${predict_refused[@]}" --shim-lock "$CMP/kernel-debian.efi" \
		--shim-lock "$CMP/kernel-debian.efi"
done

# After the first stage's own event (the firmware's, of two different
# binaries), PCR 4 must hold the same events under both first stages.
after_first_stage() {
	awk '$1 == 4 && $2 == "0x80000003" { if (seen++) print $3 }' "$BOOT_LOGS/compare-$1.events"
}
for run in "" refused-; do
	if [[ $(after_first_stage "${run}lockshim") == "$(after_first_stage "${run}shim")" ]]; then
		echo "== ${run:-plain }boots: PCR 4 after the first stage: the same events under lockshim and shim"
	else
		echo "== ${run:-plain }boots: PCR 4 after the first stage DIFFERS:"
		diff <(after_first_stage "${run}lockshim") <(after_first_stage "${run}shim")
	fi
done
