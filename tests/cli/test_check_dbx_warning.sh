#!/usr/bin/env bash
# build/lockshim check's warning when a dbx update revokes every CA a first
# stage depends on (src/cli/dbx_warning.c; issue 39.2): the db CAs each first
# stage's signatures chain to, as the firmware sees them (a nested signature
# is not seen); a given --dbx-update, or a CA revocation recorded as data
# (certs/dbx-revocations.csv: Microsoft's published dbx update revoking the
# Windows Production PCA 2011, and the what-if of one revoking the UEFI CA
# 2011, which no one has published). Images signed by tests/pki-ca.sh's old
# and new CA (as Microsoft's 2011 and 2023), once, twice in two certificate
# table entries, and nested (osslsigncode -nest, Debian's order); Debian's
# signed shim on Debian's OVMF_VARS_4M.ms.fd's db.
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/check-dbx-warning-test
mk="python3 tests/cli/mkefivars.py"
ms=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
ca=$BUILD/pki-ca
cli=$BUILD/lockshim-san # ASan and UBSan over every case
hello=/usr/lib/efitools/x86_64-linux-gnu/HelloWorld.efi
rm -rf "$work" && mkdir -p "$work/vars" "$work/esp/EFI/test"
tests/pki-ca.sh "$ca" || not_ok "dbx warning: tests/pki-ca.sh"

sign_ca() { sbsign --key "$ca/$1-signer.key" --cert "$ca/$1-signer.crt" --output "$3" "$2" >/dev/null 2>&1; }
sign_ca old "$hello" "$work/old.efi" && sign_ca new "$hello" "$work/new.efi" &&
	sign_ca new "$work/old.efi" "$work/both.efi" &&
	osslsigncode sign -nest -h sha256 -certs "$ca/new-signer.crt" -key "$ca/new-signer.key" \
		-in "$work/old.efi" -out "$work/nested.efi" >/dev/null ||
	not_ok "dbx warning: the signed images"

# machine DIR DB OPTION PATH: Secure Boot on, db the list DB, BootOrder one
# option, Boot0001 named OPTION starting PATH
machine() {
	$mk byte "$1/vars" SecureBoot $GG 0x6 1
	$mk byte "$1/vars" SetupMode $GG 0x6 0
	$mk var "$1/vars" db $DG 0x27 "$2"
	$mk order "$1/vars" 1
	$mk option "$1/vars" 1 "$3" "$4"
}

# db holding both CAs; Boot0001 starts \EFI\test\first.efi, whichever image
# it is: HelloWorld, an image check does not follow (exit 3: cannot tell),
# or, refused, no option boots (exit 1)
machine "$work" "$ca/both-ca.esl" test '\EFI\test\first.efi'
check() { run_cli check --efivars "$work/vars" --esp "$work/esp" "$@"; }
first='\EFI\test\first.efi'
revoke_old=(--dbx-update "$ca/old-ca.esl")

# signed by the old CA only: depends only on it; the update revokes it
cp "$work/old.efi" "$work/esp/EFI/test/first.efi"
check
[[ $rc -eq 3 && $out != *warning:* ]] && ok "dbx warning: none without an update revoking a CA" ||
	not_ok "dbx warning: a warning with nothing revoked (exit $rc: $out)"
check "${revoke_old[@]}"
[[ $out == *"warning: Boot0001's first stage $first depends only on /CN=lockshim test old CA, which --dbx-update $ca/old-ca.esl revokes: the firmware will refuse it"* ]] &&
	ok "dbx warning: old-only first stage, dbx revoking old: warned, named" ||
	not_ok "dbx warning: old-only ($out)"
[[ $rc -eq 1 && $out == *"refused $first (first stage): reason=deny-cert list=dbx entry=/CN=lockshim test old CA"* ]] &&
	ok "dbx warning: old-only first stage, dbx revoking old: the option's verdict refuses it" ||
	not_ok "dbx warning: old-only verdict (exit $rc: $out)"

# signed by the new CA only: the update leaves what it depends on
cp "$work/new.efi" "$work/esp/EFI/test/first.efi"
check "${revoke_old[@]}"
[[ $rc -eq 3 && $out != *warning:* && $out == *"allowed $first (first stage): reason=allowed-cert"* ]] &&
	ok "dbx warning: new-only first stage, dbx revoking old: allowed, no warning" ||
	not_ok "dbx warning: new-only (exit $rc: $out)"

