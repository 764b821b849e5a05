#!/usr/bin/env bash
# Every build says which release it is (scripts/version.sh, read by the
# Makefile): in a clone, VERSION's release and git's commit; in a
# `git archive` tarball, without .git, the commit export-subst wrote into
# VERSION; and never the commit of a repository the tarball sits in.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

release=$(head -n 1 VERSION)
commit=$(git rev-parse --short HEAD)
v=$(scripts/version.sh)
if [[ $v == "$release+g$commit" || $v == "$release+g$commit-dirty" ]]; then
	ok "version in a clone is $v"
else
	not_ok "version in a clone: got '$v', want $release+g$commit[-dirty]"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
archived=$(git rev-parse --short HEAD)
mkdir "$tmp/tree"
git archive HEAD | tar -x -C "$tmp/tree"
v=$(cd "$tmp/tree" && scripts/version.sh)
if [[ $v == "$release+g$archived" ]]; then
	ok "version in a git archive tarball is $v"
else
	not_ok "version in a git archive tarball: got '$v', want $release+g$archived"
fi

# The same tarball inside an unrelated repository.
git -C "$tmp" init -q outer && mv "$tmp/tree" "$tmp/outer/tree"
git -C "$tmp/outer" -c user.name=t -c user.email=t@t commit -q --allow-empty -m outer
v=$(cd "$tmp/outer/tree" && scripts/version.sh)
if [[ $v == "$release+g$archived" ]]; then
	ok "version in a tarball inside another repository is $v"
else
	not_ok "version in a tarball inside another repository: got '$v', want $release+g$archived"
fi
v=$(make -s -C "$tmp/outer/tree" -f Makefile --eval 'print-version: ; @echo $(VERSION)' print-version 2>/dev/null)
if [[ $v == "$release+g$archived" ]]; then
	ok "make in a tarball builds version $v"
else
	not_ok "make in a tarball builds version '$v', want $release+g$archived"
fi
exit $failed
