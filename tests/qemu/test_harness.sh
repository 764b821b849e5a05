#!/usr/bin/env bash
# Self-tests of the harness: a check that must fail does fail, so that a
# scenario cannot pass for the wrong reason. No guest is booted.
#
#   tests/qemu/test_harness.sh [SCENARIO...]     (default: all, in order)
#
#   harness_unreadable_store_fails  expect_var and expect_no_var (mok.sh)
#                               both fail, saying the store cannot be read,
#                               on a VARS file cut short, one of garbage and
#                               a missing one; on the readable store they
#                               were cut from, expect_no_var passes for an
#                               absent variable and expect_var fails for it
#                               as missing
#   harness_missing_input_fails run_qemu with an ESP, a VARS file or the
#                               firmware missing returns 1, leaves no log
#                               of an earlier run under the same name, and
#                               qemu_outcome fails the run
#   harness_empty_fault_sample_fails  faults.sh's sample_choose over calls
#                               that do not hold what a walk's sample must
#                               (a changed fault line, a call no longer
#                               made) fails; over calls that do, it chooses
#                               them (the enrollment walk's: exactly its
#                               sample, lockshim's two writes included)
#   harness_check_predictions_compared  check_boots.py (test_check.sh)
#                               passes a boot that did what the prediction
#                               said, and fails each way one can differ: a
#                               refused kernel predicted to boot, another
#                               reason or list entry, an allowed kernel that
#                               never started, a chain that leaves out a
#                               step the boot recorded (the kernel), an
#                               option the firmware never tried or the
#                               prediction does not name;
#                               mkdmpstore.py --set changes BootOrder
#                               in a store and refuses an authenticated one
#   harness_options_unreadable_store_fails  options_in (boot.sh) fails on
#                               a store cut short, one of garbage, a missing
#                               one and one whose Boot0002 is not a load
#                               option, rather than list no options; on a
#                               readable store it lists each option
#   harness_refusal_is_lockshims_option  expect_lockshim_returned (boot.sh)
#                               passes when the option lockshim ran as came
#                               back with Security Violation, and fails when
#                               it came back Access Denied and only the EFI
#                               Internal Shell tried next says Security
#                               Violation, when it never came back, and
#                               when no option started lockshim
#   harness_guest_unread_variables_fail  expect_guest_read_variables
#                               (mok.sh, what boot_mok checks) fails a log
#                               with MOKUTIL-GUEST-ERROR and one whose guest
#                               began without MOKUTIL-GUEST-EFIVARFS ok, and
#                               passes a guest that read them and a boot
#                               that never reached the guest
#   harness_tables_refusal_long_log  faults.sh's tables_fault_refused finds
#                               the refusal in a log longer than a pipe holds
#                               (leaving early killed the reader's writer,
#                               and pipefail turned the refusal into "the
#                               kernel started": a flake seen in make check),
#                               and still finds a boot that went on
#   harness_firmware_only_tpm_said_fails  run_qemu --firmware-only fails
#                               (status 1) a boot whose log has lockshim
#                               saying anything of a TPM ($TPM_SAID: its
#                               TPM 1.2 is for OVMF's probe alone), and
#                               passes the same boot without that line, and
#                               that line without --firmware-only (a stand-in
#                               QEMU that prints the lines)
#
# A new self-test: a function returning 0 when the harness behaved, added
# to SCENARIOS and described above; its work files in HARNESS_WORK, named
# after it.

# shellcheck source=tests/qemu/mok.sh
. "$(dirname "${BASH_SOURCE[0]}")/mok.sh" # cds to the repository
# shellcheck source=tests/qemu/faults.sh
. tests/qemu/faults.sh # sample_choose

SCENARIOS=(
	harness_unreadable_store_fails
	harness_missing_input_fails
	harness_empty_fault_sample_fails
	harness_check_predictions_compared
	harness_options_unreadable_store_fails
	harness_refusal_is_lockshims_option
	harness_guest_unread_variables_fail
	harness_tables_refusal_long_log
	harness_firmware_only_tpm_said_fails
)

