#!/usr/bin/env bash
# build/lockshim check on the firmware's own lists and their updates, on
# a machine whose KEK and db are Debian's own OVMF_VARS_4M.ms.fd's: the CAs
# they hold, named (the Microsoft 2011 and 2023 CAs by the SHA-256 of their
# DER: src/cli/ca_names.c); KEK, db and dbx updates appended or replacing
# (--{kek,db,dbx}-{update,replace}), among them a dbx revoking Microsoft's
# UEFI CA 2011, which Debian's signed shim depends on; a first stage
# signed twice, decided as EDK2 decides it; and whether an
# update or a MokList enrollment fits the variable store, from the
# VariableInfo the loader hands over (src/core/variable_store.c; the
# figures Debian's OVMF gave in test_lockdown_table.sh's
# sb_on_lockshim_locked).
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/check-updates-test
mk="python3 tests/cli/mkefivars.py"
ms=/usr/share/OVMF/OVMF_VARS_4M.ms.fd
rm -rf "$work" && mkdir -p "$work/vars" "$work/esp" "$work/mokvar"
[[ -f $ms ]] || { not_ok "check updates: $ms missing (apt-get install ovmf)"; exit 1; }

# KEK and db as Debian's OVMF enrolls them with Microsoft's keys
python3 tests/qemu/mkdmpstore.py --dump "$ms" KEK $GG >"$work/kek.esl" &&
	python3 tests/qemu/mkdmpstore.py --dump "$ms" db $DG >"$work/db.esl" ||
	not_ok "check updates: cannot read KEK and db from $ms"
$mk byte "$work/vars" SecureBoot $GG 0x6 1
$mk byte "$work/vars" SetupMode $GG 0x6 0
$mk var "$work/vars" KEK $GG 0x27 "$work/kek.esl"
$mk var "$work/vars" db $DG 0x27 "$work/db.esl"
printf 'bs_nv_rt_max_storage_sz: 0x3ff9c\nbs_nv_rt_remaining_sz: 0x3c0c0\nbs_nv_rt_max_var_sz: 0x83c4\n\0' \
	>"$work/mokvar/VariableInfo"
check() { run_cli check --efivars "$work/vars" --mok-variables "$work/mokvar" --esp "$work/esp" "$@"; }

check
for want in 'KEK holds:' '  Microsoft Corporation KEK CA 2011 \(KEK: db and dbx updates; until 2026-06-24\)' \
	'  /O=Debian/CN=Debian UEFI Secure Boot \(PK\\/KEK key\)/emailAddress=debian-devel@lists.debian.org \(sha256 [0-9a-f]{64}\)' \
	'db holds:' '  Microsoft Windows Production PCA 2011 \(Windows Boot Manager; until 2026-10-19\)' \
	'  Microsoft Corporation UEFI CA 2011 \(third-party boot loaders \(shim\) and option ROMs; until 2026-06-27\)'; do
	[[ $out =~ (^|$'\n')$want($'\n'|$) ]] && ok "check updates: names '${want:0:60}'" ||
		not_ok "check updates: no line /$want/ in: $out"
done
[[ $out != *"2023"* ]] && ok "check updates: no 2023 CA where Debian's OVMF has none" ||
	not_ok "check updates: a 2023 CA named on a 2011-only machine: $out"

check --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
kek = {c["name"]: c for c in d["cas"]["kek"]}
db = {c["name"]: c for c in d["cas"]["db"]}
c = db["Microsoft Corporation UEFI CA 2011"]
assert c["well_known"] is True and c["not_after"] == "2026-06-27", c
assert c["sha256"] == "48e99b991f57fc52f76149599bff0a58c47154229b9f8d603ac40d3500248507", c
assert kek["Microsoft Corporation KEK CA 2011"]["well_known"] is True
assert [k["well_known"] for k in d["cas"]["kek"]].count(False) == 1, kek
assert "variable_store" not in d, "no what-if, no update to weigh"
' "$out"; then ok "check updates: --json names the CAs of KEK and db"; else not_ok "check updates: --json CAs ($out)"; fi

# a dbx update of 2,000 SHA-256 entries (96,028 bytes) is larger than one
# variable may be (0x83c4); one of 100 fits the room left
python3 - "$work" <<'PY'
import os, struct, sys, uuid
owner = uuid.UUID("77fa9abd-0359-4d32-bd60-28f4e78f784b").bytes_le
sha256 = uuid.UUID("c1c41626-504c-4092-aca9-41f936934328").bytes_le
for n, name in ((2000, "big"), (100, "small")):
    body = b"".join(owner + os.urandom(32) for _ in range(n))
    with open(os.path.join(sys.argv[1], name + ".esl"), "wb") as f:
        f.write(sha256 + struct.pack("<III", 28 + len(body), 0, 48) + body)
PY
check --dbx-update "$work/small.esl"
[[ $out =~ (^|$'\n')"dbx: 0 -> 4828 bytes: fits the variable store (4828 more of 245952 left)" ]] &&
	ok "check updates: a dbx update that fits, said" || not_ok "check updates: dbx that fits ($out)"
