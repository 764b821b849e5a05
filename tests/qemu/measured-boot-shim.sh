#!/usr/bin/env bash
# The same boot measured twice, for comparing lockshim's events with
# rhboot/shim 16.1's (docs/measured-boot.md): Debian's chain
# (tests/qemu/debian-chain.sh), Secure Boot on, swtpm attached, first stage
# lockshim (Debian's vendor certificate) and then Debian's shim 16.1
# (shim-unsigned, signed with the test db key as make bench does), each
# starting Debian's signed GRUB, which boots Debian's signed kernel with a
# mokutil guest that prints the event log (measured.sh's shim_compare_*).
# Then the same twice more with a grub.cfg that first asks about a
# rogue-signed kernel (refused under both; shim's Verify measures it before
# it decides) and then boots Debian's: the PCR 4 events after the first
# stage's must be the same under both.
#
#   tests/qemu/measured-boot-shim.sh     prints both logs' PCR 4, 7 and 14 events,
#                                        the PCRs, and lockshim's prediction over
#                                        each boot's firmware events
#
# Not a test: a comparison for people (and the note of issue 16); the test
# of the same claim, with the two refused boots, is test_measured_boot.sh
# tpm_grub_refused_as_shim. Logs: build/qemu/logs/compare-{,refused-}{lockshim,shim}.*

# shellcheck source=tests/qemu/measured.sh
. "$(dirname "${BASH_SOURCE[0]}")/measured.sh" # cds to the repository
set -uo pipefail

die() { echo "measured-boot-shim.sh: $*" >&2; exit 1; }
measured_prepare
[[ -z $PREP_ERROR ]] || die "$PREP_ERROR"
[[ -z $SHIM_CMP_ERROR ]] || die "$SHIM_CMP_ERROR"

for run in lockshim shim refused-lockshim refused-shim; do
	first=${run#refused-} name=compare-$run cfg=plain predict_refused=()
	if [[ $run == refused-* ]]; then
		cfg=refused predict_refused=(--shim-lock "$SHIM_CMP/kernel-rogue.efi")
	fi
	shim_compare_boot "$name" "$first" "$cfg" || die "$name: the boot failed (see $LOG)"
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
		"$SHIM_CMP_GRUB" "${predict_refused[@]}" --shim-lock "$SHIM_CMP/kernel-debian.efi" \
		--shim-lock "$SHIM_CMP/kernel-debian.efi"
done

# After the first stage's own event (the firmware's, of two different
# binaries), PCR 4 must hold the same events under both first stages.
for run in "" refused-; do
	if [[ $(shim_compare_after_first_stage "compare-${run}lockshim") == \
		"$(shim_compare_after_first_stage "compare-${run}shim")" ]]; then
		echo "== ${run:-plain }boots: PCR 4 after the first stage: the same events under lockshim and shim"
	else
		echo "== ${run:-plain }boots: PCR 4 after the first stage DIFFERS:"
		diff <(shim_compare_after_first_stage "compare-${run}lockshim") \
			<(shim_compare_after_first_stage "compare-${run}shim")
	fi
done