HARNESS_WORK=$QEMU_BUILD/harness

harness_prepare() {
	mkdir -p "$HARNESS_WORK"
}

# fails_with TEXT CMD...: CMD fails, and says TEXT on stderr.
fails_with() {
	local text=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "FAIL: '$*' passed" >&2
		return 1
	fi
	if [[ $out != *"$text"* ]]; then
		echo "FAIL: '$*' failed without saying '$text': $out" >&2
		return 1
	fi
}

harness_unreadable_store_fails() {
	local good=$OVMF_VARS_BLANK dir=$HARNESS_WORK/unreadable-store store
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	# the readable store's first 64 KiB: its headers, part of its variables
	head -c 65536 "$good" >"$dir/cut-short.fd" &&
		head -c "$(stat -c %s "$good")" /dev/zero | tr '\0' 'G' >"$dir/garbage.fd" || return 1
	for store in "$dir/cut-short.fd" "$dir/garbage.fd" "$dir/missing.fd"; do
		fails_with "cannot read the variables of $store" expect_no_var "$store" MokList &&
			fails_with "cannot read the variables of $store" expect_var "$store" MokList ||
			return 1
	done
	expect_no_var "$good" MokList &&
		fails_with "variable MokList missing from $good" expect_var "$good" MokList
}

# A run that cannot start: the log a check would read is not an old one.
harness_missing_input_fails() {
	local log=$HARNESS_WORK/missing.log esp=$HARNESS_WORK/esp.img vars=$HARNESS_WORK/vars.fd
	local which rc failed=0
	: >"$esp"
	cp "$OVMF_VARS_BLANK" "$vars" || return 1
	for which in esp vars firmware; do
		echo 'LOCKSHIM-TEST-MARKER: init reached (an earlier run)' >"$log"
		local -a args=(--esp "$esp" --vars "$vars")
		case $which in
		esp) args=(--esp "$HARNESS_WORK/no-such.img" --vars "$vars") ;;
		vars) args=(--esp "$esp" --vars "$HARNESS_WORK/no-such.fd") ;;
		esac
		if [[ $which == firmware ]]; then
			OVMF_CODE=$HARNESS_WORK/no-such-code.fd run_qemu "${args[@]}" --log "$log" 2>/dev/null
		else
			run_qemu "${args[@]}" --log "$log" 2>/dev/null
		fi
		rc=$?
		if (( rc != 1 )) || [[ $QEMU_OUTCOME != error || -e $log ]]; then
			echo "FAIL: $which missing: run_qemu returned $rc, outcome $QEMU_OUTCOME, log ${log}$([[ -e $log ]] && echo ' left')" >&2
			failed=1
		fi
		fails_with 'FAIL: QEMU did not run' qemu_outcome "$which missing" &&
			fails_with 'no log file' expect_log -F 'LOCKSHIM-TEST-MARKER' || failed=1
	done
	(( failed == 0 ))
}

# _fake_qemu_says LINE...: QEMU, a stand-in that prints each LINE and exits.
_fake_qemu_says() {
	local fake=$HARNESS_WORK/fake-qemu
	printf '#!/bin/sh\nprintf "%%s\\n"' >"$fake"
	printf " '%s'" "$@" >>"$fake"
	chmod +x "$fake"
	QEMU=$fake
}

