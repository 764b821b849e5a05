#!/usr/bin/env bash
# build/lockshim SUBCOMMAND --help: that subcommand's usage on stdout, exit
# 0 (asked for, so not an error), for every subcommand, and `help SUB` the
# same; --version; an unknown subcommand prints every usage on stderr and
# exits 2 (a subcommand's usage error, its own: test_cli_args.sh); output
# that cannot be written is a failure.
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh

for sub in verify pcr check status hash esl add-sbat; do
	for flag in --help -h; do
		o=$("$cli" "$sub" "$flag" 2>/dev/null)
		r=$?
		e=$("$cli" "$sub" "$flag" 2>&1 >/dev/null)
		if [[ $r -eq 0 && $o == "usage: lockshim $sub "* && -z $e && $o != *"lockshim verify"*"lockshim pcr"* ]]; then
			ok "cli: $sub $flag: its usage alone, on stdout, exit 0"
		else
			not_ok "cli: $sub $flag (exit $r, stdout: $o, stderr: $e)"
		fi
	done
done
o=$("$cli" --help 2>/dev/null)
r=$?
[[ $r -eq 0 && $o == *"lockshim verify"* && $o == *"lockshim check"* ]] &&
	ok "cli: --help: every usage on stdout, exit 0" || not_ok "cli: --help (exit $r: $o)"
expect 2 "^lockshim: unknown subcommand 'frobnicate'"$'\n'"usage: lockshim verify.*lockshim check" \
	"cli: an unknown subcommand: named, then every usage, exit 2" -- frobnicate
want_version="lockshim $(scripts/version.sh)"
for v in --version version; do
	o=$("$cli" "$v" 2>&1)
	[[ $? -eq 0 && $o == "$want_version" ]] && ok "cli: $v prints '$want_version'" ||
		not_ok "cli: $v (got '$o', want '$want_version')"
done
for sub in verify check esl; do
	o=$("$cli" help "$sub" 2>&1)
	[[ $? -eq 0 && $o == "usage: lockshim $sub "* && $o == "$("$cli" "$sub" --help)" ]] &&
		ok "cli: help $sub is $sub --help" || not_ok "cli: help $sub ($o)"
done
expect 2 "^lockshim: help: no subcommand 'frobnicate'" "cli: help of an unknown subcommand says so, exit 2" -- \
	help frobnicate
# what was printed must reach its reader: a full disk is a failure, not an answer
for args in "--help" "hash $BUILD/lockshimx64.efi"; do
	# shellcheck disable=SC2086
	e=$("$cli" $args 2>&1 >/dev/full)
	r=$?
	[[ $r -eq 2 && $e == *"cannot write the output: No space left on device"* ]] &&
		ok "cli: $args to a full disk: exit 2, said" || not_ok "cli: $args to /dev/full (exit $r: $e)"
done
expect 2 "^lockshim check: unrecognized option '--no-such-option'"$'\n''usage: lockshim check' \
	"cli: check with a bad option: named, then its usage, exit 2" -- check --no-such-option
exit $failed
