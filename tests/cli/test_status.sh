#!/usr/bin/env bash
# build/lockshim status: this boot's record (LockshimBootLog, src/core/boot_record.h)
# read from an efivarfs copy built here (tests/cli/mkefivars.py: 4 bytes of
# attributes, then the data) and a securityfs copy: a normal record, its
# --json, and each record it must refuse with exit 2 and the reason: a
# truncated or malformed one, one an OS wrote (non-volatile); without a
# record, the machine as mokutil --sb-state and bootctl status show it.
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
cli=$BUILD/lockshim-san # the record is hostile input: the sanitized build
work=$BUILD/status-test
mk="python3 tests/cli/mkefivars.py"
LG=fa4589c8-983f-4879-98de-41989578e75d # lockshim's vendor GUID (src/core/guid.h)

rm -rf "$work" && mkdir -p "$work/sec"
echo 'none [integrity] confidentiality' >"$work/sec/lockdown"

# record NAME ATTRS: $work/NAME/vars holding LockshimBootLog with ATTRS and
# the data on stdin
record() {
	mkdir -p "$work/$1/vars"
	cat >"$work/$1.data"
	$mk var "$work/$1/vars" LockshimBootLog $LG "$2" "$work/$1.data"
}
status() { run_cli status --efivars "$work/$1/vars" --securityfs "$work/sec" "${@:2}"; }
# expect_status CODE REGEX NAME DIR ARGS...
expect_status() {
	local code=$1 regex=$2 name=$3
	shift 3
	status "$@"
	if [[ $rc -eq $code && $out =~ $regex ]]; then ok "status: $name"; else not_ok "status: $name (exit $rc: $out)"; fi
}

# as lockshim writes it: a boot in which GRUB then asked about two kernels
record normal 0x6 <<'EOF_RECORD'
boot-record=1 lockshim=0.9-12-g6ae17ca dropped=0
memory-attributes=absent
secure-boot=enforced SecureBoot=1 SetupMode=0 MokSBState=0 MokDBState=0 MokListTrusted=0
sbat-level=2024010900
lockdown=locked reason=secure-boot
next-stage=\EFI\debian\grubx64.efi
verdict=allowed image=\EFI\debian\grubx64.efi reason=allowed-cert list=vendor entry="/CN=Debian Secure Boot CA"
verdict=refused image=buffer:8123456 reason=deny-digest list=dbx entry=0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0
verdict=allowed image=buffer:7340032 reason=allowed-cert list=MokList entry="/CN=my kernel key"
EOF_RECORD
expect_status 0 $'\n  verdict=refused image=buffer:8123456 reason=deny-digest list=dbx entry=0f1e' \
	"the record lines as the console shows them" normal
expect_status 0 'lockshim 0\.9-12-g6ae17ca recorded this boot in [^ ]*/LockshimBootLog-'$LG' \(8 records\)' \
	"names lockshim's version, the variable and how many records" normal
expect_status 0 $'\nstarted: \\\\EFI\\\\debian\\\\grubx64\\.efi: allowed \\(allowed-cert, vendor /CN=Debian Secure Boot CA\\)\n' \
	"names the image it started and its verdict" normal
expect_status 0 $'\nSecure Boot: enforced\n' "says the Secure Boot state" normal
expect_status 0 'lockdown: lockshim asked locked \(secure-boot\); the kernel is at integrity' \
	"the lockdown asked beside the kernel's own" normal

status normal --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["schema"] == 1, d
rec = d["record"]
assert rec["variable"] == "LockshimBootLog-'$LG'" and rec["attributes"] == 6, d
assert rec["lockshim"] == "0.9-12-g6ae17ca" and rec["dropped"] == 0 and rec["version"] == 1
assert d["secure_boot"] == "enforced"
assert d["started"] == {"image": "\\EFI\\debian\\grubx64.efi", "verdict": "allowed",
    "reason": "allowed-cert", "list": "vendor", "entry": "/CN=Debian Secure Boot CA",
    "message": None}, d["started"]
