#!/usr/bin/env bash
# What lockshim offers a second stage, under Secure Boot: its SHIM_LOCK
# protocol called directly with what GRUB and systemd-boot would never pass,
# and the firmware's LoadImage as lockshim's security override decides it.
# The second stage is tests/guest/shim_lock_probe.c, started by lockshim from
# a boot entry,
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
#   load_image_by_policy       the probe, started with "load-image", calls the
#                              firmware's LoadImage (never SHIM_LOCK) on
#                              tests/guest/load_marker.c signed five ways, with
#                              MokList (the test MOK key), MokListX (the
#                              Authenticode SHA-256 of loadimage-db-mokx.efi)
#                              and a SbatLevel revoking lockshim-test-revoked 1:
#                                loadimage-mok.efi (MOK only)        loads, runs
#                                loadimage-db-mokx.efi (db, MokListX) Access Denied
#                                loadimage-unsigned.efi              Access Denied
#                                loadimage-vendor-nosbat.efi         loads, runs
#                                loadimage-db-sbat-revoked.efi (db)  Access Denied
#                              each with lockshim's verdict; the unsigned
#                              marker as a buffer named by loadimage-mok.efi's
#                              path, and by a path with no file: Access Denied
#                              (the buffer is what is decided); buffers with
#                              no device path at all: the unsigned marker
#                              Access Denied with lockshim's verdict on "an
#                              image of the second stage", the MOK-signed
#                              one loaded and run; UiApp from the
#                              firmware's volume: the firmware's answer
#                              (Success), no verdict of lockshim's; and in the same
#                              boot, before lockshim, the firmware alone (boot
#                              entries Boot0001, Boot0002) refuses the MOK one
#                              and starts loadimage-db-mokx.efi: what loads
#                              above is lockshim's policy, not db's
#   load_image_security_alone  the same LoadImage cases on firmware made to
#                              look older than PI 1.2.1 (launch.efi
#                              security=alone: no Security2, its calls go to
#                              Security with the path alone, whose EDK2
#                              handlers check nothing): lockshim hooks
#                              LoadImage and gives the same answers, the
#                              buffers under other names included
#
# Environment and output as for test_boot.sh.

# shellcheck source=tests/qemu/second_stage.sh
. "$(dirname "${BASH_SOURCE[0]}")/second_stage.sh" # cds to the repository

# GRUB or systemd-boot holds the kernel and its initrd while the kernel
# decompresses itself: more memory than the default (lib.sh).
QEMU_MEMORY=512

SCENARIOS=(
	shim_lock_hostile_inputs
	load_image_by_policy
	load_image_security_alone
)

GUEST=build/guest
SHIM_LOCK_WORK=$BOOT_WORK/shim-lock
SHIM_LOCK_VARS=
LOAD_IMAGE_VARS=
SECURITY_ALONE_VARS=
LOAD_IMAGE_DIR='\EFI\lockshim'
# The SbatLevel of load_image_by_policy: newer than lockshim's own (so it is
# the one in force), revoking only the component of loadimage-db-sbat-revoked.efi.
LOAD_IMAGE_SBAT_LEVEL=$'sbat,1,2099010100\nlockshim-test-revoked,2\n'

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
		{ PREP_ERROR="VARS with the probe's boot entry failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	load_image_prepare
}

# marker_sbat COMPONENT OUT: load_marker.efi, unsigned, with a .sbat of
# tests/guest/sbat.csv's sbat line and COMPONENT at generation 1 in a package
# named after OUT: no two such images share an Authenticode digest (MokListX
# must name one image only).
marker_sbat() {
	local package
	package=$(basename "$2" .efi)
	{
		head -n 1 tests/guest/sbat.csv
		echo "$1,1,lockshim developers,$package,0.1,https://lockshim.invalid/"
	} >"$2.csv" &&
		build/lockshim add-sbat "$2.csv" "$GUEST/load_marker.efi" "$2"
}