check --dbx-update "$work/big.esl"
[[ $out =~ "dbx: 0 -> 96028 bytes: does not fit the variable store (96028 more, 245952 left; at most 33732 a variable)" ]] &&
	ok "check updates: a dbx update larger than one variable, said" ||
	not_ok "check updates: dbx too large ($out)"
printf 'bs_nv_rt_max_storage_sz: 0x3ff9c\nbs_nv_rt_remaining_sz: 0x100\nbs_nv_rt_max_var_sz: 0x83c4\n' \
	>"$work/mokvar/VariableInfo"
check --mok-import "$pki/mok.der"
[[ $out =~ "MokList: 0 -> "[0-9]+" bytes: does not fit the variable store ("[0-9]+" more, 256 left" ]] &&
	ok "check updates: a MokList enrollment into a full store, said" ||
	not_ok "check updates: MokList into a full store ($out)"
check --dbx-update "$work/small.esl" --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
s = d["variable_store"]
assert s["known"] is True and s["remaining"] == 256 and s["max_variable"] == 0x83c4, s
assert s["updates"] == [{"variable": "dbx", "size_before": 0, "size_after": 4828, "fits": False}], s
' "$out"; then ok "check updates: --json weighs the update"; else not_ok "check updates: --json store ($out)"; fi
rm "$work/mokvar/VariableInfo"
check --dbx-update "$work/small.esl"
[[ $out =~ "dbx: 0 -> 4828 bytes; the variable store's room is unknown" ]] &&
	ok "check updates: no VariableInfo: the room is unknown, said" || not_ok "check updates: unknown room ($out)"
printf 'bs_nv_rt_max_storage_sz: 0xzz\n' >"$work/mokvar/VariableInfo"
check
[[ $rc -eq 2 && $out =~ "VariableInfo: a VariableInfo value is not a 64-bit hexadecimal number" ]] &&
	ok "check updates: a malformed VariableInfo is refused with its reason" ||
	not_ok "check updates: malformed VariableInfo (exit $rc: $out)"

# Debian's signed shim as Boot0001: the firmware allows it through
# Microsoft's UEFI CA 2011 in db; a dbx update revoking that CA (the list
# of db holding it, appended to dbx as fwupd would) refuses it, as EDK2
# refuses an image any of whose chain's certificates is in dbx
shim_dir=$(tests/qemu/debian-package.sh shim-signed usr/lib/shim/shimx64.efi.signed) ||
	not_ok "check updates: no Debian shim"
mkdir -p "$work/esp/EFI/debian" && cp "$shim_dir/shimx64.efi.signed" "$work/esp/EFI/debian/shimx64.efi"
$mk order "$work/vars" 1
$mk option "$work/vars" 1 debian '\EFI\debian\shimx64.efi'
python3 - "$work/db.esl" "$work/ca2011.esl" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
at = 0
while at < len(data):
    size = struct.unpack_from("<I", data, at + 16)[0]
    if b"Microsoft Corporation UEFI CA 2011" in data[at:at + size]:
        open(sys.argv[2], "wb").write(data[at:at + size])
    at += size
PY
rm -f "$work/mokvar/VariableInfo"
shim_first='\\EFI\\debian\\shimx64.efi \(first stage\)'
check
[[ $out =~ "allowed "$shim_first": reason=allowed-cert list=db entry=".*"Microsoft Corporation UEFI CA 2011" ]] &&
	ok "check updates: Debian's shim allowed through Microsoft's UEFI CA 2011" ||
	not_ok "check updates: Debian's shim through the 2011 CA ($out)"
[[ $out == *$'  Microsoft Corporation UEFI CA 2011 ('*$')\n    allows the first stage of Boot0001: \\EFI\\debian\\shimx64.efi'* ]] &&
	ok "check updates: the CA each first stage depends on, named under it" ||
	not_ok "check updates: first stage under its CA ($out)"
check --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
db = {c["name"]: c for c in d["cas"]["db"]}
assert db["Microsoft Corporation UEFI CA 2011"]["first_stages"] == [{"option": "Boot0001", "image": "\\EFI\\debian\\shimx64.efi"}], db
assert db["Microsoft Windows Production PCA 2011"]["first_stages"] == [], db
' "$out"; then ok "check updates: --json: each CA's first stages"; else not_ok "check updates: --json first_stages ($out)"; fi
check --dbx-update "$work/ca2011.esl"
[[ $out =~ "refused "$shim_first": reason=deny-cert list=dbx entry=".*"Microsoft Corporation UEFI CA 2011" ]] &&
	ok "check updates: --dbx-update revoking the UEFI CA 2011 refuses Debian's shim" ||
	not_ok "check updates: dbx revoking the 2011 CA ($out)"
check --dbx-update "$work/ca2011.esl" --dbx-replace "$pki/rogue.esl"
[[ $out =~ "allowed "$shim_first ]] && ok "check updates: --dbx-replace drops what dbx held" ||
	not_ok "check updates: dbx replaced ($out)"
