#!/usr/bin/env bash
# The firmware log's formats are checked by the compiler (src/efi/efi_log.h:
# format(printf) on log_line and log_status): a small file calling the log
# is compiled with the firmware shell's own command ($BUILD/flags/efi-shell,
# written by make), once right and once with each kind of mistake, which
# must fail to build.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

flags=$BUILD/flags/efi-shell
if [[ ! -s $flags ]]; then
	not_ok "log format check: $flags missing (run make first)"
	exit $failed
fi
read -r -a compile <"$flags"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# builds NAME CALL: whether a file making CALL compiles with -Werror.
builds() {
	printf '#include <stddef.h>\n#include "efi_log.h"\nEFI_STATUS f(EFI_STATUS s, const CHAR16 *p, size_t n);\nEFI_STATUS f(EFI_STATUS s, const CHAR16 *p, size_t n)\n{\n\t(void)s; (void)p; (void)n;\n\t%s;\n\treturn 0;\n}\n' \
		"$2" >"$tmp/$1.c"
	"${compile[@]}" -Werror -DLOCKSHIM_VERSION='"test"' -c "$tmp/$1.c" -o "$tmp/$1.o" \
		>"$tmp/$1.log" 2>&1
}

# Right: every kind of call the tree makes.
if builds right 'log_info("%ls: %zu of %d", p, n, 1); log_warning("%s", "x"); log_error("0x%X", 3u); return log_error_status(s, "cannot read %ls", p)'; then
	ok "log calls with matching arguments build"
else
	not_ok "log calls with matching arguments build: $(head -n 5 "$tmp/right.log")"
fi

# Wrong: each must fail, with a format warning.
while IFS='|' read -r name call; do
	if builds "$name" "$call"; then
		not_ok "the compiler refuses $call"
	elif grep -Eq -- '\[-W(error=)?format' "$tmp/$name.log"; then
		ok "the compiler refuses $call"
	else
		not_ok "the compiler refuses $call for its format: $(head -n 3 "$tmp/$name.log")"
	fi
done <<'CALLS'
size_t_as_int|log_info("%d", (size_t)1)
char16_as_char|log_error("cannot read %s", p)
char_as_char16|log_warning("%ls", "x")
missing_argument|log_error_status(s, "cannot read %ls")
status_as_string|log_info("%s", s)
CALLS
exit $failed
