#!/usr/bin/env bash
# The layers hold (README, "Layout"): src/core decides without the firmware,
# so it includes only its own headers, the table ABI (include/), the C
# library and OpenSSL; never gnu-efi, src/efi or src/mm.
#   core_includes_ok DIR: every #include of DIR/*.[ch] is one of those
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

# The C library headers the core may use on both platforms.
LIBC='stdarg|stdbool|stddef|stdint|stdlib|string|limits|errno'

# core_includes_ok DIR: print each offending line; fail when there is one.
core_includes_ok() {
	local dir=$1 file line name bad=0
	for file in "$dir"/*.[ch]; do
		while IFS= read -r line; do
			if [[ $line =~ ^#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]]; then
				name=${BASH_REMATCH[1]}
				[[ -f $dir/$name || -f include/$name ]] && continue
			elif [[ $line =~ ^#[[:space:]]*include[[:space:]]*\<([^\>]+)\> ]]; then
				name=${BASH_REMATCH[1]}
				[[ $name =~ ^($LIBC)\.h$ || $name =~ ^openssl/[a-z0-9_]+\.h$ ]] && continue
			else
				continue
			fi
			echo "# $file: $line"
			bad=1
		done <"$file"
	done
	return $bad
}

if core_includes_ok src/core; then
	ok "src/core includes no firmware header"
else
	not_ok "src/core includes no firmware header"
fi

# The MOK manager's own objects export only names with its prefix, mm_
# (besides efi_main and log_prefix, which each firmware program defines):
# README, Style.
if ! ls build/efi/mm/*.o >/dev/null 2>&1; then
	not_ok "layout: the MOK manager's objects are not built (make)"
else
	unprefixed=$(nm --defined-only -g build/efi/mm/*.o | awk 'NF == 3 { print $3 }' |
		grep -vE '^(mm_|efi_main$|log_prefix$)' | sort -u | tr '\n' ' ')
	if [[ -z $unprefixed ]]; then
		ok "layout: the MOK manager exports only mm_ names"
	else
		not_ok "layout: the MOK manager exports names without mm_: $unprefixed"
	fi
fi

# The check itself catches each kind of violation.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for include in '<efi.h>' '<efilib.h>' '"efi_vars.h"' '<protocol/efiprot.h>' '<stdio.h>'; do
	printf '#include <stdint.h>\n#include %s\n' "$include" >"$tmp/bad.c"
	if core_includes_ok "$tmp" >/dev/null; then
		not_ok "layout check refuses #include $include in the core"
	else
		ok "layout check refuses #include $include in the core"
	fi
done
exit $failed

