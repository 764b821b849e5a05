#!/usr/bin/env bash
# The harness's own rules, each shown to fail what it must fail (no guest
# is booted): a check that could pass without testing anything is a check
# of nothing.
#
#   harness_missing_input_fails    run_qemu with an ESP, a VARS file or the
#                                  firmware missing returns 1, leaves no log
#                                  of an earlier run under the same name,
#                                  and qemu_outcome fails the run
#   harness_empty_fault_sample_fails  faults.sh's sample_choose over calls
#                                  that do not hold what a walk's sample
#                                  must (a changed fault line, a call no
#                                  longer made) fails; over a boot's calls
#                                  that do, it chooses them

# shellcheck source=tests/qemu/faults.sh
. "$(dirname "${BASH_SOURCE[0]}")/faults.sh" # cds to the repository

SCENARIOS=(
	harness_missing_input_fails
	harness_empty_fault_sample_fails
)

HARNESS_WORK=$QEMU_BUILD/harness

harness_prepare() {
	mkdir -p "$HARNESS_WORK"
}

# expect_fails WHAT CMD...: CMD must fail; its stderr is shown as diagnostics.
expect_fails() {
	local what=$1; shift
	if "$@" 2> >(sed 's/^/#   /' >&2); then
		echo "FAIL: $what passed" >&2
		return 1
	fi
	echo "# $what: failed, as it must" >&2
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
		expect_fails "qemu_outcome after a run without its $which" qemu_outcome "$which missing" || failed=1
		expect_fails "expect_log of the marker after a run without its $which" \
			expect_log -F 'LOCKSHIM-TEST-MARKER' || failed=1
	done
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
		'3655 ReadFile 8247848' '4339 LoadImage 8247848' '4340 SetVariable MokListRT')
	_choose normal "${normal[@]}" || failed=1
	expect_fails "the normal sample without any call it fails" \
		_choose normal '2 GetVariable MokList' '4340 SetVariable MokListRT' || failed=1
	expect_fails "the normal sample without its LoadImage" _choose normal "${normal[@]:0:4}" || failed=1
	_choose revoked '10 GetVariable SecureBoot' '11 GetVariable dbx' '12 GetVariable MokListX' \
		'13 GetVariable dbx' || failed=1
	# a renamed variable: the sample's pattern would no longer find it
	expect_fails "the revoked sample with MokListX read under another name" \
		_choose revoked '10 GetVariable SecureBoot' '11 GetVariable dbx' '12 GetVariable MokListX2' ||
		failed=1
	expect_fails "the db_ignored sample without a MokDBState read" \
		_choose db_ignored '7 GetVariable MokDBSTATE' || failed=1
	(( failed == 0 ))
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main harness_prepare "$@"
fi