harness_firmware_only_tpm_said_fails() {
	local log=$HARNESS_WORK/firmware-only.log esp=$HARNESS_WORK/esp.img vars=$HARNESS_WORK/vars.fd
	local refused='BdsDxe: failed to start Boot0000 "lockshim" from x: Security Violation' failed=0 rc
	: >"$esp"
	cp "$OVMF_VARS_BLANK" "$vars" || return 1
	local -a args=(--esp "$esp" --vars "$vars" --log "$log" --timeout 20)
	_fake_qemu_says 'lockshim: TPM: measuring into PCR 4, 7 and 14' "$refused"
	run_qemu "${args[@]}" --firmware-only 2>/dev/null
	rc=$?
	(( rc == 1 )) || { echo "FAIL: --firmware-only, lockshim measuring: run_qemu returned $rc" >&2; failed=1; }
	run_qemu "${args[@]}" 2>/dev/null
	rc=$?
	(( rc == 0 )) || { echo "FAIL: the same boot without --firmware-only: run_qemu returned $rc" >&2; failed=1; }
	_fake_qemu_says 'lockshim: SecureBoot=1 SetupMode=0' "$refused"
	run_qemu "${args[@]}" --firmware-only 2>/dev/null
	rc=$?
	(( rc == 0 )) || { echo "FAIL: --firmware-only, lockshim silent of a TPM: run_qemu returned $rc" >&2; failed=1; }
	(( failed == 0 ))
}

# sample_choose WALK over LISTED: 0 when it chose calls holding all it must.
_choose() {
	local walk=$1; shift
	local -a LISTED=("$@") CALLS_CHOSEN=()
	local CALLS=${#LISTED[@]} SAMPLE=1 FAULTS_MATCH=
	sample_choose "$walk" || return 1
	echo "# $walk: chose calls ${CALLS_CHOSEN[*]}" >&2
}

harness_empty_fault_sample_fails() {
	local failed=0
	# the normal walk's calls as the fault build lists them (faults.sh)
	local -a normal=('2 GetVariable MokList' '3628 AllocatePages runtime' '3635 AllocatePages runtime'
		'3655 ReadFile 8247848' '4339 LoadImage 8247848' '4340 SetVariable MokListRT'
		'4350 SetVariable LoaderInfo')
	_choose normal "${normal[@]}" || failed=1
	fails_with 'the sample has no call /^[0-9]+ SetVariable LoaderInfo$/' \
		_choose normal "${normal[@]:0:6}" || failed=1
	fails_with 'normal: no call to fail' \
		_choose normal '2 GetVariable MokList' '4340 SetVariable MokListRT' || failed=1
	fails_with 'the sample has no call /^[0-9]+ LoadImage( |$)/' _choose normal "${normal[@]:0:4}" || failed=1
	_choose revoked '10 GetVariable SecureBoot' '11 GetVariable dbx' '12 GetVariable MokListX' \
		'13 GetVariable dbx' || failed=1
	# a renamed variable: the sample's pattern would no longer find it
	fails_with 'the sample has no call /GetVariable MokListX$/' \
		_choose revoked '10 GetVariable SecureBoot' '11 GetVariable dbx' '12 GetVariable MokListX2' ||
		failed=1
	fails_with 'db_ignored: no call to fail' _choose db_ignored '7 GetVariable MokDBSTATE' || failed=1
	# the enrollment walk (listed as the fault build lists it; 30 calls in
	# all, so 7 to 30 but the listed ones are allocations): lockshim's
	# SbatLevel and first MokListRT write, every file read and LoadImage,
	# every write of the manager's, and one allocation
	local -a enrollment=('2 GetVariable MokNew' '14 SetVariable SbatLevel' '15 SetVariable SbatLevelRT'
		'16 SetVariable SbatLevelRT' '17 SetVariable MokListRT' '18 SetVariable MokListRT'
		'19 SetVariable MokListXRT' '20 SetVariable MokIgnoreDB' '21 ReadFile 644648'
		'22 LoadImage 644648' '23 SetVariable MokNew' '24 SetVariable MokAuth' '30 SetVariable MokList')
	local chosen
	chosen=$(_choose enrollment "${enrollment[@]}" 2>&1 >/dev/null) || failed=1
	[[ $chosen == *"chose calls 8 14 17 21 22 23 24 30" ]] || {
		echo "FAIL: the enrollment sample: $chosen, not calls 8 14 17 21 22 23 24 30" >&2
		failed=1
	}
	fails_with 'the sample has no call /^[0-9]+ SetVariable MokListRT$/' \
		_choose enrollment "${enrollment[@]:0:4}" "${enrollment[@]:6}" || failed=1
	(( failed == 0 ))
}

# check_prediction OUT BOOTS2 REASON2 ENTRY2: a prediction (JSON; the
# heredoc halves each pair of backslashes) for Boot0001
# (lockshim allows \EFI\lockshim\k.efi by the vendor certificate; it boots)
# and Boot0002 (the same kernel with BOOTS2, REASON2, ENTRY2 from dbx).
check_prediction() {
	local verdict=refused
	[[ $2 == true ]] && verdict=allowed
	local first='{"image": "\\EFI\\lockshim\\lockshimx64.efi", "role": "first stage",
		"verdict": "allowed", "reason": "allowed-cert", "list": "db", "entry": "/CN=test db"}'
	cat >"$1" <<EOF
{"entries": [
 {"option": "Boot0001", "boots": true, "chain": [$first,
  {"image": "\\\\EFI\\\\lockshim\\\\k.efi", "role": "load options", "verdict": "allowed",
   "reason": "allowed-cert", "list": "vendor", "entry": "/CN=test vendor"}]},
 {"option": "Boot0002", "boots": $2, "chain": [$first,
  {"image": "\\\\EFI\\\\lockshim\\\\k.efi", "role": "load options", "verdict": "$verdict",
   "reason": "$3", "list": "dbx", "entry": "$4"}]}]}
EOF
}

