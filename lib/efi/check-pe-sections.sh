#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# check-pe-sections.sh IMAGE.so SECTION-PATTERN...
#
# Fails if IMAGE.so has an allocated section that none of the patterns (the
# objcopy -j list, "-j" words ignored; shell globs such as '.rela.*' allowed)
# names: objcopy would silently leave it out of the PE image. Sections that
# the PE conversion may drop (.hash, .gnu.hash, .eh_frame, .dynsym, .dynstr,
# .note.gnu.build-id) are accepted.
set -eu
so=$1
shift
bad=
for name in $(LC_ALL=C readelf -SW "$so" | sed -n 's/^ *\[ *[0-9]*\] //p' |
	awk '$7 ~ /A/ { print $1 }'); do
	ok=
	for p in "$@" .hash .gnu.hash .eh_frame .dynsym .dynstr .note.gnu.build-id; do
		[ "$p" = -j ] && continue
		# shellcheck disable=SC2254
		case $name in $p) ok=1 ;; esac
	done
	[ -n "$ok" ] || bad="$bad $name"
done
if [ -n "$bad" ]; then
	echo "$so: sections that would be lost in the PE image:$bad" >&2
	exit 1
fi
