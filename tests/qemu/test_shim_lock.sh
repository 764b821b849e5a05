#!/usr/bin/env bash
# lockshim's SHIM_LOCK protocol called directly, under Secure Boot, by a
# second stage that passes what GRUB and systemd-boot would never pass:
# tests/guest/shim_lock_probe.c, started by lockshim from a boot entry,
#
#   Boot0000 "lockshim"  \EFI\lockshim\lockshimx64.efi  "shim_lock_probe.efi"
#
# and reading its images from \EFI\lockshim\ (all tests/guest/launch.c):
#   probe-signed.efi    with .sbat, signed by the test vendor key
#   probe-nosbat.efi    without .sbat, signed by the test vendor key
#   probe-unsigned.efi  with .sbat, unsigned
#
#   tests/qemu/test_shim_lock.sh [SCENARIO...]     (default: all, in order)
#
#   shim_lock_hostile_inputs   every call's status is the one expected (the
#                              table below), nothing crashes (the probe puts a
#                              page no one can read right after each buffer
#                              whose size it tells truly), the valid image is
#                              allowed, and Context and Hash describe it as its
#                              headers and pesign do
#
# Environment and output as for test_boot.sh.

# shellcheck source=tests/qemu/second_stage.sh
. "$(dirname "${BASH_SOURCE[0]}")/second_stage.sh" # cds to the repository

SCENARIOS=(
	shim_lock_hostile_inputs
)

GUEST=build/guest
SHIM_LOCK_WORK=$BOOT_WORK/shim-lock
SHIM_LOCK_VARS=

# What each call must return: FUNCTION CASE STATUS, where STATUS is the EFI
# status as gnu-efi's %r names it (EFI_SECURITY_VIOLATION is "Security
# Policy Violation" there, "Security Violation" in OVMF's messages), or
# "refused" for any error where the issue asks no particular one.
EXPECTED=(
	"verify valid Success"
	"verify valid_without_sbat Success" # SBAT is optional through the protocol, as in shim
	"verify unsigned Security Policy Violation"
	"verify truncated_dos_header Security Policy Violation"
	"verify truncated_headers Security Policy Violation"
	"verify truncated_half Security Policy Violation"
	"verify truncated_last_byte Security Policy Violation"
	"verify size_zero Security Policy Violation"
	"verify trailing_garbage Security Policy Violation"
	"verify size_beyond_buffer Security Policy Violation"
	"verify null_buffer Invalid Parameter"
	"context null_data Invalid Parameter"
	"context null_context Invalid Parameter"
	"context size_zero Unsupported"
	"context truncated_dos_header Unsupported"
	"context truncated_half Unsupported"
	"context not_pe Unsupported"
	"context valid Success"
	"hash valid Success"
	"hash null_data Invalid Parameter"
	"hash null_context Invalid Parameter"
	"hash null_sha256 Invalid Parameter"
	"hash null_sha1 Invalid Parameter"
	"hash truncated_half refused"
	"hash size_zero refused"
	"hash negative_size refused"
)

