#!/usr/bin/env bash
# The JSON contract (docs/json.md, docs/lockshim.schema.json): every document
# `lockshim ... --json` prints in the CLI tests is valid against the schema.
#
# The CLI tests that use --json run again in a mount namespace where
# build/lockshim and build/lockshim-san are a wrapper that keeps the stdout
# of each run with --json as build/json-schema-test/log/SUBCOMMAND-*.json
# (the CLI reads no variable for it; nothing outside the namespace sees the
# wrapper). Then each kept document, and those of targeted runs here (verify, pcr
# --predict, status, check, and an exit 2 of each with --json), must be its
# subcommand's document or the error object (tests/json_schema_check.py),
# each subcommand must have been seen, the schema's reason codes must be
# src/core/verdict_reason.c's names, and the checker must refuse documents
# made wrong on purpose (a self-test: it can fail).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
schema=docs/lockshim.schema.json
checker="python3 tests/json_schema_check.py $schema"
work=$BUILD/json-schema-test
log=$work/log

[[ -x $cli && -x $BUILD/lockshim-san ]] || { not_ok "json: $cli or lockshim-san missing (run make)"; exit 1; }
python3 -c 'import jsonschema' 2>/dev/null ||
	{ not_ok "json: python3-jsonschema is not installed (scripts/bootstrap.sh)"; exit 1; }
rm -rf "$work" && mkdir -p "$log" "$work/self"

# ---- the reason codes: the schema's are the C code's ----------------------------
$checker reasons src/core/verdict_reason.h src/core/verdict_reason.c &&
	ok "json: the schema's reason codes are verdict_reason.c's" ||
	not_ok "json: the schema's reason codes differ from verdict_reason.c's"

# ---- the checker refuses what is wrong ------------------------------------------
doc='{"schema": 1, "lockshim_version": "v", "image": "x.efi", "verdict": "refused",
 "reason": "not-signed", "list": null, "entry": null, "message": "image is not signed"}'
echo "$doc" >"$work/self/verify-good.json"
$checker documents "$work/self/verify-good.json" >/dev/null &&
	ok "json: self-test: a valid verify document passes" ||
	not_ok "json: self-test: a valid verify document is refused"
# each a wrong document: the old shape, a reason C does not name, "" for none,
# a field the schema does not name, a verdict of a word no verdict has, no schema
bad=(
	'{"image": "x.efi", "allowed": false, "list": null, "entry": null, "message": "m", "reason": "not-signed"}'
	"${doc/not-signed/not-signed-at-all}"
	"${doc/\"list\": null/\"list\": \"\"}"
	"${doc/\"image\"/\"extra\": 1, \"image\"}"
	"${doc/\"refused\"/\"denied\"}"
	"${doc/\"schema\": 1, /}"
)
for i in "${!bad[@]}"; do
	echo "${bad[i]}" >"$work/self/verify-bad$i.json"
	if $checker documents "$work/self/verify-bad$i.json" >"$work/self/bad$i.out"; then
		not_ok "json: self-test: wrong document $i passes (${bad[i]})"
	else
		ok "json: self-test: wrong document $i is refused ($(head -1 "$work/self/bad$i.out" | cut -c1-120))"
	fi
done
echo '{"schema": 1, "lockshim_version": "v", "error": {"code": "usage"}}' >"$work/self/check-error.json"
! $checker documents "$work/self/check-error.json" >/dev/null &&
	ok "json: self-test: an error object without its message is refused" ||
	not_ok "json: self-test: an error object without its message passes"

# ---- the CLI tests, their --json runs kept -------------------------------------
# In a mount namespace of their own, build/lockshim and build/lockshim-san are
# a wrapper (bind-mounted over them) that runs a copy of the binary and keeps
# its stdout when --json is among its options; nothing outside sees it.
# as a make inside the tests (tests/sbat-previous.sh) would build them, so that
# it does not link them anew over the wrapper (another WERROR= would)
make -s BUILD="$BUILD" "$BUILD/lockshim" "$BUILD/lockshim-san" >"$work/make.out" 2>&1 ||
	{ not_ok "json: make $BUILD/lockshim ($(tail -3 "$work/make.out"))"; exit 1; }
mkdir -p "$work/bin"
abs=$(cd "$work" && pwd)
for bin in lockshim lockshim-san; do
	cp "$BUILD/$bin" "$work/bin/$bin.real"
	cat >"$work/bin/$bin" <<EOF
#!/usr/bin/env bash
# json-schema-test wrapper: $bin, its stdout kept in $abs/log when --json is among its options
for a in "\$@"; do
	[[ \$a == -- ]] && break
	if [[ \$a == --json ]]; then
		kept=\$(mktemp "$abs/log/\${1:-none}-XXXXXX.json")
		"$abs/bin/$bin.real" "\$@" >"\$kept"
		rc=\$?
		cat "\$kept" || exit 2
		exit \$rc
	fi
