#!/usr/bin/env bash
# Generate the test PKI into DIR (default build/pki): keys and certificates
# for the platform (PK, KEK, db), lockshim's vendor, a MOK, a revoked key
# (enrolled in dbx) and a rogue key (trusted nowhere), plus the signed EFI
# variable payloads that enroll PK, KEK, db and dbx. Never committed.
#
# One PKI per machine: it is generated once into the cache
# (${XDG_CACHE_HOME:-$HOME/.cache}/lockshim/pki-<hash of this script and the
# tools' versions>, mode 0700) and copied from there, so every clone signs
# with the same test keys and the OVMF variable stores enrolled with them
# (tests/qemu/vars.sh, keyed by their contents) stay cached across clones.
set -euo pipefail

dir=${1:-build/pki}
# The owner GUID written into our signature lists; any fixed value will do.
owner=4c6f636b-5368-696d-5465-737450726f6f

[[ -f $dir/.complete ]] && exit 0

cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockshim
key=$({ sha256sum <"$0"; openssl version; dpkg-query -W -f='${Version}\n' efitools 2>/dev/null || true; } |
	sha256sum | cut -c1-16)
cached=$cache/pki-$key
install_from_cache() {
	rm -rf "$dir.tmp" && cp -a "$cached" "$dir.tmp" && rm -rf "$dir" && mv "$dir.tmp" "$dir"
}
if [[ -f $cached/.complete ]]; then
	install_from_cache
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.pki-$key.XXXXXX") # mode 0700
cd "$work"

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
# another run may have finished first: keep whichever came first
mv -T "$work" "$cached" 2>/dev/null || rm -rf "$work"
install_from_cache