harness_check_predictions_compared() {
	local w=$HARNESS_WORK/check k='\EFI\lockshim\k.efi' l='\EFI\lockshim\lockshimx64.efi'
	mkdir -p "$w"
	# the boot: Boot0002's kernel refused by dbx, then Boot0001's allowed and started
	cat >"$w/boot.log" <<EOF
BdsDxe: loading Boot0002 "two" from $l
BdsDxe: starting Boot0002 "two" from $l
lockshim 0.7.0
lockshim: verdict=refused image=$k reason=deny-digest list=dbx entry=ab12
BdsDxe: failed to start Boot0002 "two" from $l: Security Violation
BdsDxe: loading Boot0001 "one" from $l
BdsDxe: starting Boot0001 "one" from $l
lockshim 0.7.0
lockshim: verdict=allowed image=$k reason=allowed-cert list=vendor entry="/CN=test vendor"
[    0.000000] Linux version 6.12.0
EOF
	check_prediction "$w/right.json" false deny-digest ab12 &&
		check_prediction "$w/boots.json" true allowed-cert ab12 &&
		check_prediction "$w/reason.json" false deny-cert ab12 &&
		check_prediction "$w/entry.json" false deny-digest cd34 || return 1
	python3 tests/qemu/check_boots.py "$w/right.json" "$w/boot.log" Boot0002 Boot0001 || return 1
	fails_with 'predicted boots=true, no kernel started (the firmware: Security Violation)' \
		python3 tests/qemu/check_boots.py "$w/boots.json" "$w/boot.log" Boot0002 &&
		fails_with "'reason': 'deny-digest'" \
			python3 tests/qemu/check_boots.py "$w/reason.json" "$w/boot.log" Boot0002 &&
		fails_with "'entry': 'ab12'" \
			python3 tests/qemu/check_boots.py "$w/entry.json" "$w/boot.log" Boot0002 &&
		fails_with 'predicts nothing for it' \
			python3 tests/qemu/check_boots.py "$w/right.json" "$w/boot.log" Boot0003 || return 1
	# a prediction that leaves the kernel out of Boot0001's chain
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["entries"][0]["chain"] = d["entries"][0]["chain"][:1]
json.dump(d, open(sys.argv[2], "w"))' "$w/right.json" "$w/no-kernel-step.json" &&
		fails_with 'the boot recorded allowed \EFI\lockshim\k.efi reason=allowed-cert, a step the prediction leaves out' \
			python3 tests/qemu/check_boots.py "$w/no-kernel-step.json" "$w/boot.log" Boot0001 || return 1
	head -n 5 "$w/boot.log" >"$w/only-two.log"
	grep -v 'Linux version' "$w/boot.log" >"$w/no-kernel.log"
	fails_with 'the firmware never tried it' \
		python3 tests/qemu/check_boots.py "$w/right.json" "$w/only-two.log" Boot0002 Boot0001 || return 1
	fails_with 'predicted boots=true, no kernel started' \
		python3 tests/qemu/check_boots.py "$w/right.json" "$w/no-kernel.log" Boot0001 || return 1

	# mkdmpstore.py --set: a plain variable replaced offline, an authenticated one refused
	cp "$OVMF_VARS_BLANK" "$w/vars.fd" && printf '\x02\x00\x01\x00' >"$w/order.bin" || return 1
	python3 tests/qemu/mkdmpstore.py --set "$w/vars.fd" "BootOrder:$GLOBAL_GUID:0x7=$w/order.bin" &&
		python3 tests/qemu/mkdmpstore.py --check "$w/vars.fd" \
			"BootOrder:$GLOBAL_GUID:0x7=$w/order.bin" >/dev/null &&
		[[ $(python3 tests/qemu/mkdmpstore.py --list "$w/vars.fd" | grep -c '^BootOrder ') == 1 ]] ||
		{ echo "FAIL: mkdmpstore.py --set did not leave exactly the new BootOrder" >&2; return 1; }
	fails_with 'only plain variables' \
		python3 tests/qemu/mkdmpstore.py --set "$w/vars.fd" "dbx:d719b2cb-3d3a-4596-a3bc-dad00e67656f:0x27=$w/order.bin"
}

