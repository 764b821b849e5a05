#!/usr/bin/env bash
# Self-tests of the harness: a check that must fail does fail, so that a
# scenario cannot pass for the wrong reason. No QEMU.
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
#
# A new self-test: a function returning 0 when the harness behaved, added
# to SCENARIOS and described above; its work files in HARNESS_WORK, named
# after it.

# shellcheck source=tests/qemu/mok.sh
. "$(dirname "${BASH_SOURCE[0]}")/mok.sh" # cds to the repository

SCENARIOS=(
	harness_unreadable_store_fails
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

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main harness_prepare "$@"
fi
