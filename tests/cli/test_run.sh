#!/usr/bin/env bash
# The runner counts what it should (tests/run.sh's header): run on fixture
# programs in a temporary directory (UNIT_TEST_DIR, and CLI_TESTS for the
# scripts, so it runs none of this tree's tests), a run passes only when
# every check ran and passed: an `ok ... # SKIP` line, an empty or missing
# unit-test directory, a program that exits non-zero without a `not ok`
# line, one that exits 0 printing no result line each fail it; plain ok lines pass; and the last line is exactly
# `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fixture NAME BODY: an executable unit-test program printing BODY (printf format)
# and exiting with the status in $status (0 by default).
fixture() {
	local dir=$tmp/$1
	mkdir -p "$dir"
	printf '#!/bin/sh\nprintf %q\nexit %d\n' "$2" "${status:-0}" >"$dir/test_fixture"
	chmod +x "$dir/test_fixture"
}

status=0 fixture pass 'ok - one\nok - two\n'
status=0 fixture skip 'ok - one\nok - two # SKIP not observable here\n'
status=0 fixture skip_lower 'ok - one #skip why\n'
status=3 fixture crash 'ok - one\n'
status=1 fixture fail 'ok - one\nnot ok - two\n'
status=0 fixture silent 'libc: 9680 passed, 0 failed\n'
printf 'echo "all good"\n' >"$tmp/silent.sh"
mkdir -p "$tmp/empty"
printf 'echo "ok - a script"\n' >"$tmp/script.sh"

# run_case NAME WANT_RC WANT_LAST UNIT_DIR [CLI_TESTS]: tests/run.sh --unit-only
# on the fixtures exits WANT_RC with the last line WANT_LAST.
run_case() {
	local name=$1 want_rc=$2 want_last=$3 out rc last
	out=$(UNIT_TEST_DIR=$4 CLI_TESTS=${5:-} bash tests/run.sh --unit-only 2>&1)
	rc=$?
	last=$(tail -n 1 <<<"$out")
	if [[ $rc -eq $want_rc && $last == "$want_last" ]]; then
		ok "run.sh: $name: exit $want_rc, \"$want_last\""
	else
		not_ok "run.sh: $name: exit $rc, last line \"$last\"; wanted exit $want_rc, \"$want_last\""
		sed 's/^/# /' <<<"$out"
	fi
}

run_case "ok lines pass" 0 "2 passed, 0 failed" "$tmp/pass"
run_case "ok lines and a script's pass" 0 "3 passed, 0 failed" "$tmp/pass" "$tmp/script.sh"
run_case "an ok line with a SKIP directive fails the run" 1 "1 passed, 1 failed" "$tmp/skip"
run_case "an ok line with a lower-case skip directive fails the run" 1 "0 passed, 1 failed" "$tmp/skip_lower"
run_case "an empty unit-test directory fails the run" 1 "0 passed, 1 failed" "$tmp/empty"
run_case "an empty unit-test directory fails even when scripts pass" 1 "1 passed, 1 failed" \
	"$tmp/empty" "$tmp/script.sh"
run_case "a missing unit-test directory fails the run" 1 "0 passed, 1 failed" "$tmp/missing"
run_case "a non-zero exit without not ok fails the run" 1 "1 passed, 1 failed" "$tmp/crash"
run_case "a not ok line fails the run once" 1 "1 passed, 1 failed" "$tmp/fail"
run_case "a program printing no result line and exiting 0 fails the run" 1 "0 passed, 1 failed" \
	"$tmp/silent"
run_case "a script printing no result line and exiting 0 fails the run" 1 "2 passed, 1 failed" \
	"$tmp/pass" "$tmp/silent.sh"

# What a skip is reported as: a failure, and why.
out=$(UNIT_TEST_DIR=$tmp/skip CLI_TESTS='' bash tests/run.sh --unit-only 2>&1)
if [[ $out == *"not ok - $tmp/skip/test_fixture: skipped, and a check that could not run is not a pass: ok - two # SKIP not observable here"* ]]; then
	ok "run.sh: a skip is reported as a failure, with the line"
else
	not_ok "run.sh: a skip is reported as a failure, with the line"
	sed 's/^/# /' <<<"$out"
fi
exit $failed