load_image_prepare() {
	local w=$SHIM_LOCK_WORK hash
	printf '%s' "$LOAD_IMAGE_SBAT_LEVEL" >"$w/level-revoked.csv"
	_prep "marker with .sbat" marker_sbat lockshim-test "$w/mok.efi" &&
		_prep "MOK-signed marker" sign_efi mok "$w/mok.efi" "$w/loadimage-mok.efi" &&
		_prep "marker with .sbat" marker_sbat lockshim-test "$w/db-mokx.efi" &&
		_prep "db-signed marker" sign_efi db "$w/db-mokx.efi" "$w/loadimage-db-mokx.efi" &&
		_prep "unsigned marker" marker_sbat lockshim-test "$w/loadimage-unsigned.efi" &&
		_prep "vendor-signed marker without .sbat" sign_efi vendor "$GUEST/load_marker.efi" \
			"$w/loadimage-vendor-nosbat.efi" &&
		_prep "marker with a revoked .sbat" marker_sbat lockshim-test-revoked "$w/db-sbat-revoked.efi" &&
		_prep "db-signed marker with a revoked .sbat" sign_efi db \
			"$w/db-sbat-revoked.efi" "$w/loadimage-db-sbat-revoked.efi" ||
		return 0
	# the digest lockshim computes (its host CLI, the same code) is the one MokListX holds
	if ! hash=$(build/lockshim hash "$w/loadimage-db-mokx.efi" 2>>"$PREP_LOG"); then
		PREP_ERROR="build/lockshim hash $w/loadimage-db-mokx.efi failed (make build/lockshim?)"
		return 0
	fi
	_prep "MokListX (tests/cli/mkesl.py)" python3 tests/cli/mkesl.py SHA256 "$w/mokx.esl" "$hash" ||
		return 0
	LOAD_IMAGE_VARS=$(second_stage_vars \
		--before 'firmware alone: loadimage-mok' "$LOAD_IMAGE_DIR\loadimage-mok.efi" \
		--before 'firmware alone: loadimage-db-mokx' "$LOAD_IMAGE_DIR\loadimage-db-mokx.efi" \
		load-image 'shim_lock_probe.efi load-image' \
		"MokList:$SHIM_GUID:0x3:$PKI/mok.esl" \
		"MokListX:$SHIM_GUID:0x3:$w/mokx.esl" \
		"SbatLevel:$SHIM_GUID:0x3:$w/level-revoked.csv" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="VARS for load_image_by_policy failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	# launch.efi (db-signed) first: it hides Security2, then starts lockshim
	printf '%s\n' 'image=\EFI\lockshim\lockshimx64.efi' 'options=shim_lock_probe.efi load-image' \
		'security=alone' >"$w/launch.cfg"
	_prep "db-signed launch.efi" sign_efi db "$GUEST/launch.efi" "$w/launch-db.efi" || return 0
	SECURITY_ALONE_VARS=$(second_stage_vars \
		--before 'security alone' '\EFI\BOOT\launch.efi' \
		load-image-security-alone 'shim_lock_probe.efi load-image' \
		"MokList:$SHIM_GUID:0x3:$PKI/mok.esl" \
		"MokListX:$SHIM_GUID:0x3:$w/mokx.esl" \
		"SbatLevel:$SHIM_GUID:0x3:$w/level-revoked.csv" 2>>"$PREP_LOG") ||
		PREP_ERROR="VARS for load_image_security_alone failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
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

# What each LoadImage case must get: CASE FILE STATUS VERDICT, where VERDICT
# is lockshim's, after "lockshim: loading PATH: " or "lockshim: refusing PATH: ".
LOAD_IMAGE_EXPECTED=(
	"mok_signed|loadimage-mok.efi|Success|loading|signed by /CN=lockshim test mok, trusted through MokList certificate /CN=lockshim test mok"
	"db_signed_hash_in_moklistx|loadimage-db-mokx.efi|Access Denied|refusing|image SHA-256 digest is in MokListX"
	"unsigned|loadimage-unsigned.efi|Access Denied|refusing|image is not signed"
	"vendor_signed_without_sbat|loadimage-vendor-nosbat.efi|Success|loading|signed by /CN=lockshim test vendor, trusted through vendor certificate /CN=lockshim test vendor"
	"db_signed_sbat_revoked|loadimage-db-sbat-revoked.efi|Access Denied|refusing|SBAT revokes component lockshim-test-revoked generation 1 (SbatLevel 2099010100 requires 2)"
)

# lockshim_verdict VERB FILE: lockshim's one line about FILE in the probe's
# directory, from its security override, which names the file by its device
# path (the device nodes are the firmware's: any).
lockshim_verdict() {
	local lines
	lines=$(LC_ALL=C grep -E "^lockshim: $1 [^ ]*/\\\\EFI\\\\lockshim\\\\$2: " "$LOG")
	if [[ $(wc -l <<<"$lines") != 1 || -z $lines ]]; then
		printf "FAIL: expected one 'lockshim: %s ...%s\\%s' line, found: %s\n" \
			"$1" "$LOAD_IMAGE_DIR" "$2" "${lines:-none}" >&2
		return 1
	fi
	echo "$lines"
}

# The images each LoadImage scenario puts beside the probe.
LOAD_IMAGE_ESP=()
for f in shim_lock_probe loadimage-mok loadimage-db-mokx loadimage-unsigned \
	loadimage-vendor-nosbat loadimage-db-sbat-revoked; do
	LOAD_IMAGE_ESP+=("$SHIM_LOCK_WORK/$f.efi" "EFI/lockshim/$f.efi")
done

# check_load_image_cases: the probe's LoadImage cases in $LOG, each with the
# status and lockshim's verdict LOAD_IMAGE_EXPECTED gives it, then the
# buffers named by other paths and the firmware's own application.
check_load_image_cases() {
	local failed=0
	expect_log -F 'lockshim: booting \EFI\lockshim\shim_lock_probe.efi: signed by /CN=lockshim test vendor' &&
		expect_log -F 'SHIMLOCK probe started: load-image' &&
		expect_log -F 'SHIMLOCK done status=Success' || return 1
	# LoadImage alone, never SHIM_LOCK: lockshim's verdicts come from its override
	expect_no_log -F 'SHIMLOCK protocol' && expect_no_log -F 'image from the second stage' || failed=1

	local entry case file want verb verdict got line marker runs
	for entry in "${LOAD_IMAGE_EXPECTED[@]}"; do
		IFS='|' read -r case file want verb verdict <<<"$entry"
		echo "# loadimage $case: expecting $want, lockshim $verb: $verdict" >&2
		got=$(shimlock_status loadimage "$case") || { failed=1; continue; }
		if [[ $got != "$want" ]]; then
			echo "FAIL: loadimage $case: expected $want, got $got" >&2
			failed=1
		fi
		line=$(lockshim_verdict "$verb" "$file") || { failed=1; continue; }
		if [[ ${line#*"$file: "} != "$verdict" ]]; then
			echo "FAIL: expected lockshim to say '$verdict', it said: $line" >&2
			failed=1
		fi
		expect_order -F "$line" "SHIMLOCK loadimage $case " || failed=1
		# the image ran under the probe (its marker) exactly when it loaded
		marker="LOADMARKER running $LOAD_IMAGE_DIR\\$file"
		runs=$(sed -n '/^SHIMLOCK probe started/,$p' "$LOG" | LC_ALL=C grep -c -F "$marker")
		if [[ $want == Success ]]; then
			if (( runs != 1 )); then
				echo "FAIL: $file loaded, and ran $runs times under the probe, not once" >&2
				failed=1
			fi
			expect_order -F "SHIMLOCK loadimage $case " "$marker" &&
				expect_log -F "SHIMLOCK startimage $case status=Aborted" &&
				expect_order -F "$marker" "SHIMLOCK startimage $case " || failed=1
		else
			if (( runs != 0 )); then
				echo "FAIL: $file refused, yet it ran $runs times under the probe" >&2
				failed=1
			fi
			expect_log -F "SHIMLOCK loadimage $case status=$want handle=none" &&
				expect_no_log -F "SHIMLOCK startimage $case " || failed=1
		fi
	done

	# a buffer is decided as what it is, whatever its path names
	for case in unsigned_buffer_named_mok_signed:loadimage-mok.efi \
		unsigned_buffer_named_missing:no-such-image.efi; do
		expect_log -F "SHIMLOCK loadimage ${case%%:*} status=Access Denied handle=none" &&
			expect_no_log -F "SHIMLOCK startimage ${case%%:*} " || failed=1
		line=$(lockshim_verdict refusing "${case#*:}") &&
			[[ ${line#*"${case#*:}: "} == 'image is not signed' ]] &&
			expect_order -F "$line" "SHIMLOCK loadimage ${case%%:*} " || failed=1
	done
	# A buffer with no device path (LoadImage(FALSE, parent, NULL, buffer,
	# size)): Security2 is shown no file, yet the buffer is verified. The
	# unsigned marker is refused with lockshim's verdict and never runs; the
	# MOK-signed one loads and runs: the verifier decided, not a refusal of
	# every nameless buffer. (Under Security alone, load_image_hook verifies
	# it: the firmware asks no handler about an image without a path.)
	local nameless='an image of the second stage'
	expect_log -F 'SHIMLOCK loadimage unsigned_buffer_without_path status=Access Denied handle=none' &&
		expect_no_log -F 'SHIMLOCK startimage unsigned_buffer_without_path ' &&
		expect_log -F "lockshim: refusing $nameless: image is not signed" &&
		expect_log -F "lockshim: verdict=refused image=\"$nameless\" reason=not-signed" &&
		expect_order -F 'SHIMLOCK loadimage unsigned_buffer_named_missing ' \
			"lockshim: refusing $nameless: image is not signed" &&
		expect_order -F "lockshim: refusing $nameless: image is not signed" \
			'SHIMLOCK loadimage unsigned_buffer_without_path ' || failed=1
	local mok_verdict='signed by /CN=lockshim test mok, trusted through MokList certificate /CN=lockshim test mok'
	marker='LOADMARKER running (unknown path)'
	runs=$(LC_ALL=C grep -c -F "$marker" "$LOG")
	if (( runs != 1 )); then
		echo "FAIL: buffers without a path ran $runs times under the probe, not once (the MOK-signed one)" >&2
		failed=1
	fi
	expect_log -F 'SHIMLOCK loadimage mok_signed_buffer_without_path status=Success' &&
		expect_order -F 'SHIMLOCK loadimage unsigned_buffer_without_path ' \
			"lockshim: loading $nameless: $mok_verdict" &&
		expect_order -F "lockshim: loading $nameless: $mok_verdict" \
			'SHIMLOCK loadimage mok_signed_buffer_without_path status=Success' &&
		expect_order -F 'SHIMLOCK loadimage mok_signed_buffer_without_path ' "$marker" &&
		expect_order -F "$marker" 'SHIMLOCK startimage mok_signed_buffer_without_path status=Aborted' ||
		failed=1
	# the firmware's own application: the firmware's answer, not lockshim's
	expect_log -F 'SHIMLOCK loadimage firmware_volume_app status=Success' &&
		expect_no_log 'lockshim: (loading|refusing) .*FvFile' || failed=1
	(( failed == 0 ))
}

load_image_by_policy() {
	second_stage_boot "${FUNCNAME[0]}" "$LOAD_IMAGE_VARS" 0.5 'SHIMLOCK done' 'No bootable option' -- \
		"${LOAD_IMAGE_ESP[@]}" || return 1
	local failed=0

	# the firmware alone, before lockshim: db refuses the MOK-signed image and
	# starts the db-signed one (its marker returns Aborted)
	expect_log -F 'BdsDxe: failed to load Boot0001 "firmware alone: loadimage-mok" from \EFI\lockshim\loadimage-mok.efi: Access Denied' &&
		expect_log -F 'BdsDxe: starting Boot0002 "firmware alone: loadimage-db-mokx" from \EFI\lockshim\loadimage-db-mokx.efi' &&
		expect_log -F 'BdsDxe: failed to start Boot0002 "firmware alone: loadimage-db-mokx" from \EFI\lockshim\loadimage-db-mokx.efi: Aborted' &&
		expect_order -F 'LOADMARKER running \EFI\lockshim\loadimage-db-mokx.efi' 'lockshim: SecureBoot=1 SetupMode=0' ||
		failed=1
	expect_log -F 'BdsDxe: starting Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi' &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' || return 1
	check_load_image_cases || failed=1
	(( failed == 0 ))
}

# Firmware with Security alone: lockshim's LoadImage hook reads, verifies
# and hands over each image (efi_security_override.c load_image_hook).
load_image_security_alone() {
	local w=$SHIM_LOCK_WORK
	second_stage_boot "${FUNCNAME[0]}" "$SECURITY_ALONE_VARS" 0.5 'SHIMLOCK done' 'No bootable option' -- \
		"${LOAD_IMAGE_ESP[@]}" "$w/launch-db.efi" EFI/BOOT/launch.efi \
		"$w/launch.cfg" EFI/BOOT/launch.cfg || return 1
	expect_log -F 'BdsDxe: starting Boot0001 "security alone" from \EFI\BOOT\launch.efi' &&
		expect_log -F 'launch: Security2 uninstalled, its calls go to Security: Success' &&
		expect_order -F 'launch: Security2 uninstalled' 'lockshim: SecureBoot=1 SetupMode=0' &&
		check_load_image_cases
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main shim_lock_prepare "$@"
fi
