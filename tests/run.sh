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
#    a core), the longest first; each one's output shown whole. They run
#    beside step 1, after their preparation (tests/qemu/run
#    --prepare-only): their output is shown once step 1 is done.
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
	local out rc t0=$SECONDS
	out=$(mktemp)
	echo "== $label"
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	count_output "$label" "$out" "$rc" $(( SECONDS - t0 ))
	rm -f "$out"
}

# count_output LABEL OUT RC SECONDS: count a finished program's lines (its
# output in the file OUT, already shown) and its exit status RC.
count_output() {
	local label=$1 out=$2 rc=$3 p=0 f=0 line
	durations+=("$4 $label")
	while IFS= read -r line; do
		case $line in
		"not ok "*) f=$(( f + 1 )); failures+=("$label: ${line#not ok }") ;;
		"ok "*"# "[Ss][Kk][Ii][Pp]* | "ok "*"#"[Ss][Kk][Ii][Pp]*)
			echo "not ok - $label: skipped, and a check that could not run is not a pass: $line"
			f=$(( f + 1 )); failures+=("$label: skipped: ${line#ok }") ;;
		"ok "*) p=$(( p + 1 )) ;;
		esac
	done <"$out"
	if (( rc != 0 && f == 0 )); then
		echo "not ok - $label (exit status $rc, no failing test reported)"
		f=1; failures+=("$label: exit status $rc")
	elif (( p == 0 && f == 0 )); then
		echo "not ok - $label (exit status 0, but no ok or not ok line: nothing was checked)"
		f=1; failures+=("$label: no result line")
	fi
	passed=$(( passed + p )) failed=$(( failed + f ))
}

# The QEMU scenarios start beside the unit and CLI tests: first their
# preparation (signing, VARS stores, ESP images: one core, mostly), then,
# as soon as it is done, the scenarios themselves, so that no core waits
# for the other kind of test to end. Their output is shown after the unit
# and CLI tests', then followed as it comes; only the scenarios' lines
# (build/qemu/run.log) count.
qemu_pid=
if (( unit && qemu )); then
	rm -rf build/qemu/prepared build/qemu/run.log build/qemu/run.rc
	mkdir -p build/qemu
	{
		echo "== tests/qemu/run --prepare-only (beside the unit tests)"
		tests/qemu/run --prepare-only 2>&1
		echo "== tests/qemu/run (beside the unit tests, once prepared)"
		t0=$SECONDS
		QEMU_PREPARED=1 tests/qemu/run 2>&1 | tee build/qemu/run.log
		echo "${PIPESTATUS[0]} $(( SECONDS - t0 ))" >build/qemu/run.rc
	} >build/qemu/suite.log 2>&1 &
	qemu_pid=$!
	# an interrupted run takes its QEMU guests with it
	trap 'trap - INT TERM; kill 0' INT TERM
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
	if [[ -n $qemu_pid ]]; then
		tail -n +1 -f --pid="$qemu_pid" build/qemu/suite.log
		wait "$qemu_pid"
		# no run.rc: the suite did not finish, a failure of its own
		read -r qemu_rc qemu_seconds <build/qemu/run.rc 2>/dev/null || qemu_rc=1 qemu_seconds=0
		touch build/qemu/run.log
		count_output tests/qemu/run build/qemu/run.log "$qemu_rc" "$qemu_seconds"
	else
		run_one tests/qemu/run tests/qemu/run
	fi
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
