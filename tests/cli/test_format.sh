#!/usr/bin/env bash
# The C under src/ and include/ is as .clang-format (the kernel's style, 100
# columns) formats it: `make format` applies it, this check fails on any
# file clang-format would change, naming it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

command -v clang-format >/dev/null || { not_ok "clang-format is installed (scripts/bootstrap.sh)"; exit 1; }
mapfile -t files < <(git ls-files 'src/*.[ch]' 'include/*.[ch]')
bad=()
for f in "${files[@]}"; do
	clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if (( ${#files[@]} > 0 && ${#bad[@]} == 0 )); then
	ok "${#files[@]} files under src/ and include/ are clang-formatted"
else
	not_ok "clang-formatted: ${#bad[@]} of ${#files[@]} files differ (make format): ${bad[*]}"
fi
exit $failed
