#!/usr/bin/env bash
# build/lockshim SUBCOMMAND --help: that subcommand's usage on stdout, exit
# 0 (asked for, so not an error), for every subcommand; a usage error still
# prints every usage on stderr and exits 2.
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
expect 2 '^usage: lockshim verify.*lockshim check' "cli: an unknown subcommand: every usage, exit 2" -- frobnicate
expect 2 '^usage: lockshim check' "cli: check with a bad option: its usage, exit 2" -- check --no-such-option
exit $failed