done
exec "$abs/bin/$bin.real" "\$@"
EOF
	chmod +x "$work/bin/$bin"
	touch -r "$BUILD/$bin" "$work/bin/$bin" # as old as the binary: make rebuilds nothing for it
done
self=${0##*/}
mapfile -t tests < <(grep -l -e '--json' tests/cli/test_*.sh | grep -v -e "/$self\$" -e /test_completion.sh)
# root needs no user namespace for its mount namespace; anyone else does
userns=()
(($(id -u) == 0)) || userns=(--map-root-user)
# shellcheck disable=SC2016 # expanded by the inner shell
unshare "${userns[@]}" --mount --propagation private bash -c '
	work=$1 BUILD=$2
	shift 2
	# read-only: a make that would link them anew fails, never writes over the wrapper
	for bin in lockshim lockshim-san; do
		mount --bind "$work/bin/$bin" "$BUILD/$bin" &&
			mount -o remount,bind,ro "$BUILD/$bin" || exit 1
	done
	for t in "$@"; do
		# their own ok/not ok lines are counted where they run by themselves
		bash "$t" >"$work/${t##*/}.out" 2>&1
		echo "$? $t"
	done' bash "$work" "$BUILD" "${tests[@]}" >"$work/ran" 2>"$work/ran.err"
((${#tests[@]} > 0)) && [[ $(wc -l <"$work/ran") == "${#tests[@]}" ]] &&
	ok "json: ${#tests[@]} CLI tests ran with their --json runs kept" ||
	not_ok "json: the CLI tests did not run with the wrapper ($(cat "$work/ran.err"))"
while read -r rc t; do
	[[ $rc == 0 ]] && ok "json: $t passed with the wrapper" ||
		not_ok "json: $t failed with the wrapper ($(grep -m3 '^not ok' "$work/${t##*/}.out"))"
done <"$work/ran"

# ---- targeted runs: each subcommand, and an exit 2 of each ----------------------
sign db "$BUILD/lockshimx64.efi" "$work/signed.efi"
run_json() { # NAME ARGS...: the stdout of build/lockshim ARGS into $log/NAME.json
	local name=$1
	shift
	"$cli" "$@" >"$log/$name.json" 2>/dev/null
	echo $? >"$log/$name.rc"
}
run_json verify-allowed verify --json --db "$pki/db.esl" "$work/signed.efi"
run_json verify-refused verify --json --db "$pki/db.esl" "$BUILD/lockshimx64.efi"
run_json pcr-predicted pcr --predict --json --mok-sb-state "$BUILD/lockshimx64.efi"
run_json pcr-refused pcr --predict --json "$BUILD/lockshimx64.efi"
run_json verify-usage verify --json --no-such-option x
run_json verify-input verify --json "$work/no-such-image"
run_json check-usage check --json --no-such-option
run_json check-input check --json --efivars "$work/no-such-dir" --esp "$work/no-such-dir"
run_json status-usage status --json --no-such-option
run_json status-input status --json --efivars "$work/no-such-dir"
run_json pcr-usage pcr --predict --json
run_json pcr-input pcr --predict --json "$work/no-such-image"
for name in verify-usage verify-input check-usage check-input status-usage status-input pcr-usage pcr-input; do
	python3 - "$log/$name.json" "$(cat "$log/$name.rc")" "${name#*-}" <<'PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
assert sys.argv[2] == "2", "exit " + sys.argv[2]
assert set(d) == {"schema", "lockshim_version", "error"}, d
assert d["error"]["code"] == sys.argv[3] and d["error"]["message"], d
PY
		ok "json: $name: exit 2, the error object alone on stdout" ||
		not_ok "json: $name: exit 2 with --json ($(cat "$log/$name.json"))"
done
rm -f "$log"/*.rc
# a subcommand without --json takes "--json" as a file's name: no object on stdout
o=$("$cli" esl --json 2>/dev/null)
[[ $? -eq 2 && -z $o ]] && ok "json: esl --json: a file's name, nothing on stdout" ||
	not_ok "json: esl --json printed: $o"

# ---- every document kept ---------------------------------------------------------
shopt -s nullglob
docs=("$log"/*.json)
for sub in verify check status pcr; do
	n=$(grep -L '"error": {' "$log/$sub"-*.json 2>/dev/null | wc -l)
	((n > 0)) && ok "json: $n $sub documents kept" || not_ok "json: no $sub document was kept"
done
if $checker documents "${docs[@]}" >"$work/documents.out"; then
	ok "json: every document valid: $(tail -1 "$work/documents.out")"
else
	not_ok "json: documents against $schema: $(tail -1 "$work/documents.out")"
	grep -v ' documents valid$' "$work/documents.out" | head -20
fi
exit $failed