assert d["lockdown"] == {"asked": "locked", "reason": "secure-boot", "kernel": "integrity"}
r = d["records"]
assert len(r) == 8 and r[0] == {"memory-attributes": "absent"}, r
assert [x["image"] for x in r if "verdict" in x] == [
    "\\EFI\\debian\\grubx64.efi", "buffer:8123456", "buffer:7340032"]
assert r[7]["entry"] == "/CN=my kernel key"
' "$out" 2>"$work/json.err" && [[ $rc -eq 0 ]]; then
	ok "status: --json: one document with the record, the started image and the lockdown"
else
	not_ok "status: --json (exit $rc: $out; $(cat "$work/json.err"))"
fi

# lockshim stopped before its next stage (its own .sbat revoked): nothing started
record early 0x6 <<'EOF_RECORD'
boot-record=1 lockshim=v dropped=2
secure-boot=off SecureBoot=0 SetupMode=1 MokSBState=0 MokDBState=0 MokListTrusted=0
EOF_RECORD
expect_status 0 'records, 2 older ones gave way.*started: nothing recorded.*Secure Boot: off.*lockdown: lockshim asked nothing' \
	"a record without a start: said, not guessed" early
status early --json
python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["started"] is None and d["lockdown"]["asked"] is None and d["record"]["dropped"] == 2, d' "$out" &&
	ok "status: --json: null where nothing was recorded" || not_ok "status: --json of an early stop ($out)"

# refused: exit 2, naming the variable and why
head -c 300 "$work/normal.data" | record truncated 0x6
expect_status 2 "LockshimBootLog-$LG: not a record lockshim writes: the last line has no newline: truncated" \
	"a truncated record: exit 2, said" truncated
sed 's/^lockdown=locked/lockdown=perhaps/' "$work/normal.data" | record malformed 0x6
expect_status 2 'not a record lockshim writes: line 5: a lockdown record is not lockdown=locked\|none reason=NAME' \
	"a malformed line: exit 2, naming the line" malformed
printf 'boot-record=1 lockshim=v dropped=0\nverdict=allowed image="unterminated reason=x\n' | record quote 0x6
expect_status 2 'line 2: a quoted value without its closing quote' "an unterminated quote: exit 2" quote
printf '\0\0\0\0\n' | record binary 0x6
expect_status 2 'line 1: a byte that is not printable ASCII' "binary data: exit 2" binary
head -c 5000 /dev/zero | tr '\0' '\n' | record large 0x6
expect_status 2 'not a record lockshim writes: 5000 bytes, more than the 4096 lockshim writes' \
	"larger than lockshim writes: exit 2" large
record planted 0x7 <"$work/normal.data"
expect_status 2 'attributes 0x7, not lockshim.s volatile BS\|RT \(0x6\): not this boot.s record' \
	"a non-volatile record an OS planted: exit 2, not taken for this boot's" planted
printf 'ab' >"$work/short" && mkdir -p "$work/short-var/vars" &&
	cp "$work/short" "$work/short-var/vars/LockshimBootLog-$LG"
