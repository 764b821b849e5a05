#!/usr/bin/env bash
# The documentation's links hold: every relative link of README.md and
# docs/*.md names a file that exists, and its #fragment a heading there
# (tests/cli/md_links.py); README's "Where to read on" links every topic
# of docs/ and every manual page; each docs/ file is one topic, under a
# title of its own.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh

if out=$(python3 tests/cli/md_links.py README.md docs/*.md); then
	ok "docs: every relative link of README.md and docs/*.md resolves"
else
	not_ok "docs: broken links: $out"
fi

# the checker sees what it must: a missing file, a missing heading
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '# A `good` heading: here\n\n## Twice\n\n## Twice\n' >"$tmp/b.md"
printf '[ok](b.md#a-good-heading-here) [ok](b.md#twice-1) [ok](#top) `[code](gone.md)`\n\n# Top\n' >"$tmp/good.md"
printf '[x](missing.md) [y](b.md#nope) [z](b.md#twice-2)\n' >"$tmp/bad.md"
python3 tests/cli/md_links.py "$tmp/good.md" >/dev/null &&
	ok "docs: links to a file, a heading, a repeated heading and the same file pass" ||
	not_ok "docs: good links refused: $(python3 tests/cli/md_links.py "$tmp/good.md")"
out=$(python3 tests/cli/md_links.py "$tmp/bad.md")
rc=$?
if ((rc == 1)) && [[ $out == *"missing.md: no such file"* && $out == *"no heading #nope"* &&
	$out == *"no heading #twice-2"* ]]; then
	ok "docs: a missing file and a missing heading are told (exit 1)"
else
	not_ok "docs: broken links not told (exit $rc): $out"
fi

readme=$(<README.md)
for f in docs/*.md man/*.[17]; do
	[[ $readme == *"]($f)"* ]] && ok "docs: README links $f" ||
		not_ok "docs: README's \"Where to read on\" does not link $f"
done
for f in docs/*.md; do
	[[ $(head -n 1 "$f") == "# "?* ]] && ok "docs: $f opens with its title" ||
		not_ok "docs: $f does not open with a '# ' title"
done
exit $failed
