#!/usr/bin/env bash
# The differential test's sample (tests/differential/: `make differential`
# runs as many generated states as asked): each state of the run
# DIFF_SAMPLE_SEED below is booted in QEMU through lockshim, Debian's GRUB
# and systemd-boot, and answered by `lockshim check --json`; the two must
# agree option by option (tests/differential/diffstate.py compare), or
# differ exactly as tests/differential/sample.differences lists.
#
#   tests/qemu/test_differential.sh [SCENARIO...]
#
#   differential_sample_N   state N of the sample: no difference but the
#                           listed ones (a listed one that is gone fails
#                           too), and the boot tried at least one of the
#                           state's options and compared at least one of
#                           lockshim's verdicts or the firmware's
#
# Files: build/qemu/differential/sample/N (state.json, boot.log,
# check.json, result.json).

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/qemu/lib.sh
. tests/qemu/scenario.sh
. tests/qemu/debian-chain.sh
. tests/differential/lib.sh

QEMU_MEMORY=512
# a seed whose first states boot a kernel through GRUB, through systemd-boot,
# and refuse at each stage
DIFF_SAMPLE_SEED=1005
DIFF_SAMPLE_N=4
SCENARIOS=()
for (( i = 0; i < DIFF_SAMPLE_N; i++ )); do
	SCENARIOS+=("differential_sample_$i")
	eval "differential_sample_$i() { differential_sample $i; }"
done

# differential_sample N: state N of the sample, against the list.
differential_sample() {
	local d=$DIFF_WORK/sample/$1 id=$DIFF_SAMPLE_SEED-$1 st
	rm -rf "$d" && mkdir -p "$d" &&
		python3 "$DIFF_PY" generate "$DIFF_SAMPLE_SEED" "$1" "$d/state.json" || return 1
	diff_run_state "$d" "$d/state.json" >&2
	st=$?
	LOG=$d/boot.log
	(( st < 2 )) || { echo "FAIL: state $id could not be run" >&2; return 1; }
	python3 - "$d/result.json" "$id" tests/differential/sample.differences <<'PY' >&2
import json, sys
result, sid, listed = json.load(open(sys.argv[1])), sys.argv[2], {}
for line in open(sys.argv[3]):
    if line.strip() and not line.startswith("#"):
        name, classes = line.split()
        listed[name] = set(classes.split(","))
want = listed.get(sid, set())
have = {d["class"] for d in result["disagreements"]}
ok = True
if not [t for t in result["tried"] if t["desc"] != "EFI Internal Shell"]:
    print(f"FAIL: {sid}: the firmware tried none of the state's options")
    ok = False
if not result["verdicts_compared"] and not any(t["failed"] for t in result["tried"]):
    print(f"FAIL: {sid}: the comparison saw no verdict of lockshim's or the firmware's")
    ok = False
if have != want:
    print(f"FAIL: {sid}: differences {sorted(have) or 'none'}, listed {sorted(want) or 'none'}")
    for d in result["disagreements"]:
        print(f"  [{d['class']}] {d['what']}")
    ok = False
print(f"# {sid}: booted {result['booted']}, check exit status {result['check_rc']}, "
      f"compared {result['verdicts_compared']}")
sys.exit(0 if ok else 1)
PY
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main diff_prepare "$@"
fi