# the new CA's signature nested in the old one's (Debian's order): the
# firmware sees the old one alone
cp "$work/nested.efi" "$work/esp/EFI/test/first.efi"
check "${revoke_old[@]}"
[[ $out == *"warning: Boot0001's first stage $first is dual-signed, but its signature under /CN=lockshim test new CA is nested inside the one under /CN=lockshim test old CA, which is all the firmware sees (EDK2 checks the outer signer of each certificate table entry): it depends only on /CN=lockshim test old CA, which --dbx-update $ca/old-ca.esl revokes: the firmware will refuse it"* ]] &&
	ok "dbx warning: nested dual-signed first stage, dbx revoking old: warned, EDK2's rule said" ||
	not_ok "dbx warning: nested dual-signed ($out)"
[[ $rc -eq 1 && $out == *"refused $first (first stage): reason=deny-cert list=dbx"* ]] &&
	ok "dbx warning: nested dual-signed first stage, dbx revoking old: refused" ||
	not_ok "dbx warning: nested dual-signed verdict (exit $rc: $out)"

# two certificate table entries, old then new: the firmware sees both, and
# refuses the image since one of them chains to dbx
cp "$work/both.efi" "$work/esp/EFI/test/first.efi"
check "${revoke_old[@]}"
[[ $out == *"warning: Boot0001's first stage $first is signed under /CN=lockshim test old CA and under /CN=lockshim test new CA; --dbx-update $ca/old-ca.esl revokes /CN=lockshim test old CA and leaves /CN=lockshim test new CA, but EDK2 refuses an image when any of its signatures chains to dbx: the firmware will refuse it, dual-signed as it is"* ]] &&
	ok "dbx warning: dual-signed first stage, dbx revoking old: warned that EDK2 refuses it" ||
	not_ok "dbx warning: dual-signed ($out)"
[[ $rc -eq 1 && $out == *"refused $first (first stage): reason=deny-cert list=dbx entry=/CN=lockshim test old CA: signature 0 "* ]] &&
	ok "dbx warning: dual-signed first stage, dbx revoking old: refused" ||
	not_ok "dbx warning: dual-signed verdict (exit $rc: $out)"
check "${revoke_old[@]}" --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
[w] = d["dbx_warnings"]
assert w["option"] == "Boot0001" and w["image"] == "\\EFI\\test\\first.efi", w
assert w["update"] == "--dbx-update " + sys.argv[2] and w["update_status"] == "given", w
assert w["depends_on"] == ["/CN=lockshim test old CA", "/CN=lockshim test new CA"], w
assert w["revoked"] == ["/CN=lockshim test old CA"] and w["nested_only"] == [], w
assert w["refused"] is True and "EDK2 refuses" in w["message"], w
' "$out" "$ca/old-ca.esl"; then ok "dbx warning: --json dbx_warnings"; else not_ok "dbx warning: --json ($out)"; fi
check --json
python3 -c 'import json, sys; assert json.loads(sys.argv[1])["dbx_warnings"] == []' "$out" &&
	ok "dbx warning: --json: an empty dbx_warnings without one" || not_ok "dbx warning: --json empty ($out)"
# a recorded revocation whose CA this db does not hold changes nothing
check --dbx-update uefi-ca-2011
[[ $rc -eq 3 && $out == *"uefi-ca-2011: db holds no certificate it revokes: dbx stays as it is"* && $out != *warning:* ]] &&
	ok "dbx warning: --dbx-update uefi-ca-2011 where db lacks that CA: said, nothing revoked" ||
	not_ok "dbx warning: recorded revocation, CA not in db (exit $rc: $out)"
# Secure Boot off: the firmware refuses nothing, nothing to warn of
$mk byte "$work/vars" SecureBoot $GG 0x6 0
check "${revoke_old[@]}"
[[ $out != *warning:* ]] && ok "dbx warning: Secure Boot off: no warning" ||
	not_ok "dbx warning: Secure Boot off ($out)"

