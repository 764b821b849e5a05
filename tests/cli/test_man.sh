#!/usr/bin/env bash
# The manual pages (man/): each renders without a warning, as man-db does
# on an 80-column terminal; every subcommand of build/lockshim --help has
# its page; and every option of a subcommand's usage is on that page, so a
# new option without its documentation fails here.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh

[[ -x $cli ]] || { not_ok "man: $cli missing (run make)"; exit 1; }
for page in man/*.[17]; do
	warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	text=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
	if [[ -z $warnings && $text == *NAME*DESCRIPTION*"SEE ALSO"* ]]; then
		ok "man: $page renders without warnings"
	else
		not_ok "man: $page: $warnings"
	fi
done
# a warning is seen: a page with an unknown request
bad=$(mktemp --suffix=.1)
trap 'rm -f "$bad"' EXIT
printf '.TH BAD 1\n.SH NAME\nbad \\- bad\n.XQ unknown\n' >"$bad"
[[ -n $(MANWIDTH=80 man --warnings -l "$bad" 2>&1 >/dev/null) ]] &&
	ok "man: a page with a warning is told apart" || not_ok "man: the warning check sees nothing"

main_page=$(MANWIDTH=200 man -l man/lockshim.1 2>/dev/null)
subs=$("$cli" --help | sed -n 's/^ *\(usage:\)\{0,1\} *lockshim \([a-z-]*\).*/\2/p')
[[ -n $subs ]] || not_ok "man: no subcommand in $cli --help"
for sub in $subs; do
	page=man/lockshim-$sub.1
	[[ -f $page ]] || { not_ok "man: $sub has no page $page"; continue; }
	text=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
	missing=()
	for opt in $("$cli" "$sub" --help | grep -o -- '--[a-z0-9-]*' | sort -u); do
		[[ $text == *"$opt"* ]] || missing+=("$opt")
	done
	((${#missing[@]} == 0)) && ok "man: $page has every option of $sub's usage" ||
		not_ok "man: $page lacks ${missing[*]}"
	[[ $main_page == *"lockshim-$sub(1)"* ]] && ok "man: lockshim(1) names lockshim-$sub(1)" ||
		not_ok "man: lockshim(1) does not name lockshim-$sub(1)"
done
exit $failed
