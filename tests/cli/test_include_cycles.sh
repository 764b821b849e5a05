#!/usr/bin/env bash
# src/cli has no circle: no module (foo.c with foo.h) includes, directly or
# through others, a header of a module that includes it back. boot_chain.c
# and second_stage.c once called each other through a shared internal
# header; now second_stage.c only reads entries and boot_chain.c decides
# them. The check itself is shown finding a circle in a small tree.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

# circles DIR: print each circle of DIR's modules; exit 1 when there is one.
circles() {
	python3 - "$1" <<'PY'
import os, re, sys
d = sys.argv[1]
include = re.compile(r'^\s*#\s*(?:include|import)\s*"([^"]+)"', re.M)
module = lambda f: os.path.splitext(os.path.basename(f))[0]
files = [f for f in os.listdir(d) if f.endswith((".c", ".h"))]
headers = {f for f in files if f.endswith(".h")}
edges = {}
for f in files:
    with open(os.path.join(d, f), errors="replace") as fh:
        for name in include.findall(fh.read()):
            base = os.path.basename(name)
            if base in headers and module(base) != module(f):
                edges.setdefault(module(f), set()).add(module(base))
found, state = [], {}
def visit(m, path):
    state[m] = 1
    for n in sorted(edges.get(m, ())):
        if state.get(n) == 1:
            found.append(" -> ".join(path[path.index(n):] + [n]))
        elif n not in state:
            visit(n, path + [n])
    state[m] = 2
for m in sorted(edges):
    if m not in state:
        visit(m, [m])
for c in found:
    print(c)
sys.exit(1 if found else 0)
PY
}

if out=$(circles src/cli); then
	ok "src/cli: no module includes a module that includes it back"
else
	not_ok "src/cli: modules in a circle: $out"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#include "b.h"\n' >"$tmp/a.c"
printf '#include "c.h"\n' >"$tmp/b.c"
printf ' #  include "a.h"\n' >"$tmp/c.c"
touch "$tmp/a.h" "$tmp/b.h" "$tmp/c.h"
if out=$(circles "$tmp") || [[ $out != "a -> b -> c -> a" ]]; then
	not_ok "the check finds a -> b -> c -> a ($out)"
else
	ok "the check finds a circle of three modules, an indented #include among them"
fi
printf '#include "a.h"\n' >"$tmp/c.c"
rm "$tmp/a.h"
if out=$(circles "$tmp"); then
	ok "the check passes once the circle is broken"
else
	not_ok "the check passes once the circle is broken ($out)"
fi
exit $failed