expect_status 2 'LockshimBootLog-'$LG': .*shorter' "a file shorter than its attributes: exit 2" short-var
# no record: another first stage started this boot (here Debian's shim, then
# systemd-boot); status says what mokutil --sb-state and bootctl status say
m=$work/other-loader/vars && mkdir -p "$m"
$mk byte "$m" SecureBoot $GG 0x6 1
$mk byte "$m" SetupMode $GG 0x6 0
$mk option "$m" 3 debian '\EFI\debian\shimx64.efi'
printf '\x03\x00' >"$work/boot-current" && $mk var "$m" BootCurrent $GG 0x6 "$work/boot-current"
LD=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f # systemd's Boot Loader Interface
printf 'systemd-boot 252.39-1~deb12u2\0' | iconv -t UTF-16LE >"$work/loader-info"
printf '\\EFI\\systemd\\systemd-bootx64.efi\0' | iconv -t UTF-16LE >"$work/loader-image"
$mk var "$m" LoaderInfo $LD 0x6 "$work/loader-info"
$mk var "$m" LoaderImageIdentifier $LD 0x6 "$work/loader-image"
status other-loader
want=$'no record of this boot (LockshimBootLog): lockshim did not start it, or could not write it (its console says why)
Secure Boot: enabled
booted: Boot0003 "debian" \\EFI\\debian\\shimx64.efi (BootCurrent)
boot loader: systemd-boot 252.39-1~deb12u2 \\EFI\\systemd\\systemd-bootx64.efi (LoaderInfo, LoaderImageIdentifier)
lockdown: the kernel is at integrity'
[[ $rc -eq 0 && $out == "$want" ]] && ok "status: booted by another loader: the machine as mokutil and bootctl say it, exit 0" ||
	not_ok "status: another loader (exit $rc: $out)"
$mk byte "$m" MokSBStateRT $SG 0x6 1
status other-loader --json
if python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["record"] is None and d["secure_boot"] == "enabled" and d["mok_validation"] is False, d
assert d["boot_current"] == {"option": "Boot0003", "description": "debian", "path": "\\EFI\\debian\\shimx64.efi"}, d
assert d["loader"]["info"] == "systemd-boot 252.39-1~deb12u2", d
assert d["lockdown"] == {"asked": None, "reason": None, "kernel": "integrity"}, d
' "$out"; then ok "status: another loader, --json"; else not_ok "status: another loader --json (exit $rc: $out)"; fi
status other-loader
[[ $out == *"MOK validation: disabled"* ]] && ok "status: MokSBState's mirror said, as mokutil --sb-state" ||
	not_ok "status: MokSBState ($out)"
mkdir -p "$work/missing/vars"
status missing
[[ $rc -eq 0 && $out == *"Secure Boot: disabled"*"booted: unknown (no BootCurrent)"*"boot loader: none set"* ]] &&
	ok "status: nothing at all recorded: said, exit 0" || not_ok "status: empty machine (exit $rc: $out)"
expect 2 'not booted through UEFI' "status: no efivarfs: exit 2" -- status --efivars "$work/nowhere"
expect 2 "^lockshim status: unrecognized option '--frobnicate'"$'\n''usage: lockshim status' \
	"status: an unknown option: named, then its usage, exit 2" -- status --frobnicate
expect 0 '^usage: lockshim status \[--efivars DIR\] \[--securityfs DIR\] \[--json\]$' \
	"status: --help: its usage, exit 0" -- status --help

# a kernel not locked down, and one without the lockdown LSM
mkdir -p "$work/sec-none" "$work/sec-empty"
echo '[none] integrity confidentiality' >"$work/sec-none/lockdown"
run_cli status --efivars "$work/normal/vars" --securityfs "$work/sec-none"
[[ $rc -eq 0 && $out == *"lockdown: lockshim asked locked (secure-boot); the kernel is at none"* ]] &&
	ok "status: a kernel that did not lock down is said beside what lockshim asked" ||
	not_ok "status: kernel at none ($out)"
run_cli status --efivars "$work/normal/vars" --securityfs "$work/sec-empty" --json
python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["lockdown"]["kernel"] is None, d' "$out" &&
	ok "status: --json: no lockdown file, kernel null" || not_ok "status: no lockdown file ($out)"

# an efivars copy without --securityfs: the kernel's lockdown is not read from this machine
run_cli status --efivars "$work/normal/vars"
[[ $rc -eq 0 && $out == *"the kernel's is not read for a copy (--securityfs DIR)"* ]] &&
	ok "status: a copy's lockdown is not this kernel's" || not_ok "status: copy without --securityfs ($out)"
exit $failed
