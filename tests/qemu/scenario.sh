# shellcheck shell=bash disable=SC1007
# The scenario runner of the QEMU tests. Every tests/qemu/test_*.sh defines
# its scenarios as functions (each returns 0 when it passed), lists them in
# the array SCENARIOS and ends with
#
#   scenario_main PREPARE "$@"
#
# scenario_main PREPARE [SCENARIO...]
#     Checks the names (default: all of SCENARIOS, in that order), prints the
#     plan line `1..N`, runs PREPARE once, in this shell, then the scenarios.
#     PREPARE builds what several scenarios share (images, initramfs, VARS
#     files) and sets the globals they read; when it cannot, it sets
#     PREP_ERROR (or LOCKSHIM_MISSING) and every scenario fails with that
#     message instead of running. Nothing shared is built after PREPARE:
#     the scenarios may run at the same time.
#
#     Each scenario runs in a subshell of its own (so none sees what another
#     changed) and ends with `ok - NAME (T s, QEMU Q s)` or `not ok - NAME
#     (T s)`, after its diagnostics; a failure also names the scenario's last
#     serial log and shows its tail, unless a check already did.
#
#     LOCKSHIM_JOBS scenarios run at a time (default 2: a QEMU TCG guest
#     keeps one core busy, and the machines have two). With more than one,
#     each scenario's output (stdout and stderr in the order written) is
#     held back until it has finished and every scenario listed before it
#     has been shown, then shown whole: the output reads as a serial run's,
#     in list order. They start longest first, by the times of the last
#     such run (build/qemu/times/<test file>). LOCKSHIM_JOBS=1 runs them
#     one after another, in list order, with their output live, as a
#     developer may want.
#     Returns 1 when any scenario failed, 2 for an unknown name.
#
# run_scenario NAME
#     One scenario, in the foreground, output live (demo.sh uses it).
#
# _prep WHAT CMD...
#     A step of a PREPARE function: runs CMD, its output dropped but its
#     stderr added to PREP_LOG (the preparation's log, set by PREPARE); when
#     it fails, sets PREP_ERROR to "WHAT failed: " and the last lines of
#     PREP_LOG, and returns 1.
#
# Scenarios must not write what another scenario reads: a writable VARS
# file, an ESP image or a work file is named after its scenario.

LOCKSHIM_JOBS=${LOCKSHIM_JOBS:-2}
PREP_ERROR= PREP_LOG=/dev/null

_prep() {
	local what=$1; shift
	if ! "$@" >/dev/null 2>>"$PREP_LOG"; then
		PREP_ERROR="$what failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
		return 1
	fi
}

# _elapsed T0: seconds since T0 (date +%s.%N), one decimal.
_elapsed() {
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}

# _scenario_run NAME: run the scenario and print its result line. Meant
# for a subshell: what the scenario changes dies with it.
_scenario_run() {
	local name=$1 t0 rc secs
	local blocker=${PREP_ERROR:-${LOCKSHIM_MISSING:-}}
	if [[ -n $blocker ]]; then
		echo "# $name: $blocker" >&2
		echo "not ok - $name (setup failed)"
		return 1
	fi
	QEMU_SECONDS=0.0 LOG= LOG_TAIL_SHOWN=
	t0=$(date +%s.%N)
	"$name"
	rc=$?
	secs=$(_elapsed "$t0")
	if (( rc == 0 )); then
		echo "ok - $name (${secs}s, QEMU ${QEMU_SECONDS}s)"
		return 0
	fi
	echo "# $name: failed; last serial log: ${LOG:-none}" >&2
	if [[ -n $LOG && -f $LOG && $LOG_TAIL_SHOWN != "$LOG" ]]; then
		_log_tail "$LOG"
	fi
	echo "not ok - $name (${secs}s)"
	return 1
}

run_scenario() {
	( _scenario_run "$1" )
}

SCENARIO_PASSED=0 SCENARIO_FAILED=0

_scenario_count() {
	if (( $1 == 0 )); then
		SCENARIO_PASSED=$(( SCENARIO_PASSED + 1 ))
	else
		SCENARIO_FAILED=$(( SCENARIO_FAILED + 1 ))
	fi
}

