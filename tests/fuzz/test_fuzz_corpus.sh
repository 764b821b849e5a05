#!/usr/bin/env bash
# Regression: each fuzzer runs once over every file of its committed corpus
# (tests/fuzz/corpus/<target>/), which must neither crash nor leak. One TAP
# line per target, as tests/run.sh counts them:
#
#   tests/fuzz/test_fuzz_corpus.sh [TARGET...]     (default: all of them)
#
# The fuzzers are built by `make fuzz-build` into $BUILD/fuzz/ (BUILD=build).
set -uo pipefail
cd "$(dirname "$0")/../.."

BUILD=${BUILD:-build}
targets=("$@")
(( ${#targets[@]} )) || targets=(fuzz_pe fuzz_esl fuzz_verify fuzz_sbat fuzz_tcg_log fuzz_check fuzz_boot_record fuzz_fallback)
failed=0

for t in "${targets[@]}"; do
	bin=$BUILD/fuzz/$t
	corpus=tests/fuzz/corpus/$t
	if [[ ! -x $bin ]]; then
		echo "not ok - fuzz corpus: $t ($bin missing: make fuzz-build)"
		failed=1
		continue
	fi
	shopt -s nullglob
	files=("$corpus"/*)
	shopt -u nullglob
	if (( ${#files[@]} == 0 )); then
		echo "not ok - fuzz corpus: $t (no files in $corpus)"
		failed=1
		continue
	fi
	log=$(mktemp)
	# slow unwinding: whole stacks through the uninstrumented libcrypto
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0 \
		"$bin" -timeout=10 -rss_limit_mb=2048 "${files[@]}" >"$log" 2>&1
	rc=$?
	ran=$(grep -c '^Executed ' "$log")
	if (( rc == 0 && ran == ${#files[@]} )); then
		echo "ok - fuzz corpus: $t (${#files[@]} inputs)"
	else
		echo "not ok - fuzz corpus: $t (exit status $rc, $ran of ${#files[@]} inputs ran)"
		grep -E '^Running: ' "$log" | tail -1 | sed 's/^/# /'
		awk '/^==[0-9]+==ERROR|runtime error|broken promise/ { p = 1 } p' "$log" | head -60 | sed 's/^/# /'
		failed=1
	fi
	rm -f "$log"
done
exit $failed
