#!/usr/bin/env bash
# The vendor certificate and vendor dbx that a signed rhboot/shim carries, as
# files lockshim's build embeds (make VENDOR_CERT=... VENDOR_DBX=...):
#
#   tests/qemu/debian-vendor-cert.sh SHIM OUTDIR
#
# SHIM is a shim image (e.g. Debian's shimx64.efi.signed from shim-signed);
# OUTDIR gets vendor.der (the DER certificate) and vendor-dbx.esl (EFI
# signature lists; empty when shim carries none). Prints OUTDIR.
#
# shim's .vendor_cert section (shim.h, struct cert_table) starts with four
# little-endian u32: authorized size, deauthorized size, authorized offset,
# deauthorized offset, the offsets counted from the section's start. Each
# field is checked against the section before anything is cut out of it,
# and the certificate must parse, so that a changed layout fails here rather
# than building a lockshim that trusts nothing.
set -euo pipefail

die() { echo "debian-vendor-cert.sh: $*" >&2; exit 1; }
(( $# == 2 )) || die "usage: debian-vendor-cert.sh SHIM OUTDIR"
shim=$1 out=$2
[[ -s $shim ]] || die "$shim: no such file"
mkdir -p "$out"

tmp=$(mktemp -d "$out/.vendor-cert.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
objcopy -O binary --only-section=.vendor_cert "$shim" "$tmp/section" 2>"$tmp/err" ||
	die "$shim: objcopy cannot read it: $(head -n1 "$tmp/err")"
size=$(stat -c %s "$tmp/section")
(( size >= 16 )) || die "$shim: no .vendor_cert section (or one of $size bytes, under its 16-byte header)"

read -r auth_size deauth_size auth_off deauth_off < <(od -An -v -t u4 -N 16 "$tmp/section")
# field NAME OFFSET SIZE: the range must lie within the section, after the header.
field() {
	local name=$1 off=$2 len=$3
	(( off >= 16 && off + len <= size )) ||
		die "$shim: .vendor_cert $name (offset $off, $len bytes) lies outside the $size-byte section"
}
(( auth_size > 0 )) || die "$shim: .vendor_cert holds no vendor certificate (authorized size 0)"
field certificate "$auth_off" "$auth_size"
(( deauth_size == 0 )) || field dbx "$deauth_off" "$deauth_size"

dd if="$tmp/section" of="$tmp/vendor.der" bs=1 skip="$auth_off" count="$auth_size" status=none
openssl x509 -inform DER -in "$tmp/vendor.der" -noout 2>/dev/null ||
	die "$shim: the $auth_size bytes at offset $auth_off of .vendor_cert are not a DER certificate"
if (( deauth_size )); then
	dd if="$tmp/section" of="$tmp/vendor-dbx.esl" bs=1 skip="$deauth_off" count="$deauth_size" status=none
else
	: >"$tmp/vendor-dbx.esl"
fi
mv "$tmp/vendor.der" "$out/vendor.der"
mv "$tmp/vendor-dbx.esl" "$out/vendor-dbx.esl"
echo "$out"