harness_options_unreadable_store_fails() {
	local dir=$HARNESS_WORK/options store opts
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	cp "$OVMF_VARS_BLANK" "$dir/good.fd" &&
		python3 tests/qemu/mkloadoption.py "$dir/Boot0001.bin" one '\EFI\one\one.efi' &&
		python3 tests/qemu/mkdmpstore.py --set "$dir/good.fd" "Boot0001:$GLOBAL_GUID:0x7=$dir/Boot0001.bin" &&
		head -c 65536 "$dir/good.fd" >"$dir/cut-short.fd" &&
		head -c "$(stat -c %s "$dir/good.fd")" /dev/zero | tr '\0' 'G' >"$dir/garbage.fd" &&
		cp "$dir/good.fd" "$dir/bad-option.fd" && printf 'xx' >"$dir/bad.bin" &&
		python3 tests/qemu/mkdmpstore.py --set "$dir/bad-option.fd" "Boot0002:$GLOBAL_GUID:0x7=$dir/bad.bin" ||
		return 1
	for store in "$dir/cut-short.fd" "$dir/garbage.fd" "$dir/missing.fd"; do
		fails_with "cannot read the boot options of $store" options_in "$store" || return 1
	done
	fails_with "cannot read Boot0002 of $dir/bad-option.fd" options_in "$dir/bad-option.fd" || return 1
	opts=$(options_in "$dir/good.fd") || return 1
	[[ $opts == '0001 attributes 0x1|description one|node File(\EFI\one\one.efi)|data none' ]] ||
		{ echo "FAIL: options_in listed '$opts'" >&2; return 1; }
}

