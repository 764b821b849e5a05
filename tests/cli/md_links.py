#!/usr/bin/env python3
"""Check the relative links of Markdown files: each names a file that
exists, and a #fragment names a heading of the file it points into, as
GitHub makes its anchors. Prints one line per broken link; exit 1 if any.

    md_links.py FILE.md...
"""
import os
import re
import sys

CODE_SPAN = re.compile(r"`[^`]*`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def anchors(path):
    """The fragments GitHub gives a file's headings: lower case,
    punctuation dropped, spaces as hyphens, a repeat suffixed -1, -2..."""
    seen, out = {}, set()
    in_fence = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_fence = not in_fence
        m = None if in_fence else re.match(r"#{1,6} +(.*?) *#* *$", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).replace("`", "").lower())
        slug = slug.replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out


def broken(path):
    text = CODE_SPAN.sub("", open(path, encoding="utf-8").read())
    for target in LINK.findall(text):
        if SCHEME.match(target):
            continue
        name, _, fragment = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
        if not os.path.exists(dest):
            yield "%s: %s: no such file" % (path, target)
        elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
            yield "%s: %s: no heading #%s in %s" % (path, target, fragment, dest)


def main(files):
    bad = [line for f in files for line in broken(f)]
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
