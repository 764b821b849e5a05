#!/usr/bin/env bash
# Generate the test PKI into DIR (default build/pki): keys and certificates
# for the platform (PK, KEK, db), lockshim's vendor, a MOK, a revoked key
# (enrolled in dbx) and a rogue key (trusted nowhere), plus the signed EFI
# variable payloads that enroll PK, KEK, db and dbx. Never committed.
set -euo pipefail

dir=${1:-build/pki}
# The owner GUID written into our signature lists; any fixed value will do.
owner=4c6f636b-5368-696d-5465-737450726f6f

[[ -f $dir/.complete ]] && exit 0
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
cd "$dir.tmp"

for name in PK KEK db vendor mok revoked rogue; do
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 \
		-subj "/CN=lockshim test $name/" -keyout "$name.key" -out "$name.crt" 2>/dev/null
	openssl x509 -in "$name.crt" -outform DER -out "$name.der"
	cert-to-efi-sig-list -g "$owner" "$name.crt" "$name.esl" >/dev/null
done

# Authenticated payloads: PK self-signed, KEK by PK, db and dbx by KEK.
sign-efi-sig-list -k PK.key -c PK.crt PK PK.esl PK.auth >/dev/null
sign-efi-sig-list -k PK.key -c PK.crt KEK KEK.esl KEK.auth >/dev/null
sign-efi-sig-list -k KEK.key -c KEK.crt db db.esl db.auth >/dev/null
sign-efi-sig-list -k KEK.key -c KEK.crt dbx revoked.esl dbx.auth >/dev/null

touch .complete
cd - >/dev/null
rm -rf "$dir"
mv "$dir.tmp" "$dir"