harness_refusal_is_lockshims_option() {
	local dir=$HARNESS_WORK/refusal disk='"UEFI Non-Block Boot Device" from PciRoot(0x0)/Pci(0x1,0x0)'
	local shell='"EFI Internal Shell" from Fv(7CB8BDC9-F8EB-4F34-AAEA-3EE4AF6516A1)/FvFile(7C04A583-9E3E-4F1C-AD65-E05268D0B4D1)'
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	# a refusal as OVMF logs it: lockshim's option back, then the shell's
	# REFUSAL STATUS: the log of a boot whose lockshim returned STATUS
	refusal() {
		printf '%s\n' "BdsDxe: loading Boot0001 $disk" "BdsDxe: starting Boot0001 $disk" \
			'lockshim 0.7.0' 'lockshim: refusing \EFI\BOOT\vmlinuz.efi: image is not signed'
		[[ -z $1 ]] || echo "BdsDxe: failed to start Boot0001 $disk: $1"
		printf '%s\n' "BdsDxe: loading Boot0002 $shell" "BdsDxe: starting Boot0002 $shell" \
			"BdsDxe: failed to start Boot0002 $shell: Security Violation"
	}
	refusal 'Security Violation' >"$dir/refused.log" &&
		refusal 'Access Denied' >"$dir/access-denied.log" &&
		refusal '' >"$dir/never-back.log" &&
		grep -v '^BdsDxe: starting Boot0001' "$dir/refused.log" >"$dir/no-option.log" || return 1
	expect_lockshim_returned 'Security Violation' "$dir/refused.log" &&
		fails_with ': Access Denied (log:' \
			expect_lockshim_returned 'Security Violation' "$dir/access-denied.log" &&
		fails_with 'lockshim ran as Boot0001, which the firmware never said came back' \
			expect_lockshim_returned 'Security Violation' "$dir/never-back.log" &&
		fails_with 'no boot option started lockshim' \
			expect_lockshim_returned 'Security Violation' "$dir/no-option.log"
}

harness_guest_unread_variables_fail() {
	local dir=$HARNESS_WORK/guest
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	printf '%s\n' 'MOKUTIL-GUEST-BEGIN 6.1.0' 'MOKUTIL-GUEST-EFIVARFS ok' 'MOKUTIL-GUEST-DONE' >"$dir/read.log" &&
		printf '%s\n' 'MOKUTIL-GUEST-BEGIN 6.1.0' 'MOKUTIL-GUEST-ERROR mount efivarfs' >"$dir/error.log" &&
		printf '%s\n' 'MOKUTIL-GUEST-BEGIN 6.1.0' 'MOKUTIL-GUEST-DONE' >"$dir/silent.log" &&
		printf '%s\n' 'lockshim: refusing \EFI\lockshim\linux.efi: image is not signed' >"$dir/no-guest.log" ||
		return 1
	expect_guest_read_variables "$dir/read.log" &&
		expect_guest_read_variables "$dir/no-guest.log" &&
		fails_with 'could not read the variables: MOKUTIL-GUEST-ERROR mount efivarfs' \
			expect_guest_read_variables "$dir/error.log" &&
		fails_with 'never said MOKUTIL-GUEST-EFIVARFS ok' expect_guest_read_variables "$dir/silent.log"
}

harness_tables_refusal_long_log() {
	local log=$HARNESS_WORK/tables-refusal.log i
	{
		echo 'fault: failing call 42 (AllocatePages runtime)'
		echo "lockshim: refusing to start anything: the kernel's tables are not installed"
		for (( i = 0; i < 4000; i++ )); do echo "[    0.000000] a later boot's kernel line $i"; done
		echo 'lockshim: booting \EFI\BOOT\vmlinuz.efi: signed by ...'
	} >"$log"
	for i in 1 2 3; do
		tables_fault_refused "$log" 42 ||
			{ echo "FAIL: the refusal of call 42 not found in a $(stat -c %s "$log")-byte log (try $i)" >&2; return 1; }
	done
	sed -i '2d' "$log"
	if tables_fault_refused "$log" 42; then
		echo "FAIL: a boot that went on after call 42 was taken for a refusal" >&2
		return 1
	fi
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main harness_prepare "$@"
fi
