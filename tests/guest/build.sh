#!/usr/bin/env bash
# Build the guest-side test programs into OUTDIR (default build/guest):
#
#   tests/guest/build.sh [OUTDIR]
#
#   OUTDIR/probe        tests/guest/probe*.c (probe.c and its parts, sharing
#                       probe.h), static (host gcc -static, glibc)
#   OUTDIR/launch.efi   tests/guest/launch.c, a UEFI application (gnu-efi),
#                       unsigned (the tests sign copies as they need)
#   OUTDIR/shim_lock_probe.efi  tests/guest/shim_lock_probe.c, likewise: calls
#                       the SHIM_LOCK protocol with hostile inputs, or the
#                       firmware's LoadImage on images lockshim decides
#   OUTDIR/load_marker.efi  tests/guest/load_marker.c, likewise: what those
#                       LoadImage calls load, which says that it ran
#   OUTDIR/tsc_payload.efi  tests/guest/tsc_payload.c, likewise (make bench);
#   OUTDIR/tsc_payload_12m.efi  the same with 12 MiB of read-only ballast
#
# Each is rebuilt only when its source (or this script) is newer. Prints
# nothing but errors.
set -euo pipefail

cd "$(dirname "$0")/../.."
out=${1:-build/guest}
mkdir -p "$out"
die() { echo "guest/build.sh: $*" >&2; exit 1; }

newer() { # newer TARGET SRC...: TARGET missing or older than a SRC
	local t=$1 s; shift
	[[ -e $t ]] || return 0
	for s in "$@"; do [[ $s -nt $t ]] && return 0; done
	return 1
}

probe_src=(tests/guest/probe.c tests/guest/probe_*.c)
if newer "$out/probe" "${probe_src[@]}" tests/guest/probe.h tests/guest/build.sh; then
	gcc -static -O2 -Wall -Wextra -Werror -o "$out/probe.tmp" "${probe_src[@]}" ||
		die "probe: compile failed (needs libc6-dev for a static glibc)"
	mv "$out/probe.tmp" "$out/probe"
fi

EFI_INC=/usr/include/efi
EFI_LIB=/usr/lib
[[ -f $EFI_INC/efi.h && -f $EFI_LIB/crt0-efi-x86_64.o ]] || die "gnu-efi missing (apt-get install gnu-efi)"
# efi_app NAME SRC [CFLAGS...]: tests/guest/SRC.c -> $out/NAME.efi
efi_app() {
	local name=$1 src=tests/guest/$2.c; shift 2
	newer "$out/$name.efi" "$src" tests/guest/build.sh || return 0
	gcc "$@" -std=gnu11 -O2 -Wall -Wextra -Werror -Wno-unused-parameter -fpic -fshort-wchar \
		-mno-red-zone -ffreestanding -fno-stack-protector -fno-strict-aliasing \
		-DGNU_EFI_USE_MS_ABI -maccumulate-outgoing-args \
		-I"$EFI_INC" -I"$EFI_INC/x86_64" -I"$EFI_INC/protocol" \
		-c "$src" -o "$out/$name.o"
	ld -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
		-T "$EFI_LIB/elf_x86_64_efi.lds" "$EFI_LIB/crt0-efi-x86_64.o" "$out/$name.o" \
		-L"$EFI_LIB" -lefi -lgnuefi "$(gcc -print-libgcc-file-name)" -o "$out/$name.so"
	objcopy -j .text -j .sdata -j .data -j .dynamic -j .rodata -j .rel -j .rela \
		-j '.rel.*' -j '.rela.*' -j .reloc --strip-all --target efi-app-x86_64 --subsystem=10 \
		"$out/$name.so" "$out/$name.efi.tmp"
	rm -f "$out/$name.o" "$out/$name.so"
	mv "$out/$name.efi.tmp" "$out/$name.efi"
}
efi_app launch launch
efi_app shim_lock_probe shim_lock_probe
efi_app load_marker load_marker
efi_app tsc_payload tsc_payload
efi_app tsc_payload_12m tsc_payload -DBALLAST_BYTES=12582912
