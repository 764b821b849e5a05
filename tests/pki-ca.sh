#!/usr/bin/env bash
# Generate the CA part of the test PKI into DIR (default build/pki-ca): an
# "old" and a "new" CA (as Microsoft's UEFI CA 2011 and 2023), each with a
# signing key it issued, for the firmware's verdict on images signed by
# either or both (tests/qemu/firmware-matrix.sh). Never committed.
#
#   old-ca.{key,crt,der,esl}       the old CA; its .esl one EFI_CERT_X509 list
#   old-signer.{key,crt}           a key the old CA certified (the signer)
#   new-ca.*, new-signer.*         likewise for the new CA
#   both-ca.esl                    old-ca.esl then new-ca.esl (db holding both)
#
# Apart from tests/pki.sh so that the keys PK, KEK and db, and every OVMF
# variable store enrolled with them (tests/qemu/vars.sh, cached by their
# contents), stay as they are. Cached likewise, once per machine:
# ${XDG_CACHE_HOME:-$HOME/.cache}/lockshim/pki-ca-<hash of this script and
# the tools' versions>, mode 0700, copied from there.
set -euo pipefail

dir=${1:-build/pki-ca}
# The owner GUID of our signature lists, as tests/pki.sh writes it.
owner=4c6f636b-5368-696d-5465-737450726f6f

[[ -f $dir/.complete ]] && exit 0

cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockshim
key=$({ sha256sum <"$0"; openssl version; dpkg-query -W -f='${Version}\n' efitools 2>/dev/null || true; } |
	sha256sum | cut -c1-16)
cached=$cache/pki-ca-$key
install_from_cache() {
	rm -rf "$dir.tmp" && cp -a "$cached" "$dir.tmp" && rm -rf "$dir" && mv "$dir.tmp" "$dir"
}
if [[ -f $cached/.complete ]]; then
	install_from_cache
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.pki-ca-$key.XXXXXX") # mode 0700
cd "$work"

printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature' \
	'extendedKeyUsage=codeSigning' >signer.ext
for ca in old new; do
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 \
		-subj "/CN=lockshim test $ca CA/" -addext 'basicConstraints=critical,CA:TRUE' \
		-addext 'keyUsage=critical,keyCertSign,cRLSign' \
		-keyout "$ca-ca.key" -out "$ca-ca.crt" 2>/dev/null
	openssl x509 -in "$ca-ca.crt" -outform DER -out "$ca-ca.der"
	cert-to-efi-sig-list -g "$owner" "$ca-ca.crt" "$ca-ca.esl" >/dev/null
	openssl req -newkey rsa:2048 -nodes -sha256 -subj "/CN=lockshim test $ca signer/" \
		-keyout "$ca-signer.key" -out "$ca-signer.csr" 2>/dev/null
	openssl x509 -req -in "$ca-signer.csr" -CA "$ca-ca.crt" -CAkey "$ca-ca.key" \
		-set_serial 2 -days 3650 -sha256 -extfile signer.ext -out "$ca-signer.crt" 2>/dev/null
	rm "$ca-signer.csr"
done
cat old-ca.esl new-ca.esl >both-ca.esl

touch .complete
cd - >/dev/null
# another run may have finished first: keep whichever came first
mv -T "$work" "$cached" 2>/dev/null || rm -rf "$work"
install_from_cache
