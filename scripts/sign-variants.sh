#!/usr/bin/env bash
# The first stage signed per CA and combined, for `lockshim install` to
# choose from per machine (lockshim-install(1)): since 2025 Microsoft signs
# each submission once per CA (2011, 2023) and distributions combine the
# signatures themselves (Debian's verify_combine_sigs, the oldest CA first).
#
#   scripts/sign-variants.sh [--nest] [--output-dir DIR] --ca NAME KEY CERT
#                            [--ca NAME KEY CERT]... IMAGE
#
# writes, named as shim-signed names its image (shimx64.efi.signed) with
# the CA after it as Ubuntu's shim-signed does (.latest, .previous):
#   DIR/IMAGE.signed.NAME   one signature, by NAME's key (scripts/sign.sh)
#   DIR/IMAGE.signed        every CA's signature in the order given: one
#                           certificate table entry each (sbsign appends),
#                           or with --nest each later one nested inside the
#                           first (osslsigncode -nest), which EDK2's
#                           firmware does not see
# DIR defaults to IMAGE's directory. Any signature IMAGE carries is removed
# first.
set -euo pipefail

die() { echo "sign-variants.sh: $*" >&2; exit 1; }
usage() { die "usage: sign-variants.sh [--nest] [--output-dir DIR] --ca NAME KEY CERT [--ca NAME KEY CERT]... IMAGE"; }

here=$(dirname "$0")
nest='' outdir='' image='' names=() keys=() certs=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--nest) nest=1; shift ;;
	--output-dir) outdir=${2:-}; shift 2 || usage ;;
	--ca)
		[[ $# -ge 4 ]] || usage
		[[ $2 =~ ^[A-Za-z0-9_-]+$ ]] || die "--ca $2: a name of letters, digits, '_' and '-'"
		names+=("$2") keys+=("$3") certs+=("$4")
		shift 4
		;;
	-*) usage ;;
	*) [[ -z $image ]] || usage; image=$1; shift ;;
	esac
done
[[ -n $image && ${#names[@]} -gt 0 ]] || usage
[[ -n $outdir ]] || outdir=$(dirname "$image")
mkdir -p "$outdir"
base=$outdir/$(basename "$image").signed

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!names[@]}"; do
	"$here/sign.sh" --key "${keys[$i]}" --cert "${certs[$i]}" --output "$tmp/${names[$i]}" "$image"
done
cp "$tmp/${names[0]}" "$tmp/combined"
for i in "${!names[@]}"; do
	((i)) || continue
	if [[ -n $nest ]]; then
		openssl x509 -in "${certs[$i]}" -noout 2>/dev/null || die "--nest: ${certs[$i]}: PEM, please"
		osslsigncode sign -nest -h sha256 -certs "${certs[$i]}" -key "${keys[$i]}" \
			-in "$tmp/combined" -out "$tmp/next" >/dev/null || die "osslsigncode -nest failed"
	else
		sbsign --key "${keys[$i]}" --cert "${certs[$i]}" --output "$tmp/next" "$tmp/combined" \
			>/dev/null 2>&1 || die "sbsign failed adding ${names[$i]}'s signature"
	fi
	mv "$tmp/next" "$tmp/combined"
done
for i in "${!names[@]}"; do
	mv "$tmp/${names[$i]}" "$base.${names[$i]}"
	echo "$base.${names[$i]}"
done
if ((${#names[@]} > 1)); then
	mv "$tmp/combined" "$base"
	echo "$base"
fi
