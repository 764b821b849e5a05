#!/usr/bin/env bash
# Run one fuzzer for a while (what `make fuzz` does for each target):
#
#   tests/fuzz/run-fuzzer.sh FUZZ_DIR TARGET
#
# FUZZ_DIR/TARGET runs for FUZZ_SECONDS over FUZZ_DIR/corpus/TARGET, a
# working copy seeded from tests/fuzz/corpus/TARGET (the committed corpus is
# never written); it keeps what earlier runs added. Crash reproducers go to
# FUZZ_DIR/artifacts/TARGET/, the whole output to FUZZ_DIR/TARGET.log.
# Prints one summary line from libFuzzer's final stats; on a crash, also the
# reproducer and the sanitizer report (rerun with full stack unwinding), and
# exits 1.
set -uo pipefail

[[ $# -eq 2 ]] || { echo "usage: $0 FUZZ_DIR TARGET" >&2; exit 2; }
dir=$1 target=$2
bin=$dir/$target
seeds=tests/fuzz/corpus/$target
corpus=$dir/corpus/$target
artifacts=$dir/artifacts/$target
log=$dir/$target.log
seconds=${FUZZ_SECONDS:-60}

[[ -x $bin ]] || { echo "$target: $bin not built (make fuzz-build)"; exit 1; }
mkdir -p "$corpus" "$artifacts"
[[ -d $seeds ]] && find "$seeds" -maxdepth 1 -type f -exec cp -f {} "$corpus"/ \;

case $target in
fuzz_pe | fuzz_verify) dict=tests/fuzz/pe.dict ;;
fuzz_esl) dict=tests/fuzz/esl.dict ;;
fuzz_sbat) dict=tests/fuzz/sbat.dict ;;
*) dict= ;;
esac

echo "== $target: ${seconds}s over $corpus ($(ls "$corpus" | wc -l) inputs)"
# shellcheck disable=SC2086 # FUZZ_FLAGS is a list of flags
"$bin" "$corpus" -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-65536}" \
	-timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
	-print_final_stats=1 -artifact_prefix="$artifacts/" ${dict:+-dict="$dict"} \
	${FUZZ_FLAGS:-} >"$log" 2>&1
rc=$?

final_stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
printf '%s: %s executions, %s exec/s, cov: %s ft: %s, corpus %s (+%s new), peak RSS %s MB\n' \
	"$target" "$(final_stat number_of_executed_units)" "$(final_stat average_exec_per_sec)" \
	"${cov:-?}" "${ft:-?}" "${corp:-?}" "$(final_stat new_units_added)" "$(final_stat peak_rss_mb)"

if (( rc != 0 )); then
	echo "$target: FAILED (exit status $rc); full output in $log"
	artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
	report=$log
	if [[ -n $artifact && -f $artifact ]]; then
		echo "  reproducer: $artifact ($(stat -c %s "$artifact") bytes)"
		# again, unwinding through the uninstrumented libcrypto for whole stacks
		report=$dir/$target.repro.log
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 \
			"$bin" "$artifact" >"$report" 2>&1
	fi
	echo "  ---- report ----"
	awk '/^==[0-9]+==ERROR|runtime error|broken promise|ERROR: libFuzzer/ { p = 1 } p' "$report" |
		grep -Ev '^INFO:|^$| in fuzzer::| in (main|_start|__libc_start[a-z_]*) ' |
		sed -e 's/ (BuildId: [0-9a-f]*)//' -e 's/^/  /' | head -120
	echo "  reproduce: $bin $artifact"
	exit 1
fi
echo "$target: ok"
