# shellcheck shell=bash disable=SC1007
# The scenario side of the QEMU tests. Every tests/qemu/test_*.sh defines
# its scenarios as functions (each returns 0 when it passed), lists them in
# the array SCENARIOS, sources only libraries (lib.sh, this file, boot.sh,
# mok.sh, policy.sh, lockdown.sh, second_stage.sh, debian-chain.sh: never
# another test file) and ends with
#
#   scenario_main PREPARE "$@"
#
# tests/qemu/run schedules the scenarios of every file together; a file run
# by itself hands its scenarios to it:
#
#   tests/qemu/test_boot.sh [SCENARIO...]   = tests/qemu/run (those | the file's)
#
# What tests/qemu/run calls (one process each):
#   FILE --list            the file's scenarios, one per line
#   FILE --prepare-id      PREPARE and the file that defines it: files whose
#                          PREPARE is the same library function (the five
#                          test_lockdown_*.sh) prepare once
#   FILE --prepare ENV     runs PREPARE once and writes the variables it set
#                          (the paths, VARS stores and PREP_ERROR /
#                          LOCKSHIM_MISSING the scenarios read) to ENV
#   FILE --run ENV NAME    reads ENV and runs scenario NAME
#
# PREPARE builds what the file's scenarios share (images, initramfs, VARS
# files) and sets the variables they read; when it cannot, it sets
# PREP_ERROR (or LOCKSHIM_MISSING) and every scenario fails with that
# message instead of running. Nothing shared is built after PREPARE: the
# scenarios may run at the same time, in any order.
#
# A scenario runs in a process of its own (so none sees what another
# changed) and ends with `ok - NAME (T s, QEMU Q s)` or `not ok - NAME
# (T s)`, after its diagnostics; a failure also names the scenario's last
# serial log and shows its tail, unless a check already did.
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
	if [[ -n ${QEMU_BOOTS_LOG:-} ]]; then
		_children_cpu
		echo "cpu $name: ${secs}s, QEMU ${QEMU_SECONDS}s; CPU: QEMU ${QEMU_CPU:-0}s, all $(awk -v a="$SELF_CPU" -v b="$CHILD_CPU" 'BEGIN { printf "%.1f", a + b }')s" >>"$QEMU_BOOTS_LOG"
	fi
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

# Variables that are the shell's, never a preparation's (and BASH*).
_SCENARIO_SHELL_VARS=" DIRSTACK GROUPS HISTCMD \
EPOCHREALTIME EPOCHSECONDS FUNCNAME LINENO PIPESTATUS RANDOM SECONDS SRANDOM _ \
OLDPWD PWD COLUMNS LINES BASH_REMATCH OPTIND OPTARG "

# _scenario_prepare_env PREPARE ENV: run PREPARE and write to ENV, as
# global declarations, every variable it set or changed (its own locals
# are named __sp_*).
_scenario_prepare_env() {
	local __sp_prepare=$1 __sp_env=$2 __sp_name __sp_now __sp_t0
	local -A __sp_before=()
	for __sp_name in $(compgen -v); do
		__sp_before[$__sp_name]=$(declare -p "$__sp_name" 2>/dev/null)
	done
	__sp_t0=$(date +%s.%N)
	"$__sp_prepare"
	echo "# $__sp_prepare: $(_elapsed "$__sp_t0")s" >&2
	mkdir -p "$(dirname "$__sp_env")"
	for __sp_name in $(compgen -v); do
		[[ $_SCENARIO_SHELL_VARS == *" $__sp_name "* || $__sp_name == __sp_* || $__sp_name == BASH* ]] && continue
		__sp_now=$(declare -p "$__sp_name" 2>/dev/null) || continue
		[[ $__sp_now != "${__sp_before[$__sp_name]-}" ]] || continue
		[[ $__sp_now =~ ^declare\ -([a-zA-Z-]*)\  && ${BASH_REMATCH[1]} != *r* ]] || continue
		printf '%s\n' "${__sp_now/#declare -/declare -g -}"
	done >"$__sp_env.$$" && mv "$__sp_env.$$" "$__sp_env"
}

scenario_main() {
	local prepare=$1; shift
	case ${1:-} in
	--list)
		printf '%s\n' "${SCENARIOS[@]}"
		return 0 ;;
	--prepare-id)
		# where PREPARE is defined: files whose preparation is the same
		# library function share one run of it
		shopt -s extdebug
		local where
		where=$(declare -F "$prepare" | cut -d' ' -f3-)
		shopt -u extdebug
		if [[ $(realpath "$where") == $(realpath "$0") ]]; then
			echo "$prepare@$(realpath "$0")"
		else
			echo "$prepare@$(realpath "$where")"
		fi
		return 0 ;;
	--prepare)
		_scenario_prepare_env "$prepare" "$2"
		return 0 ;;
	--run)
		local env=$2 name=$3
		if [[ " ${SCENARIOS[*]} " != *" $name "* ]] || ! declare -F "$name" >/dev/null; then
			echo "$(basename "$0"): unknown scenario $name (have: ${SCENARIOS[*]})" >&2
			return 2
		fi
		# shellcheck disable=SC1090  # what --prepare wrote
		. "$env" || { echo "not ok - $name (no preparation: $env)"; return 1; }
		_scenario_run "$name"
		return ;;
	esac
	local -a which=("$@")
	(( ${#which[@]} )) || which=("$(basename "$0")")
	exec "$LOCKSHIM_ROOT/tests/qemu/run" "${which[@]}"
}
