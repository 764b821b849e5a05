#!/usr/bin/env bash
# build/lockshim verify: verdicts and exit codes on real signed images.
# The image under test is lockshim's own EFI binary, signed here with sbsign.
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/cli-test

rm -rf "$work" && mkdir -p "$work"
image=$BUILD/lockshimx64.efi
[[ -f $image ]] || { not_ok "cli: $image missing (run make)"; exit 1; }
cp "$image" "$work/unsigned.efi"
for signer in vendor rogue db; do
	scripts/sign.sh --key "$pki/$signer.key" --cert "$pki/$signer.crt" \
		--output "$work/$signer.efi" "$work/unsigned.efi" || not_ok "sign with $signer"
done

expect 0 '^allowed: .*signed by /CN=lockshim test vendor, trusted through vendor certificate /CN=lockshim test vendor' "cli: vendor-signed image allowed" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
expect 0 '^allowed:' "cli: PEM vendor certificate accepted" -- \
	verify --vendor-cert "$pki/vendor.crt" "$work/vendor.efi"
expect 1 '^refused: .*image is not signed' "cli: unsigned image refused" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/unsigned.efi"
expect 1 '^refused: .*signer does not chain to a trusted certificate' "cli: image signed by another key refused" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/rogue.efi"
expect 1 '^refused: ' "cli: db-signed image refused when only the vendor is trusted" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/db.efi"

# One byte changed after signing: the digest no longer matches.
cp "$work/vendor.efi" "$work/tampered.efi"
flip_byte "$work/tampered.efi" 4096
expect 1 '^refused: .*digest does not match' "cli: tampered image refused" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/tampered.efi"

head -c 100 "$work/vendor.efi" > "$work/truncated.efi"
expect 1 '^refused: ' "cli: truncated image refused" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/truncated.efi"

expect 2 'usage' "cli: no arguments is a usage error" --
expect 2 'usage' "cli: missing image is a usage error" -- verify --vendor-cert "$pki/vendor.der"
expect 2 'no such file|No such file' "cli: unreadable image exits 2" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/absent.efi"
expect 2 'neither a certificate nor a usable signature list' "cli: bad certificate file exits 2" -- \
	verify --vendor-cert "$work/unsigned.efi" "$work/vendor.efi"
exit $failed
