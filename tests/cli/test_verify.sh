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

# --sbat-level windows: what Windows writes (certs/sbat-level-windows.csv)
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\ngrub,2,Free Software Foundation,grub,2.04,https://www.gnu.org/software/grub/\n' \
	>"$work/grub2.csv"
objcopy --remove-section .sbat "$work/unsigned.efi" "$work/no-sbat.efi" &&
	"$BUILD/lockshim" add-sbat "$work/grub2.csv" "$work/no-sbat.efi" "$work/grub2-unsigned.efi" &&
	scripts/sign.sh --key "$pki/vendor.key" --cert "$pki/vendor.crt" \
		--output "$work/grub2.efi" "$work/grub2-unsigned.efi" >/dev/null || not_ok "sign grub,2"
expect 1 '^refused: .*SBAT revokes component grub generation 2 \(SbatLevel 2024010900 requires 3\)' \
	"cli: --sbat-level windows revokes grub,2" -- \
	verify --vendor-cert "$pki/vendor.der" --sbat-level windows "$work/grub2.efi"
expect 0 '^allowed:' "cli: --sbat-level windows passes lockshim" -- \
	verify --vendor-cert "$pki/vendor.der" --sbat-level windows "$work/vendor.efi"

expect 2 'usage' "cli: no arguments is a usage error" --
expect 2 'usage' "cli: missing image is a usage error" -- verify --vendor-cert "$pki/vendor.der"
expect 2 'no such file|No such file' "cli: unreadable image exits 2" -- \
	verify --vendor-cert "$pki/vendor.der" "$work/absent.efi"
expect 2 'neither a certificate nor a usable signature list' "cli: bad certificate file exits 2" -- \
	verify --vendor-cert "$work/unsigned.efi" "$work/vendor.efi"
exit $failed