# _scenario_order NAME...: their indices, the longest first by the times
# of the last run in SCENARIO_TIMES (a scenario without one first): what
# runs last is then short, and a file does not end with one long scenario
# running alone while the other core idles.
_scenario_order() {
	local -A secs=()
	local name t i
	if [[ -f $SCENARIO_TIMES ]]; then
		while read -r name t; do secs[$name]=$t; done <"$SCENARIO_TIMES"
	fi
	for (( i = 1; i <= $#; i++ )); do
		echo "${secs[${!i}]:-999999} $(( i - 1 ))"
	done | sort -k1,1nr -k2,2n | cut -d' ' -f2
}

# _scenario_times_save NAME=SECONDS...: merge these into SCENARIO_TIMES.
_scenario_times_save() {
	local -A secs=()
	local name t kv
	mkdir -p "$(dirname "$SCENARIO_TIMES")"
	if [[ -f $SCENARIO_TIMES ]]; then
		while read -r name t; do secs[$name]=$t; done <"$SCENARIO_TIMES"
	fi
	for kv in "$@"; do secs[${kv%=*}]=${kv#*=}; done
	for name in "${!secs[@]}"; do echo "$name ${secs[$name]}"; done |
		sort >"$SCENARIO_TIMES.$$" && mv "$SCENARIO_TIMES.$$" "$SCENARIO_TIMES"
}

# _scenario_pool NAME...: run them LOCKSHIM_JOBS at a time, longest first,
# each one's output into a file of its own, shown whole and in list order.
_scenario_pool() {
	local -a names=("$@") order=() pids=() status=() started=() times=()
	local buf k next=0 shown=0 running=0
	mapfile -t order < <(_scenario_order "${names[@]}")
	buf=$(mktemp -d "${TMPDIR:-/tmp}/lockshim-scenarios.XXXXXX") || return 1
	# Background subshells ignore SIGINT (no job control): on Ctrl-C or
	# TERM, stop them here; each takes its QEMU down (run_qemu's trap).
	# shellcheck disable=SC2064  # $buf now, the PIDs when it fires
	trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait; rm -rf "'"$buf"'"; exit 130' INT TERM
	while (( shown < ${#names[@]} )); do
		while (( running < LOCKSHIM_JOBS && next < ${#names[@]} )); do
			k=${order[next]}
			( _scenario_run "${names[k]}" ) >"$buf/$k" 2>&1 &
			pids[k]=$! started[k]=${EPOCHREALTIME/./}
			next=$(( next + 1 )) running=$(( running + 1 ))
		done
		# Poll: `wait -n` would miss a scenario that ended before it
		# was called (no job control here), and leave its slot idle.
		sleep 0.2
		for k in "${!pids[@]}"; do
			[[ -z ${status[k]:-} ]] || continue # counted already
			! kill -0 "${pids[k]}" 2>/dev/null || continue # still running
			wait "${pids[k]}"
			status[k]=$?
			times+=("${names[k]}=$(( (${EPOCHREALTIME/./} - started[k]) / 1000000 ))")
			running=$(( running - 1 ))
		done
		while [[ -n ${status[shown]:-} ]]; do
			cat "$buf/$shown"
			_scenario_count "${status[shown]}"
			shown=$(( shown + 1 ))
		done
	done
	trap - INT TERM
	rm -rf "$buf"
	_scenario_times_save "${times[@]}"
}

scenario_main() {
	local prepare=$1; shift
	local -a which=("$@")
	(( ${#which[@]} )) || which=("${SCENARIOS[@]}")
	local s
	for s in "${which[@]}"; do
		if ! declare -F "$s" >/dev/null || [[ " ${SCENARIOS[*]} " != *" $s "* ]]; then
			echo "$(basename "$0"): unknown scenario $s (have: ${SCENARIOS[*]})" >&2
			return 2
		fi
	done
	if [[ ! $LOCKSHIM_JOBS =~ ^[1-9][0-9]*$ ]]; then
		echo "$(basename "$0"): LOCKSHIM_JOBS=$LOCKSHIM_JOBS is not a positive number" >&2
		return 2
	fi
	SCENARIO_TIMES=$QEMU_BUILD/times/$(basename "$0" .sh)
	echo "1..${#which[@]}"
	local t0
	t0=$(date +%s.%N)
	"$prepare"
	echo "# $prepare: $(_elapsed "$t0")s" >&2
	if (( LOCKSHIM_JOBS == 1 )); then
		for s in "${which[@]}"; do
			run_scenario "$s"
			_scenario_count $?
		done
	else
		_scenario_pool "${which[@]}"
	fi
	(( SCENARIO_FAILED == 0 ))
}