check --db-replace "$pki/db.esl"
[[ $out =~ "refused "$shim_first": reason=untrusted-signer" && $out =~ "db holds:"$'\n'"  /CN=lockshim test db" ]] &&
	ok "check updates: --db-replace without the 2011 CA refuses Debian's shim" ||
	not_ok "check updates: db replaced ($out)"
check --db-replace "$pki/db.esl" --db-update "$work/ca2011.esl"
[[ $out =~ "allowed "$shim_first ]] && ok "check updates: --db-update appends: the CA allows it again" ||
	not_ok "check updates: db appended ($out)"
check --kek-update "$pki/db.esl"
[[ $out =~ "KEK holds:"$'\n'.*"Microsoft Corporation KEK CA 2011"[^$'\n']*$'\n'"  /CN=lockshim test db" ]] &&
	ok "check updates: --kek-update appends to KEK" || not_ok "check updates: KEK appended ($out)"
check --kek-replace "$pki/db.esl"
[[ $out =~ "KEK holds:"$'\n'"  /CN=lockshim test db"[^$'\n']*$'\n'"db holds:" ]] &&
	ok "check updates: --kek-replace replaces KEK" || not_ok "check updates: KEK replaced ($out)"

# the firmware's verdict on a first stage signed twice (tests/pki-ca.sh's
# old and new CA, as Microsoft's 2011 and 2023): check decides it as EDK2
# does (src/core/firmware_verdict.c), each certificate table entry one
# signature, a nested one unseen, any signature in dbx refusing
ca=$BUILD/pki-ca
tests/pki-ca.sh "$ca" || not_ok "check updates: tests/pki-ca.sh"
hello=/usr/lib/efitools/x86_64-linux-gnu/HelloWorld.efi
sign_ca() { sbsign --key "$ca/$1-signer.key" --cert "$ca/$1-signer.crt" --output "$3" "$2" >/dev/null 2>&1; }
sign_ca old "$hello" "$work/old.efi" && sign_ca new "$work/old.efi" "$work/both.efi" &&
	osslsigncode sign -nest -h sha256 -certs "$ca/new-signer.crt" -key "$ca/new-signer.key" \
		-in "$work/old.efi" -out "$work/nested.efi" >/dev/null ||
	not_ok "check updates: the dual-signed images"
d=$work/dual && mkdir -p "$d/vars" "$d/esp/EFI/dual"
$mk byte "$d/vars" SecureBoot $GG 0x6 1
$mk byte "$d/vars" SetupMode $GG 0x6 0
$mk var "$d/vars" db $DG 0x27 "$ca/new-ca.esl"
$mk order "$d/vars" 1
$mk option "$d/vars" 1 dual '\EFI\dual\first.efi'
first='\\EFI\\dual\\first.efi \(first stage\)'
cp "$work/both.efi" "$d/esp/EFI/dual/first.efi"
run_cli check --efivars "$d/vars" --esp "$d/esp"
[[ $out =~ "allowed "$first": reason=allowed-cert list=db entry=/CN=lockshim test new CA: signature 1 " ]] &&
	ok "check updates: a dual-signed first stage, db new: the firmware takes signature 1" ||
	not_ok "check updates: dual-signed, db new ($out)"
run_cli check --efivars "$d/vars" --esp "$d/esp" --dbx-update "$ca/old-ca.esl"
[[ $out =~ "refused "$first": reason=deny-cert list=dbx entry=/CN=lockshim test old CA: signature 0 " ]] &&
	ok "check updates: dbx revoking the old CA refuses the dual-signed first stage (EDK2's rule)" ||
	not_ok "check updates: dual-signed, dbx old ($out)"
cp "$work/nested.efi" "$d/esp/EFI/dual/first.efi"
run_cli check --efivars "$d/vars" --esp "$d/esp"
[[ $out == *"refused \\EFI\\dual\\first.efi (first stage): reason=untrusted-signer: "*"(1 nested signature(s) the firmware does not see)"* ]] &&
	ok "check updates: the new CA's signature nested in the old's: unseen by the firmware, refused" ||
	not_ok "check updates: nested, db new ($out)"

# inputs that are not what the option needs: said, exit 2, never an answer
run_cli check --efivars "$work/vars" --esp "$work/esp" --mok-import /dev/null
[[ $rc -eq 2 && $out == *"/dev/null: not a certificate"* ]] &&
	ok "check updates: --mok-import of a file that is no certificate: exit 2, said" ||
	not_ok "check updates: --mok-import /dev/null (exit $rc: $out)"
run_cli check --efivars "$work/vars" --esp "$work/esp" --mok-delete "$work/db.esl"
[[ $rc -eq 2 && $out == *"db.esl: not a certificate"* ]] &&
	ok "check updates: --mok-delete of a signature list: exit 2, said" ||
	not_ok "check updates: --mok-delete ESL (exit $rc: $out)"
run_cli check --efivars "$work/vars" --esp "$work/esp" --mok-variables "$work/no-such-dir"
[[ $rc -eq 2 && $out == *"no-such-dir: No such file or directory"* ]] &&
	ok "check updates: --mok-variables naming no directory: exit 2, said" ||
	not_ok "check updates: missing --mok-variables (exit $rc: $out)"
exit $failed
