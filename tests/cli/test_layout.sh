#!/usr/bin/env bash
# The layers hold (README, "Layout"): src/core decides without the firmware,
# so it includes only its own headers and the table ABI (include/), each by
# its plain name (no directory: "../efi/efi_vars.h" names a file that
# exists, and is still the firmware's), the C library and OpenSSL; never
# gnu-efi, src/efi or src/mm. Every directive that names a file counts,
# however spaced; #import, #include_next and #include MACRO are refused.
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
			# any directive that names a file (#include, #include_next,
			# #import) with or without blanks around the '#'; only
			# #include of a literal name passes, never one through a macro
			[[ $line =~ ^[[:space:]]*#[[:space:]]*(include|include_next|import)([^a-z_0-9]|$) ]] ||
				continue
			if [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]]; then
				name=${BASH_REMATCH[1]}
				[[ $name != */* && ( -f $dir/$name || -f include/$name ) ]] && continue
			elif [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<([^\>]+)\> ]]; then
				name=${BASH_REMATCH[1]}
				[[ $name =~ ^($LIBC)\.h$ || $name =~ ^openssl/[a-z0-9_]+\.h$ ]] && continue
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
# docs/style.md.
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

# The check itself catches each kind of violation, in a tree shaped like
# this one (core/, efi/, mm/, include/ beside each other), where every
# header named exists: only the core's own and include/'s, by plain name,
# pass. The control: a core file including just those is accepted.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/core" "$tmp/src/efi" "$tmp/src/mm" "$tmp/include"
touch "$tmp/src/core/own.h" "$tmp/src/efi/efi_vars.h" "$tmp/src/mm/mm.h" \
	"$tmp/include/lockshim_table.h"
layout_check() { (cd "$tmp" && core_includes_ok src/core); }
printf '#include <stdint.h>\n#include "own.h"\n#include "lockshim_table.h"\n' >"$tmp/src/core/bad.c"
if layout_check >/dev/null; then
	ok "layout check accepts the core's own headers and include/'s"
else
	not_ok "layout check accepts the core's own headers and include/'s"
fi
for include in '<efi.h>' '<efilib.h>' '"efi_vars.h"' '<protocol/efiprot.h>' '<stdio.h>' \
	'"../efi/efi_vars.h"' '"../mm/mm.h"' '"../core/own.h"' '"./own.h"' \
	'"../../include/lockshim_table.h"' '"../../src/efi/efi_vars.h"'; do
	printf '#include <stdint.h>\n#include %s\n' "$include" >"$tmp/src/core/bad.c"
	if layout_check >/dev/null; then
		not_ok "layout check refuses #include $include in the core"
	else
		ok "layout check refuses #include $include in the core"
	fi
done
# the same file through other spellings of the directive: blanks before
# the '#', a macro naming it, #import and #include_next
for directive in ' #include "../efi/efi_vars.h"' '	#  include "../efi/efi_vars.h"' \
	'#define EFI_VARS "../efi/efi_vars.h"\n#include EFI_VARS' '#import "../efi/efi_vars.h"' \
	'#import "own.h"' '#include_next <stdint.h>'; do
	printf "#include <stdint.h>\n$directive\n" >"$tmp/src/core/bad.c"
	if layout_check >/dev/null; then
		not_ok "layout check refuses '$directive' in the core"
	else
		ok "layout check refuses '$directive' in the core"
	fi
done
# One table of variables (src/core/variables.c, issue 35): no other file
# spells a Mok... name as a string literal, ASCII, L"", u"" or U"", alone or
# as adjacent literals that join into one, or as an efivarfs file name
# (NAME-GUID); comments and sentences that mention a name in prose are not
# names. Prints each offending literal; fails when there is one.
#   mok_literals FILE...
mok_literals() {
	python3 - "$@" <<'PY'
import re, sys

NAME = re.compile(r"Mok[A-Za-z0-9_]*(-[0-9a-fA-F-]+)?")
TOKEN = re.compile(r"""//[^\n]*|/\*.*?\*/|(?:u8|[LuU])?"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\s+|.""",
		   re.S)
bad = 0
for path in sys.argv[1:]:
	text = open(path, encoding="utf-8", errors="replace").read()
	run, start = [], 0  # adjacent string literals, joined as the compiler joins them
	def flush():
		global bad
		joined = "".join(run)
		if run and NAME.fullmatch(joined):
			line = text.count("\n", 0, start) + 1
			print(f"# {path}:{line}: the variable name \"{joined}\" outside src/core/variables.c")
			bad = 1
	for m in TOKEN.finditer(text):
		tok = m.group(0)
		lit = re.fullmatch(r'(?:u8|[LuU])?"(.*)"', tok, re.S)
		if lit:
			if not run:
				start = m.start()
			run.append(lit.group(1))
		elif tok.isspace() or tok.startswith("//") or tok.startswith("/*"):
			continue
		else:
			flush()
			run = []
	flush()
sys.exit(bad)
PY
}

mapfile -t sources < <(find src include -name '*.[chS]' ! -path src/core/variables.c | sort)
if mok_literals "${sources[@]}"; then
	ok "layout: no Mok variable name is spelled outside src/core/variables.c"
else
	not_ok "layout: no Mok variable name is spelled outside src/core/variables.c"
fi
# the check itself: each way of spelling a name is refused, prose and comments are not
printf '/* "MokList" in a comment */\n// L"MokNew"\nlog("deleted MokList: attributes");\nx = "MokListing is not" " a name here";\n' \
	>"$tmp/prose.c"
if mok_literals "$tmp/prose.c" >/dev/null; then
	ok "layout: a Mok name in prose or a comment is accepted"
else
	not_ok "layout: a Mok name in prose or a comment is accepted"
fi
for literal in '"MokList"' 'L"MokNew"' 'u"MokListTrustedNew"' 'U"MokSB"' '"Mok" "List"' \
	'L"Mok" /* split */ L"ListX"' '"MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"' '"MokTML"'; do
	printf 'static const void *name = %s;\n' "$literal" >"$tmp/bad.c"
	if mok_literals "$tmp/bad.c" >/dev/null; then
		not_ok "layout check refuses the literal $literal"
	else
		ok "layout check refuses the literal $literal"
	fi
done
exit $failed
