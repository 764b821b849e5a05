#!/usr/bin/env bash
# Build a unified kernel image (UKI) from systemd's EFI stub, as ukify does:
#
#   tests/qemu/mkuki.sh STUB KERNEL INITRD CMDLINE OSREL OUT
#
# OUT is STUB (linuxx64.efi.stub) with four sections added: .osrel (the text
# OSREL, an os-release file, which systemd-boot needs to list the UKI under
# \EFI\Linux\), .cmdline (the text CMDLINE), .initrd (the file INITRD) and
# .linux (the file KERNEL). OUT is unsigned; sign it as a test needs.
#
# objcopy --add-section places a new section of a PE image at address 0,
# over the headers: each one is given an address (--change-section-vma)
# past the stub's last section, page-aligned, one after the other.
set -euo pipefail

die() { echo "mkuki.sh: $*" >&2; exit 1; }
(( $# == 6 )) || die "usage: mkuki.sh STUB KERNEL INITRD CMDLINE OSREL OUT"
stub=$1 kernel=$2 initrd=$3 cmdline=$4 osrel=$5 out=$6
for f in "$stub" "$kernel" "$initrd"; do
	[[ -s $f ]] || die "$f: missing or empty"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mkuki.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '%s' "$cmdline" >"$tmp/cmdline"
printf '%s\n' "$osrel" >"$tmp/osrel"

page=4096
# The end of the stub's last section (VMA + size, ImageBase included, as
# objcopy counts addresses), from objdump -h's section rows.
end=0
while read -r idx _ size vma _; do
	[[ $idx =~ ^[0-9]+$ ]] || continue
	if (( 0x$vma + 0x$size > end )); then end=$(( 0x$vma + 0x$size )); fi
done < <(objdump -h "$stub")
(( end > 0 )) || die "$stub: no sections (objdump -h)"

args=()
vma=$(( (end + page - 1) / page * page ))
for pair in .osrel:"$tmp/osrel" .cmdline:"$tmp/cmdline" .initrd:"$initrd" .linux:"$kernel"; do
	name=${pair%%:*} file=${pair#*:}
	args+=(--add-section "$name=$file" --change-section-vma "$name=$(printf '0x%x' "$vma")")
	vma=$(( (vma + $(stat -c %s "$file") + page - 1) / page * page ))
done

objcopy "${args[@]}" "$stub" "$tmp/uki.efi" || die "objcopy failed"
mv "$tmp/uki.efi" "$out"
