#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause-Patent
# Print lockshim's version: the release in VERSION's first line, then the
# commit. In a git clone the commit comes from git (with -dirty for local
# changes); in a `git archive` tarball, from VERSION's second line, which
# export-subst (.gitattributes) fills with the abbreviated commit hash.
set -eu
cd "$(dirname "$0")/.."
{ read -r release; read -r archived || archived=; } <VERSION
# Only this tree's own repository counts: a tarball unpacked inside another
# repository must not take that one's commit.
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] &&
	commit=$(git describe --always --dirty --exclude='*' 2>/dev/null); then
	echo "$release+g$commit"
else
	case $archived in
	'' | '$Format'*) echo "$release" ;;
	*) echo "$release+g$archived" ;;
	esac
fi
