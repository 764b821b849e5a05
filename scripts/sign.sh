#!/usr/bin/env bash
# Sign an EFI binary with sbsign and check the result with sbverify.
#
#   scripts/sign.sh --key KEY --cert CERT [--sbat CSV] [--output OUT] IMAGE
#
# Any signature IMAGE already carries is removed first, so the result holds
# exactly one signature: ours. Without --output, IMAGE is signed in place.
#
# --sbat CSV adds CSV as the image's .sbat section before signing (lockshim,
# like shim, refuses an image without one under Secure Boot). The image must
# not have one yet: bump generations in the CSV and start again from the
# build's output. The section is added by lockshim's own `add-sbat` (build/
# lockshim, or $LOCKSHIM_CLI), not objcopy: objcopy rewrites the PE headers
# from its own model, which for an x86 bzImage overwrites the real-mode boot
# header sharing the first sector with the DOS stub.
set -euo pipefail

die() { echo "sign.sh: $*" >&2; exit 1; }
usage() { die "usage: sign.sh --key KEY --cert CERT [--sbat CSV] [--output OUT] IMAGE"; }

key= cert= output= image= sbat=
while [[ $# -gt 0 ]]; do
	case $1 in
	--key) key=${2:-}; shift 2 || usage ;;
	--cert) cert=${2:-}; shift 2 || usage ;;
	--output) output=${2:-}; shift 2 || usage ;;
	--sbat) sbat=${2:-}; shift 2 || usage ;;
	-*) usage ;;
	*) [[ -z $image ]] || usage; image=$1; shift ;;
	esac
done
[[ -n $key && -n $cert && -n $image ]] || usage
[[ -n $output ]] || output=$image

for tool in sbsign sbverify sbattach openssl; do
	command -v "$tool" >/dev/null || die "$tool not found (install sbsigntool and openssl)"
done
[[ -r $image ]] || die "$image: no such file"
[[ -r $key ]] || die "$key: no such key"
[[ -r $cert ]] || die "$cert: no such certificate"
cli=${LOCKSHIM_CLI:-$(dirname "$0")/../build/lockshim}
if [[ -n $sbat ]]; then
	[[ -r $sbat ]] || die "$sbat: no such file"
	[[ -x $cli ]] || die "$cli not found: run make first (it adds the .sbat section)"
fi

# sbsign wants PEM; accept DER too.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if openssl x509 -in "$cert" -noout 2>/dev/null; then
	cp "$cert" "$tmp/cert.pem"
elif openssl x509 -inform DER -in "$cert" -out "$tmp/cert.pem" 2>/dev/null; then
	:
else
	die "$cert: not a PEM or DER certificate"
fi
openssl pkey -in "$key" -noout 2>/dev/null || die "$key: not a readable private key"
[[ $(openssl x509 -in "$tmp/cert.pem" -noout -pubkey) == "$(openssl pkey -in "$key" -pubout)" ]] ||
	die "$key does not belong to $cert"

cp "$image" "$tmp/unsigned.efi"
# sbattach removes one signature per call and fails once there are none.
for _ in 1 2 3 4 5 6 7 8; do
	sbattach --remove "$tmp/unsigned.efi" >/dev/null 2>&1 || break
done
if [[ -n $sbat ]]; then
	"$cli" add-sbat "$sbat" "$tmp/unsigned.efi" "$tmp/sbat.efi" 2>"$tmp/err" ||
		die "cannot add $sbat to $image: $(cat "$tmp/err")"
	mv "$tmp/sbat.efi" "$tmp/unsigned.efi"
fi
sbsign --key "$key" --cert "$tmp/cert.pem" --output "$tmp/signed.efi" "$tmp/unsigned.efi" >/dev/null 2>"$tmp/err" ||
	die "sbsign failed on $image: $(cat "$tmp/err")"
sbverify --cert "$tmp/cert.pem" "$tmp/signed.efi" >/dev/null 2>&1 ||
	die "sbverify does not accept the signed $image"
mv "$tmp/signed.efi" "$output"
