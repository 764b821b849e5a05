# Shared by the tests/cli/test_*.sh scripts (sourced from the repository's
# root): where things are, and the TAP-ish lines tests/run.sh counts.
# shellcheck shell=bash

BUILD=${BUILD:-build}
cli=$BUILD/lockshim
pki=$BUILD/pki
failed=0
# vendor GUIDs of the variables the tests write (tests/cli/mkefivars.py):
# shim's (the MOK lists), EFI global (SecureBoot, Boot####), image security (db, dbx)
SG=605dab50-e046-4300-abb6-3dd810dd8b23
GG=8be4df61-93ca-11d2-aa0d-00e098032b8c
DG=d719b2cb-3d3a-4596-a3bc-dad00e67656f

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; failed=1; }

# run_cli ARGS...: sets $out (stdout and stderr together) and $rc
run_cli() {
	out=$("$cli" "$@" 2>&1)
	rc=$?
}

# expect EXIT_CODE OUTPUT_REGEX NAME -- ARGS...
expect() {
	local code=$1 regex=$2 name=$3
	shift 4
	run_cli "$@"
	if [[ $rc -eq $code && $out =~ $regex ]]; then
		ok "$name"
	else
		not_ok "$name (exit $rc, output: $out)"
	fi
}

# flip_byte FILE OFFSET: invert every bit of one byte, so the file surely changes
flip_byte() {
	local b
	b=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	printf "\\x$(printf %02x $(( b ^ 0xff )))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# sign KEY IN OUT: IN signed with the test PKI's KEY (db, vendor, mok, rogue...) as OUT
sign() {
	scripts/sign.sh --key "$pki/$1.key" --cert "$pki/$1.crt" --output "$3" "$2" >/dev/null 2>&1 ||
		not_ok "sign $2 with $1"
}
