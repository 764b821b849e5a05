# Shared by the tests/cli/test_*.sh scripts (sourced from the repository's
# root): where things are, and the TAP-ish lines tests/run.sh counts.
# shellcheck shell=bash

BUILD=${BUILD:-build}
cli=$BUILD/lockshim
pki=$BUILD/pki
failed=0

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

# sign_as KEY IN OUT: IN signed by the test PKI's KEY (db, vendor, mok, rogue) into OUT
sign_as() {
	scripts/sign.sh --key "$pki/$1.key" --cert "$pki/$1.crt" --output "$3" "$2" >/dev/null 2>&1 ||
		not_ok "sign $2 with $1"
}