shim_lock_prepare() {
	second_stage_prepare "$SHIM_LOCK_WORK" || return 0
	local w=$SHIM_LOCK_WORK
	_prep "guest programs (tests/guest/build.sh)" tests/guest/build.sh "$GUEST" &&
		_prep "probe with .sbat" build/lockshim add-sbat tests/guest/sbat.csv \
			"$GUEST/shim_lock_probe.efi" "$w/probe-sbat.efi" &&
		_prep "vendor-signed probe" sign_efi vendor "$w/probe-sbat.efi" "$w/shim_lock_probe.efi" &&
		_prep "image with .sbat" build/lockshim add-sbat tests/guest/sbat.csv \
			"$GUEST/launch.efi" "$w/probe-unsigned.efi" &&
		_prep "vendor-signed image" sign_efi vendor "$w/probe-unsigned.efi" "$w/probe-signed.efi" &&
		_prep "vendor-signed image without .sbat" sign_efi vendor "$GUEST/launch.efi" \
			"$w/probe-nosbat.efi" ||
		return 0
	SHIM_LOCK_VARS=$(second_stage_vars shim-lock shim_lock_probe.efi 2>>"$PREP_LOG") ||
		PREP_ERROR="VARS with the probe's boot entry failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

# shimlock_status FUNCTION CASE: the status of the probe's one line for it.
shimlock_status() {
	local lines
	lines=$(LC_ALL=C grep -E "^SHIMLOCK $1 $2 status=" "$LOG")
	if [[ $(wc -l <<<"$lines") != 1 || -z $lines ]]; then
		echo "FAIL: expected one 'SHIMLOCK $1 $2' line, found: ${lines:-none}" >&2
		return 1
	fi
	sed -E 's/^[^=]*status=//; s/ [a-z_0-9]+=.*//' <<<"$lines"
}

# pe_field FILE OFFSET BYTES: the little-endian number at OFFSET, in hex.
pe_field() {
	printf '0x%x' "$(od -An -t "u$3" -j "$2" -N "$3" "$1" | tr -d ' ')"
}

# The probe's Context line for IMAGE, from IMAGE's own headers (PE32+):
# what shim 16.1's read_header fills (image_type: the subsystem, which shim
# leaves unset), the pointers as offsets into IMAGE, and nothing written
# past the struct.
expected_context() {
	local img=$1 pe opt
	pe=$(( $(pe_field "$img" 60 4) )) opt=$(( pe + 24 ))
	printf 'SHIMLOCK context valid status=Success image_address=%s image_size=%s ' \
		"$(pe_field "$img" $(( opt + 24 )) 8)" "$(pe_field "$img" $(( opt + 56 )) 4)"
	printf 'entry_point=%s size_of_headers=%s image_type=%d number_of_sections=%d ' \
		"$(pe_field "$img" $(( opt + 16 )) 4)" "$(pe_field "$img" $(( opt + 60 )) 4)" \
		"$(pe_field "$img" $(( opt + 68 )) 2)" "$(pe_field "$img" $(( pe + 6 )) 2)"
	printf 'section_alignment=%s first_section=+0x%x ' \
		"$(pe_field "$img" $(( opt + 32 )) 4)" $(( opt + $(pe_field "$img" $(( pe + 20 )) 2) ))
	# the data directories start 112 bytes into the optional header; 8 bytes each
	printf 'reloc_dir=+0x%x sec_dir=+0x%x number_of_rva_and_sizes=%d ' \
		$(( opt + 112 + 5 * 8 )) $(( opt + 112 + 4 * 8 )) "$(pe_field "$img" $(( opt + 108 )) 4)"
	printf 'dll_characteristics=%s pe_header=+0x%x canary=intact\n' \
		"$(pe_field "$img" $(( opt + 70 )) 2)" "$pe"
}

shim_lock_hostile_inputs() {
	local w=$SHIM_LOCK_WORK
	second_stage_boot "${FUNCNAME[0]}" "$SHIM_LOCK_VARS" 0.5 'SHIMLOCK done' 'No bootable option' -- \
		"$w/shim_lock_probe.efi" EFI/lockshim/shim_lock_probe.efi \
		"$w/probe-signed.efi" EFI/lockshim/probe-signed.efi \
		"$w/probe-nosbat.efi" EFI/lockshim/probe-nosbat.efi \
		"$w/probe-unsigned.efi" EFI/lockshim/probe-unsigned.efi || return 1
	expect_log -F 'BdsDxe: starting Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi' &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F 'lockshim: booting \EFI\lockshim\shim_lock_probe.efi: signed by /CN=lockshim test vendor' &&
		expect_log -F 'SHIMLOCK protocol status=Success' &&
		expect_log -F 'SHIMLOCK guard status=Success' &&
		expect_log -F 'SHIMLOCK done status=Success' || return 1

	# every check runs, so that one failure does not hide the others
	local entry fn case want got failed=0
	for entry in "${EXPECTED[@]}"; do
		read -r fn case want <<<"$entry"
		got=$(shimlock_status "$fn" "$case") || { failed=1; continue; }
		if [[ $want == refused && $got != Success ]] || [[ $got == "$want" ]]; then
			echo "# $fn $case: $got" >&2
		else
			echo "FAIL: $fn $case: expected $want, got $got" >&2
			failed=1
		fi
	done

	# lockshim's verdicts, in the loader's words
	local vendor='signed by /CN=lockshim test vendor, trusted through vendor certificate /CN=lockshim test vendor'
	local from='lockshim: %s image from the second stage (%d bytes): %s'
	# shellcheck disable=SC2059 # $from is the format
	expect_log -F "$(printf "$from" allowing "$(stat -c %s "$w/probe-signed.efi")" "$vendor")" || failed=1
	# shellcheck disable=SC2059
	expect_log -F "$(printf "$from" allowing "$(stat -c %s "$w/probe-nosbat.efi")" "$vendor")" || failed=1
	# shellcheck disable=SC2059
	expect_log -F "$(printf "$from" refusing "$(stat -c %s "$w/probe-unsigned.efi")" 'image is not signed')" ||
		failed=1

	# Hash as pesign computes the Authenticode digests; Context as the headers say
	local sha256 sha1
	sha256=$(pesign -h -d sha256 -i "$w/probe-signed.efi" | sed -n 's/^hash: //p')
	sha1=$(pesign -h -d sha1 -i "$w/probe-signed.efi" | sed -n 's/^hash: //p')
	expect_log -F "SHIMLOCK hash valid status=Success sha256=$sha256 sha1=$sha1" || failed=1
	expect_log -F "$(expected_context "$w/probe-signed.efi")" || failed=1
	expect_no_log -F 'canary=overwritten' || failed=1
	(( failed == 0 ))
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main shim_lock_prepare "$@"
fi
