#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# check-efi-relocs.sh IMAGE.so
#
# Fails unless every dynamic relocation of IMAGE.so is one that
# efi_relocate.c's _relocate applies (R_X86_64_RELATIVE as DT_RELA, or
# DT_RELR, which is relative by definition) and patches a writable,
# non-executable section: firmware that maps an image's code read-only
# would fault on a relocation in .text, and the PE's own .reloc is only
# gnu-efi's placeholder.
set -eu
so=$1
LC_ALL=C readelf -SW "$so" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '
	# name type addr off size es flags...
	$1 ~ /^\./ && $3 ~ /^[0-9a-f]+$/ { print $1, $3, $5, $7 }' >"$so.sections"
LC_ALL=C readelf -rW "$so" | awk -v sections="$so.sections" '
	function hex(s,    v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN {
		while ((getline line < sections) > 0) {
			split(line, f, " ")
			n++; name[n] = f[1]; lo[n] = hex(f[2])
			hi[n] = lo[n] + hex(f[3]); flags[n] = f[4]
		}
	}
	/^Relocation section/ { relr = ($0 ~ /\.relr/); next }
	/^[0-9a-f]+( |$)/ {
		if (!relr && $3 != "R_X86_64_RELATIVE") {
			printf "relocation %s at 0x%s: only R_X86_64_RELATIVE is applied\n", $3, $1
			bad = 1
			next
		}
		at = hex($1)
		for (i = 1; i <= n; i++)
			if (at >= lo[i] && at < hi[i])
				break
		if (i > n || flags[i] !~ /W/ || flags[i] ~ /X/) {
			printf "relocation at 0x%s is in %s, not in writable data\n", $1,
				(i > n ? "no section" : name[i])
			bad = 1
		}
		count++
	}
	END { exit bad }' || { rm -f "$so.sections"; echo "$so: unsupported relocations" >&2; exit 1; }
rm -f "$so.sections"
