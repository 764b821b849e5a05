#!/usr/bin/env bash
# completions/lockshim: sourced into bash, completing a few prefixes against
# build/lockshim's own usage (the one place subcommands and options are
# defined): subcommands, a subcommand's options, an option's fixed words,
# a DIR option's directories only.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh

[[ -x $cli ]] || { not_ok "completion: $cli missing (run make)"; exit 1; }
. completions/lockshim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir-a" && : >"$tmp/file-a"

# complete WANT WORDS...: the candidates for the last word, sorted, must be WANT
complete_is() {
	local want=$1 got
	shift
	COMP_WORDS=("$cli" "$@")
	COMP_CWORD=$#
	_lockshim
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	if [[ $got == "$want " ]]; then
		ok "completion: lockshim $* -> $want"
	else
		not_ok "completion: lockshim $*: got '$got', want '$want'"
	fi
}
complete_is "add-sbat" a
complete_is "check" ch
complete_is "esl" e
complete_is "install" ins
complete_is "--first-stage --force" install --f
complete_is "--efivars --esp --event-log" check --e
complete_is "--record" verify --re
complete_is "--predict" pcr --pr
complete_is "sha224 sha256" hash --alg sha2
complete_is "automatic" check --sbat-level au
complete_is "windows" check --sbat-level w
complete_is "$tmp/dir-a" check --efivars "$tmp/"
complete_is "$tmp/dir-a $tmp/file-a" verify --db "$tmp/"
# getopt_long's --opt=value: split at '=' as bash does by default, or whole
complete_is "$tmp/dir-a" check --efivars = "$tmp/"
complete_is "automatic" check --sbat-level = au
complete_is "--efivars=$tmp/dir-a" check "--efivars=$tmp/"
complete_is "--sbat-level=windows" check --sbat-level=w
# the options this parser added: -q's long name, verify's machine lists
complete_is "--quiet" check --qu
complete_is "--quiet" verify --qu
complete_is "--efivars" verify --ef
complete_is "$tmp/dir-a" verify --mok-variables "$tmp/"
# a subcommand's options only: status has no --dbx-update
complete_is "--efivars --help --json --securityfs" status --
exit $failed
