#!/usr/bin/env bash
# build/lockshim verify --as-firmware: the firmware's own verdict (EDK2's
# rules, firmware_verdict.h) on an image signed by the old CA, the new one,
# both in two certificate table entries (old first, as Debian combines
# them) and the new nested inside the old (osslsigncode -nest), against db
# and dbx holding either CA (tests/pki-ca.sh). The image is efitools'
# HelloWorld.efi, signed here with sbsign and osslsigncode.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
work=$BUILD/cli-test-firmware
ca=$BUILD/pki-ca
hello=/usr/lib/efitools/x86_64-linux-gnu/HelloWorld.efi

rm -rf "$work" && mkdir -p "$work"
tests/pki-ca.sh "$ca" || { not_ok "cli: tests/pki-ca.sh"; exit 1; }
[[ -s $hello ]] || { not_ok "cli: $hello missing (install efitools)"; exit 1; }
cp "$hello" "$work/unsigned.efi" # efitools ships it unsigned
sign() { sbsign --key "$ca/$1-signer.key" --cert "$ca/$1-signer.crt" --output "$3" "$2" >/dev/null 2>&1; }
sign old "$work/unsigned.efi" "$work/old.efi" &&
	sign new "$work/unsigned.efi" "$work/new.efi" &&
	sign new "$work/old.efi" "$work/both.efi" &&
	osslsigncode sign -nest -h sha256 -certs "$ca/new-signer.crt" -key "$ca/new-signer.key" \
		-in "$work/old.efi" -out "$work/nested.efi" >/dev/null ||
	{ not_ok "cli: the test images are signed"; exit 1; }

old_signer='signer /CN=lockshim test old signer'
new_signer='signer /CN=lockshim test new signer'
expect 0 "^allowed: .*: signature 0 \\($old_signer\\) trusted through db certificate /CN=lockshim test old CA\$" \
	"cli: as firmware: old-signed, db old: allowed by signature 0" -- \
	verify --as-firmware --db "$ca/old-ca.esl" "$work/old.efi"
expect 1 "^refused: .*: no signature's signer chains to a db certificate\$" \
	"cli: as firmware: old-signed, db new: refused" -- \
	verify --as-firmware --db "$ca/new-ca.esl" "$work/old.efi"
expect 0 "^allowed: .*: signature 1 \\($new_signer\\) trusted through db certificate /CN=lockshim test new CA\$" \
	"cli: as firmware: both, db new: allowed by signature 1" -- \
	verify --as-firmware --db "$ca/new-ca.esl" "$work/both.efi"
expect 1 "^refused: .*: signature 0 \\($old_signer\\) chains to dbx certificate /CN=lockshim test old CA\$" \
	"cli: as firmware: both, db both, dbx old: refused by signature 0" -- \
	verify --as-firmware --db "$ca/both-ca.esl" --dbx "$ca/old-ca.esl" "$work/both.efi"
expect 1 "^refused: .*: signature 1 \\($new_signer\\) chains to dbx certificate /CN=lockshim test new CA\$" \
	"cli: as firmware: both, db both, dbx new: refused by signature 1" -- \
	verify --as-firmware --db "$ca/both-ca.esl" --dbx "$ca/new-ca.esl" "$work/both.efi"
expect 1 "^refused: .*: no signature's signer chains to a db certificate \\(1 nested signature\\(s\\) the firmware does not see\\)\$" \
	"cli: as firmware: nested, db new: refused, the nested one unseen" -- \
	verify --as-firmware --db "$ca/new-ca.esl" "$work/nested.efi"
expect 0 '^allowed: .*: signature 0 ' "cli: as firmware: nested, db old, dbx new: allowed" -- \
	verify --as-firmware --db "$ca/old-ca.esl" --dbx "$ca/new-ca.esl" "$work/nested.efi"
expect 1 '^refused: ' "cli: lockshim's own verdict: nested, dbx new: refused" -- \
	verify --no-sbat --db "$ca/old-ca.esl" --dbx "$ca/new-ca.esl" "$work/nested.efi"
expect 1 '^refused: .*unsigned, and its SHA-256 digest is not in db' \
	"cli: as firmware: unsigned: refused" -- \
	verify --as-firmware --db "$ca/both-ca.esl" "$work/unsigned.efi"

expect 0 '^\{"schema": 1, "lockshim_version": "[^"]+", "image": ".*new\.efi", "verdict": "allowed", "reason": "allowed-cert", "list": "db", "entry": "/CN=lockshim test new CA", "message": "signature 0 \(signer /CN=lockshim test new signer\) trusted through db certificate /CN=lockshim test new CA"\}$' \
	"cli: as firmware: --json, the verify shape" -- \
	verify --as-firmware --json --db "$ca/both-ca.esl" "$work/new.efi"
expect 1 '^verdict=refused image=[^ ]*both\.efi reason=deny-cert list=dbx entry="/CN=lockshim test old CA"$' \
	"cli: as firmware: --record" -- \
	verify --as-firmware --record --db "$ca/both-ca.esl" --dbx "$ca/old-ca.esl" "$work/both.efi"

for extra in "--mok $ca/new-ca.esl" "--vendor-cert $ca/new-ca.der" "--mokx $ca/old-ca.esl" \
	"--sbat-level $ca/old-ca.esl" --no-sbat --shim-lock; do
	# shellcheck disable=SC2086  # the option and its file
	expect 2 'takes only --db, --dbx' "cli: as firmware: $extra is a usage error" -- \
		verify --as-firmware $extra --db "$ca/new-ca.esl" "$work/new.efi"
done
exit $failed