# the recorded revocations, on Debian's OVMF db (Microsoft's 2011 CAs) with
# Debian's signed shim as Boot0001 (no GRUB beside it: exit 1 whatever dbx is)
m=$work/ms && mkdir -p "$m/vars" "$m/esp/EFI/debian"
[[ -f $ms ]] || not_ok "dbx warning: $ms missing (apt-get install ovmf)"
python3 tests/qemu/mkdmpstore.py --dump "$ms" db $DG >"$m/db.esl" ||
	not_ok "dbx warning: cannot read db from $ms"
shim_dir=$(tests/qemu/debian-package.sh shim-signed usr/lib/shim/shimx64.efi.signed) ||
	not_ok "dbx warning: no Debian shim"
cp "$shim_dir/shimx64.efi.signed" "$m/esp/EFI/debian/shimx64.efi"
machine "$m" "$m/db.esl" debian '\EFI\debian\shimx64.efi'
shim='\EFI\debian\shimx64.efi'
run_cli check --efivars "$m/vars" --esp "$m/esp"
[[ $out == *"warning: Boot0001's first stage $shim depends only on Microsoft Corporation UEFI CA 2011, which uefi-ca-2011 (a what-if: a dbx revoking Microsoft's UEFI CA 2011; none published by 2026-12-06) revokes: the firmware will refuse it"* ]] &&
	ok "dbx warning: Debian's shim: the recorded what-if revoking the UEFI CA 2011, warned" ||
	not_ok "dbx warning: recorded UEFI CA 2011 revocation ($out)"
[[ $out == *"allowed $shim (first stage)"* && $out != *windows-pca-2011* ]] &&
	ok "dbx warning: the shim boots today; the PCA 2011 revocation, which it does not depend on, unsaid" ||
	not_ok "dbx warning: recorded revocations without the update (exit $rc: $out)"
run_cli check --efivars "$m/vars" --esp "$m/esp" --dbx-update uefi-ca-2011
[[ $out == *"refused $shim (first stage): reason=deny-cert list=dbx entry="*"Microsoft Corporation UEFI CA 2011"* ]] &&
	ok "dbx warning: --dbx-update uefi-ca-2011: Debian's shim refused" ||
	not_ok "dbx warning: --dbx-update uefi-ca-2011 verdict (exit $rc: $out)"
[[ $(grep -c '^warning:' <<<"$out") -eq 1 && $out == *"which uefi-ca-2011 (a what-if"*"revokes: the firmware will refuse it"* ]] &&
	ok "dbx warning: --dbx-update uefi-ca-2011: one warning, naming the update" ||
	not_ok "dbx warning: --dbx-update uefi-ca-2011 warning ($out)"
run_cli check --efivars "$m/vars" --esp "$m/esp" --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
[w] = d["dbx_warnings"]
assert w["update"] == "uefi-ca-2011" and w["update_status"] == "not published", w
assert w["depends_on"] == w["revoked"] == ["Microsoft Corporation UEFI CA 2011"], w
assert w["refused"] is True, w
' "$out"; then ok "dbx warning: --json: the recorded revocation"; else not_ok "dbx warning: --json recorded ($out)"; fi
# the published PCA 2011 revocation adds that CA (one list of 28 + 16 +
# 1,499 bytes of DER) and leaves the shim, which does not depend on it
run_cli check --efivars "$m/vars" --esp "$m/esp" --dbx-update windows-pca-2011
[[ $out == *"after this update every option boots as it does today"* &&
	$out == *"dbx: 0 -> 1543 bytes"* && $out == *"allowed $shim (first stage)"* &&
	$(grep -c '^warning:' <<<"$out") -eq 1 && $out == *"which uefi-ca-2011 ("* ]] &&
	ok "dbx warning: --dbx-update windows-pca-2011: the PCA 2011 added, the shim still allowed" ||
	not_ok "dbx warning: --dbx-update windows-pca-2011 ($out)"
# each recorded revocation names a CA src/cli/ca_names.c knows, by its fingerprint
while IFS=, read -r name sha256 status what; do
	[[ $name =~ ^[a-z0-9-]+$ && $status =~ ^(published\ [0-9]{4}-[0-9]{2}-[0-9]{2}|not\ published)$ &&
		-n $what ]] && grep -q "\"$sha256\"" src/cli/ca_names.c &&
		ok "dbx warning: certs/dbx-revocations.csv: $name revokes a well-known CA" ||
		not_ok "dbx warning: certs/dbx-revocations.csv: $name,$sha256,$status"
done <certs/dbx-revocations.csv
exit $failed
