#!/usr/bin/env bash
# lockshim's test runner (what `make check` runs):
#
#   tests/run.sh [--unit-only | --qemu-only]
#
# 1. Every executable in build/tests/ (unit tests, built by make; another
#    directory with UNIT_TEST_DIR=...; none there is a failure: nothing was
#    checked), every tests/cli/test_*.sh and tests/fuzz/test_*.sh (the
#    fuzzers over their committed corpus; other scripts, or none when set
#    empty, with CLI_TESTS="a.sh b.sh": tests/cli/test_run.sh runs this
#    runner on fixtures that way), then
# 2. tests/qemu/run: the QEMU scenarios of every tests/qemu/test_*.sh,
#    scheduled together, LOCKSHIM_JOBS QEMU guests at a time (default: one
#    a core), the longest first; each one's output shown whole. Their
#    preparation runs beside step 1 (tests/qemu/run --prepare-only).
#
# Counting: each program prints TAP-ish lines, `ok - NAME` / `not ok - NAME`,
# and every such line counts as one pass or one failure; but an `ok` line
# with a SKIP directive (`ok - NAME # SKIP why`) counts as a failure: a
# check that could not run is not a pass. A program that exits
# non-zero without printing a `not ok` line (a crash, a sanitizer report, a
# setup error) adds one failure under its own name, and so does one that
# exits 0 without any ok/not ok line (it checked nothing). Output is shown
# as it comes. The run ends with the slowest programs, the wall time and
# then exactly the line
#   N passed, N failed
# and exits 1 if anything failed (or nothing ran at all). A whole run also
# leaves the figures in build/check.json (make bench reports them), its
# wall time counted from $CHECK_STARTED (seconds since the epoch; make check
# sets it before it builds) when that is set.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
. tests/debian-python.sh

unit=1 qemu=1
case ${1:-} in
--unit-only) qemu=0 ;;
--qemu-only) unit=0 ;;
"") ;;
*) echo "usage: tests/run.sh [--unit-only | --qemu-only]" >&2; exit 2 ;;
esac

unit_dir=${UNIT_TEST_DIR:-build/tests}
passed=0 failed=0
declare -a failures=() durations=()
start=$(date +%s.%N)

# run_one LABEL CMD...: run a test program, echo its output, count its lines.
run_one() {
	local label=$1; shift
	local out rc p=0 f=0 line t0=$SECONDS
	out=$(mktemp)
	echo "== $label"
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	durations+=("$(( SECONDS - t0 )) $label")
	while IFS= read -r line; do
		case $line in
		"not ok "*) f=$(( f + 1 )); failures+=("$label: ${line#not ok }") ;;
		"ok "*"# "[Ss][Kk][Ii][Pp]* | "ok "*"#"[Ss][Kk][Ii][Pp]*)
			echo "not ok - $label: skipped, and a check that could not run is not a pass: $line"
			f=$(( f + 1 )); failures+=("$label: skipped: ${line#ok }") ;;
		"ok "*) p=$(( p + 1 )) ;;
		esac
	done <"$out"
	rm -f "$out"
	if (( rc != 0 && f == 0 )); then
		echo "not ok - $label (exit status $rc, no failing test reported)"
		f=1; failures+=("$label: exit status $rc")
	elif (( p == 0 && f == 0 )); then
		echo "not ok - $label (exit status 0, but no ok or not ok line: nothing was checked)"
		f=1; failures+=("$label: no result line")
	fi
	passed=$(( passed + p )) failed=$(( failed + f ))
}

# The QEMU scenarios' preparation (signing, VARS stores, ESP images: one
# core, mostly) runs beside the unit tests; its output is shown after them.
prep_pid=
if (( unit && qemu )); then
	rm -rf build/qemu/prepared
	mkdir -p build/qemu
	tests/qemu/run --prepare-only >build/qemu/prepare.log 2>&1 &
	prep_pid=$!
fi

if (( unit )); then
	shopt -s nullglob
	bins=()
	for b in "$unit_dir"/*; do
		[[ -f $b && -x $b ]] && bins+=("$b")
	done
	if (( ${#bins[@]} == 0 )); then
		echo "not ok - unit tests: none found in $unit_dir/ (run make first)"
		failed=$(( failed + 1 )); failures+=("unit tests: none found in $unit_dir/")
	fi
	for b in "${bins[@]}"; do
		run_one "$b" "$b"
	done
	read -ra scripts <<<"${CLI_TESTS-$(echo tests/cli/test_*.sh tests/fuzz/test_*.sh)}"
	for t in "${scripts[@]}"; do
		run_one "$t" bash "$t"
	done
fi

if (( qemu )); then
	if [[ -n $prep_pid ]]; then
		wait "$prep_pid"
		echo "== tests/qemu/run --prepare-only (beside the unit tests)"
		cat build/qemu/prepare.log
		export QEMU_PREPARED=1
	fi
	run_one tests/qemu/run tests/qemu/run
fi

end=$(date +%s.%N)
echo
if (( ${#failures[@]} )); then
	echo "Failures:"
	printf '  %s\n' "${failures[@]}"
fi
# Where the time went: the slowest programs (the budget is make check's).
echo "Slowest:"
printf '%s\n' "${durations[@]}" | sort -rn | head -n 8 | awk '{ printf "  %4ds %s\n", $1, $2 }'
awk -v a="$start" -v b="$end" 'BEGIN { s = b - a; printf "Wall time: %dm%04.1fs\n", s / 60, s - 60 * int(s / 60) }'
if (( unit && qemu )); then
	awk -v a="${CHECK_STARTED:-$start}" -v b="$end" -v p="$passed" -v f="$failed" -v d="$(date -u +%FT%TZ)" \
		'BEGIN { printf "{\"passed\": %d, \"failed\": %d, \"seconds\": %.1f, \"finished\": \"%s\"}\n", p, f, b - a, d }' \
		>build/check.json
fi
echo "$passed passed, $failed failed"
(( failed == 0 && passed > 0 ))
