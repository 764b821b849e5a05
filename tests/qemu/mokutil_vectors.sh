#!/usr/bin/env bash
# Produce MOK request vectors with the real mokutil (Debian's 0.6.0) in a
# QEMU guest booted through lockshim under Secure Boot, for the host unit
# tests of MOK request parsing and password checking:
#
#   tests/qemu/mokutil_vectors.sh [--out DIR] [--keep-vars] [CASE...]
#                                 (default: every case, into tests/vectors/mokutil)
#   tests/qemu/mokutil_vectors.sh --explore STEPS [--variant base|enrolled]
#                                 (one boot running STEPS; log only, no vectors)
#
#   --keep-vars   keep each case's VARS file ($WORK/CASE.fd) after extraction
#   CASE          import_hashfile import_hashfile_rounds import_stdin
#                 import_hash mokx_import reset password_stdin
#                 password_hashfile clear_password disable_validation
#                 enable_validation ignore_db misc delete_hashfile
#                 (see case_info below for the exact steps of each)
#
# Not a test (tests/run.sh runs only test_*.sh): it regenerates data that is
# committed; tests/vectors/mokutil/verify.py checks that data without QEMU.
#
# Each case is one boot from a fresh copy of an OVMF VARS variant:
#   base      Secure Boot on (test PKI), Boot0000 "lockshim" ->
#             \EFI\lockshim\lockshimx64.efi with the optional data
#             `linux.efi initrd=\boot\initrd-test.img console=ttyS0 panic=-1`,
#             BootOrder 0000; no MokList
#   enrolled  the same plus MokList (NV|BS, 0x3) = one EFI_SIGNATURE_LIST
#             holding the vector key (so lockshim's MokListRT carries it)
# The ESP holds lockshim (signed with db), Debian's kernel (re-signed with the
# test vendor key) as linux.efi and the case's guest initramfs
# (tests/initramfs/mokutil-guest.sh: mokutil + efivarfs, running the case's
# steps, then poweroff). The VARS copy is written by the firmware (--persist);
# afterwards it is read OFFLINE (mkdmpstore.py's store reader) and every
# variable of the shim GUID that the boot added or changed is stored as
#   DIR/CASE/<Name>.bin     the variable's data, as the firmware keeps it
#   DIR/CASE/attributes     `<Name> <attributes hex> <size>` per variable
#   DIR/CASE/mokutil.txt    the commands run and what mokutil printed
# The guest also dumps the variables through efivarfs; each offline vector
# must equal that dump (attributes and data). DIR/CASE/steps.sh and
# case.json record what ran and the password; DIR/provenance.txt the package
# versions, kernel, lockshim commit and key. Finally
# tests/vectors/mokutil/verify.py checks every vector and writes DIR/README.md.
#
# Inputs that make the vectors stable: the key (DIR/mok.der; copied from
# build/pki/mok.der the first time, reused afterwards, so MokNew/MokDel do
# not change with the machine's test PKI), fixed passwords and, for the
# --hash-file cases, fixed salts (the hash files are made on the host with
# `openssl passwd -6 -salt` or, for a rounds= hash, python3's crypt). Cases
# that type the password on standard input get a salt mokutil draws itself
# (random), and the MokSB/MokDB toggles carry uninitialised bytes after the
# password: those vectors differ from run to run (README.md says which).
#
# Prints `ok - CASE (...)` per case; exits 1 if any case or the check failed.
# Logs: build/qemu/logs/mokutil-CASE.log; work files: build/qemu/mokutil/.
# Environment: LOCKSHIM_EFI (default build/lockshimx64.efi), QEMU_TIMEOUT
# (default 240 per boot). Host needs: mokutil (only its binary and libraries
# are copied into the guest), busybox-static, python3 with the crypt module
# (3.11 has it) for the rounds= hash file, openssl, mtools, efitools (vars.sh).
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/qemu/lib.sh

LOCKSHIM_EFI=${LOCKSHIM_EFI:-build/lockshimx64.efi}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-240}
PKI=build/pki
WORK=$QEMU_BUILD/mokutil
LOGS=$QEMU_BUILD/logs
GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
CMDLINE='initrd=\boot\initrd-test.img console=ttyS0 panic=-1'
CRASH=$QEMU_CRASH

# The passwords and salts of the vectors (README.md repeats them).
PW_IMPORT=lockshim-mok-1          # --import/--import-hash/--mokx --hash-file
SALT_IMPORT=LockshimVectors1      # 16 characters: the most SHA-512-crypt keeps
PW_ROUNDS='p@ss w0rd!'            # --hash-file with rounds=
SALT_ROUNDS=short8ch
ROUNDS=10000
PW_DELETE=lockshim-del-2          # --delete --hash-file
SALT_DELETE=DeleteSalt
PW_STDIN=typed-in-pw-3            # typed on standard input (random salt)
PW_SB=Sb8to16chars              # MokSB / MokDB toggles: 8..16 characters
PW_SB16=sixteen-chars-16          # 16 characters exactly
PW_MOKPW=firmware-pw-4            # --password (stdin)
PW_MOKPW_FILE=firmware-pw-5       # --password --hash-file
SALT_MOKPW=MokPWsalt
PW_RESET=reset-pw-6               # --reset --hash-file
SALT_RESET=ResetSalt01
# --import-hash: the SHA-256 of this text.
HASH_TEXT='lockshim mokutil vector image'

die() { echo "mokutil_vectors.sh: $*" >&2; exit 1; }

out=tests/vectors/mokutil keep_vars=0 explore='' explore_variant=base
cases=()
while (( $# )); do
	case $1 in
	--out) out=$2; shift 2 ;;
	--keep-vars) keep_vars=1; shift ;;
	--explore) explore=$2; shift 2 ;;
	--variant) explore_variant=$2; shift 2 ;;
	-*) die "unknown option $1" ;;
	*) cases+=("$1"); shift ;;
	esac
done

# ---- preparation ----------------------------------------------------------------

prepare() {
	mkdir -p "$WORK" "$LOGS" "$out"
	local err=$WORK/prepare.err
	: >"$err"
	tests/pki.sh "$PKI" >/dev/null 2>>"$err" || die "tests/pki.sh failed: $(tail -n 3 "$err")"
	[[ -s $LOCKSHIM_EFI ]] || die "$LOCKSHIM_EFI missing (make build/lockshimx64.efi, or set LOCKSHIM_EFI)"
	local kernel
	kernel=$(tests/qemu/debian-kernel.sh "$WORK/vmlinuz-debian" 2>>"$err") ||
		die "tests/qemu/debian-kernel.sh failed: $(tail -n 3 "$err")"
	# shellcheck disable=SC2015  # any step failing is fatal
	unsign_efi "$kernel" "$WORK/kernel-unsigned.efi" 2>>"$err" &&
		sign_efi vendor "$WORK/kernel-unsigned.efi" "$WORK/kernel-vendor.efi" >/dev/null 2>>"$err" &&
		sign_efi db "$LOCKSHIM_EFI" "$WORK/lockshim-db.efi" >/dev/null 2>>"$err" ||
		die "signing failed: $(tail -n 3 "$err")"

	# The key: the committed one when there is one.
	if [[ ! -s $out/mok.der ]]; then
		cp "$PKI/mok.der" "$out/mok.der"
		openssl x509 -inform DER -in "$out/mok.der" -noout -subject >/dev/null ||
			die "$PKI/mok.der is not a DER certificate"
	fi
	KEY=$out/mok.der
	# MokList for the enrolled variant: one X509 signature list, owner the
	# shim GUID (as mokutil and MokManager write it).
	python3 - "$KEY" "$WORK/mok.esl" <<'PY' || die "could not write the MokList seed"
import struct, sys, uuid
der = open(sys.argv[1], "rb").read()
x509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
owner = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23")
esl = x509.bytes_le + struct.pack("<III", 28 + 16 + len(der), 0, 16 + len(der)) + owner.bytes_le + der
open(sys.argv[2], "wb").write(esl)
PY

	python3 tests/qemu/mkloadoption.py "$WORK/Boot0000.bin" lockshim \
		'\EFI\lockshim\lockshimx64.efi' "linux.efi $CMDLINE" || die "mkloadoption.py failed"
	printf '\x00\x00' >"$WORK/BootOrder.bin"
	local boot=(--var "Boot0000:$GLOBAL_GUID:0x7:$WORK/Boot0000.bin"
		--var "BootOrder:$GLOBAL_GUID:0x7:$WORK/BootOrder.bin")
	VARS_BASE=$(tests/qemu/vars.sh --variant mokutil-base "${boot[@]}" "$PKI" 2>>"$err") ||
		die "vars.sh --variant mokutil-base failed: $(tail -n 3 "$err")"
	VARS_ENROLLED=$(tests/qemu/vars.sh --variant mokutil-enrolled "${boot[@]}" \
		--var "MokList:$SHIM_GUID:0x3:$WORK/mok.esl" "$PKI" 2>>"$err") ||
		die "vars.sh --variant mokutil-enrolled failed: $(tail -n 3 "$err")"

	# Hash files (crypt strings, one line): fixed salts, made on the host.
	mkdir -p "$WORK/data"
	openssl passwd -6 -salt "$SALT_IMPORT" "$PW_IMPORT" >"$WORK/data/import.hash"
	openssl passwd -6 -salt "$SALT_DELETE" "$PW_DELETE" >"$WORK/data/delete.hash"
	openssl passwd -6 -salt "$SALT_MOKPW" "$PW_MOKPW_FILE" >"$WORK/data/mokpw.hash"
	openssl passwd -6 -salt "$SALT_RESET" "$PW_RESET" >"$WORK/data/reset.hash"
	# shellcheck disable=SC2016  # $6$ is crypt's, not the shell's
	python3 -W ignore -c 'import crypt, sys; print(crypt.crypt(sys.argv[1], "$6$rounds=%s$%s$" % (sys.argv[2], sys.argv[3])))' \
		"$PW_ROUNDS" "$ROUNDS" "$SALT_ROUNDS" >"$WORK/data/rounds.hash"
	# openssl and glibc's crypt agree on the default-rounds strings.
	local h
	# shellcheck disable=SC2016
	h=$(python3 -W ignore -c 'import crypt, sys; print(crypt.crypt(sys.argv[1], "$6$" + sys.argv[2] + "$"))' \
		"$PW_IMPORT" "$SALT_IMPORT")
	[[ $h == "$(cat "$WORK/data/import.hash")" ]] || die "openssl passwd -6 and crypt(3) disagree"
	HASH_HEX=$(printf '%s' "$HASH_TEXT" | sha256sum | cut -c1-64)
}

# ---- one boot ---------------------------------------------------------------------

# boot_case NAME VARS_TEMPLATE STEPS_FILE: build the guest, boot it on a fresh
# copy of VARS_TEMPLATE ($WORK/NAME.fd, kept), log in $LOGS/mokutil-NAME.log.
boot_case() {
	local name=$1 template=$2 steps=$3
	local img=$WORK/$name-initrd.img esp=$WORK/$name-esp.img
	tests/initramfs/mokutil-guest.sh --steps "$steps" \
		--add "$KEY:/data/mok.der" \
		--add "$WORK/data/import.hash:/data/import.hash" \
		--add "$WORK/data/rounds.hash:/data/rounds.hash" \
		--add "$WORK/data/delete.hash:/data/delete.hash" \
		--add "$WORK/data/mokpw.hash:/data/mokpw.hash" \
		--add "$WORK/data/reset.hash:/data/reset.hash" \
		"$img" >/dev/null || { echo "$name: guest build failed" >&2; return 1; }
	make_esp "$esp" \
		"$WORK/lockshim-db.efi" EFI/lockshim/lockshimx64.efi \
		"$WORK/kernel-vendor.efi" EFI/lockshim/linux.efi \
		"$img" boot/initrd-test.img || return 1
	cp "$template" "$WORK/$name.fd"
	run_qemu --esp "$esp" --vars "$WORK/$name.fd" --persist \
		--log "$LOGS/mokutil-$name.log" --timeout "$QEMU_TIMEOUT" \
		--stop 'lockshim: refusing' --stop 'No bootable option' --stop "$CRASH" \
		--stop 'Kernel panic' --stop 'MOKUTIL-GUEST-ERROR'
	local rc=$?
	rm -f "$esp" "$img"
	echo "# $name: QEMU $QEMU_OUTCOME${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/} after ${QEMU_ELAPSED}s" >&2
	(( rc == 0 )) || return 1
	[[ $QEMU_OUTCOME == exited ]] || { _log_tail "$LOG"; return 1; }
	expect_log -F 'MOKUTIL-GUEST-EFIVARFS ok' && expect_log -F 'MOKUTIL-GUEST-DONE'
}

# ---- the cases -----------------------------------------------------------------

# Each case: its variant, the password its request carries (what a user would
# type at MokManager), the hash file it used (if any), and its steps.
ALL_CASES=(
	import_hashfile import_hashfile_rounds import_stdin import_hash mokx_import
	reset password_stdin password_hashfile clear_password
	disable_validation enable_validation ignore_db misc delete_hashfile
)

# case_info NAME: set C_VARIANT C_PASSWORD C_HASHFILE and write the steps to
# $WORK/steps/NAME.sh.
case_info() {
	local name=$1 f=$WORK/steps/$1.sh
	mkdir -p "$WORK/steps"
	C_VARIANT=base C_PASSWORD='' C_HASHFILE=''
	# typed PW: the two lines mokutil reads (password, then again).
	typed() { printf '%s' "printf '%s\\n%s\\n' '$1' '$1' | "; }
	case $name in
	import_hashfile)
		C_PASSWORD=$PW_IMPORT C_HASHFILE=import.hash
		cat >"$f" <<-EOF
			step mokutil --import /data/mok.der --hash-file /data/import.hash
			step mokutil --list-new
			step mokutil --test-key /data/mok.der
			step mokutil --sb-state
		EOF
		;;
	import_hashfile_rounds)
		C_PASSWORD=$PW_ROUNDS C_HASHFILE=rounds.hash
		echo 'step mokutil --import /data/mok.der --hash-file /data/rounds.hash' >"$f"
		;;
	import_stdin)
		C_PASSWORD=$PW_STDIN
		{ typed "$PW_STDIN"; echo 'step mokutil --import /data/mok.der'; echo 'step mokutil --list-new'; } >"$f"
		;;
	import_hash)
		C_PASSWORD=$PW_IMPORT C_HASHFILE=import.hash
		cat >"$f" <<-EOF
			step mokutil --import-hash $HASH_HEX --hash-file /data/import.hash
			step mokutil --list-new
		EOF
		;;
	mokx_import)
		C_PASSWORD=$PW_IMPORT C_HASHFILE=import.hash
		cat >"$f" <<-EOF
			step mokutil --mokx --import /data/mok.der --hash-file /data/import.hash
			step mokutil --mokx --list-new
		EOF
		;;
	reset)
		C_PASSWORD=$PW_RESET C_HASHFILE=reset.hash
		echo 'step mokutil --reset --hash-file /data/reset.hash' >"$f"
		;;
	password_stdin)
		C_PASSWORD=$PW_MOKPW
		{ typed "$PW_MOKPW"; echo 'step mokutil --password'; } >"$f"
		;;
	password_hashfile)
		C_PASSWORD=$PW_MOKPW_FILE C_HASHFILE=mokpw.hash
		echo 'step mokutil --password --hash-file /data/mokpw.hash' >"$f"
		;;
	clear_password)
		echo 'step mokutil --clear-password' >"$f"
		;;
	disable_validation)
		C_PASSWORD=$PW_SB
		{ typed "$PW_SB"; echo 'step mokutil --disable-validation'; echo 'step mokutil --sb-state'; } >"$f"
		;;
	enable_validation)
		C_PASSWORD=$PW_SB16
		{ typed "$PW_SB16"; echo 'step mokutil --enable-validation'; } >"$f"
		;;
	ignore_db)
		C_PASSWORD=$PW_SB
		{ typed "$PW_SB"; echo 'step mokutil --ignore-db'; } >"$f"
		;;
	misc)
		C_PASSWORD=$PW_SB
		{
			echo 'step mokutil --timeout 5'
			echo 'step mokutil --set-verbosity true'
			echo 'step mokutil --set-sbat-policy latest'
			typed "$PW_SB"; echo 'step mokutil --trust-mok'
			typed "$PW_SB"; echo 'step mokutil --use-db'
		} >"$f"
		;;
	delete_hashfile)
		C_VARIANT=enrolled C_PASSWORD=$PW_DELETE C_HASHFILE=delete.hash
		cat >"$f" <<-EOF
			step mokutil --test-key /data/mok.der
			step mokutil --import /data/mok.der --hash-file /data/import.hash
			step mokutil --delete /data/mok.der --hash-file /data/delete.hash
			step mokutil --list-delete
		EOF
		;;
	*) return 1 ;;
	esac
}

# extract NAME: the variables the boot added or changed, read offline from
# $WORK/NAME.fd against the variant it started from, cross-checked with the
# guest's efivarfs dump in the log, into $out/NAME/.
extract() {
	local name=$1 template=$2 dir=$out/$1
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$WORK/steps/$name.sh" "$dir/steps.sh"
	python3 - "$template" "$WORK/$name.fd" "$dir" "$LOGS/mokutil-$name.log" "$SHIM_GUID" <<'PY'
import base64, re, struct, sys, uuid
sys.path.insert(0, "tests/qemu")
from mkdmpstore import read_store

before_fd, after_fd, outdir, log, shim = sys.argv[1:6]
shim = uuid.UUID(shim)
before = {(n, g): (a, d) for n, g, a, d in read_store(before_fd)}
after = {(n, g): (a, d) for n, g, a, d in read_store(after_fd)}

# The guest's efivarfs dump: u32 attributes then the data.
dump, cur, lines = {}, None, open(log, errors="replace").read().splitlines()
steps = []
for line in lines:
    m = re.match(r"^MOKUTIL-VAR (\S+)-([0-9a-f-]{36}) (\d+)$", line)
    if m:
        cur, b64 = (m.group(1), uuid.UUID(m.group(2))), []
        continue
    if cur and line.startswith("MOKUTIL-B64 "):
        b64.append(line[12:].strip())
        continue
    if cur and line.startswith("MOKUTIL-VAR-END"):
        raw = base64.b64decode("".join(b64))
        dump[cur] = (struct.unpack_from("<I", raw)[0], raw[4:])
        cur = None

errors = 0
rows = []
others = []
for key in sorted(set(before) | set(after), key=lambda k: (str(k[1]), k[0])):
    name, guid = key
    b, a = before.get(key), after.get(key)
    if b == a:
        continue
    if guid != shim:
        what = "-" if a is None else ("+" if b is None else "~")
        others.append(what + name)
        continue
    if a is None:
        print(f"note: {name} deleted by the boot", file=sys.stderr)
        rows.append(f"{name} deleted -")
        continue
    attrs, data = a
    open(f"{outdir}/{name}.bin", "wb").write(data)
    rows.append(f"{name} {attrs:#x} {len(data)}")
    g = dump.get(key)
    if g is None:
        print(f"ERROR: {name}: in the VARS file but not in the guest's efivarfs dump", file=sys.stderr)
        errors += 1
    elif g != (attrs, data):
        print(f"ERROR: {name}: VARS file ({attrs:#x}, {len(data)} bytes) differs from "
              f"efivarfs ({g[0]:#x}, {len(g[1])} bytes)", file=sys.stderr)
        errors += 1
if others:
    # OVMF's boot manager (its own Boot#### options, BootOrder, Key####, MTC).
    print(f"note: other GUIDs, not vectors (+added ~changed -deleted): {' '.join(others)}",
          file=sys.stderr)
# Shim-GUID variables efivarfs shows that the flash does not hold: volatile.
for (name, guid), (attrs, data) in sorted(dump.items()):
    if guid == shim and (name, guid) not in after:
        print(f"note: {name} ({attrs:#x}, {len(data)} bytes) only in efivarfs (volatile)", file=sys.stderr)
open(f"{outdir}/attributes", "w").write("".join(r + "\n" for r in rows))

# What mokutil printed: the steps and their output, as a transcript.
text = []
for line in lines:
    if line.startswith("MOKUTIL-VAR "):
        break
    m = re.match(r"^MOKUTIL-STEP \d+ (.*)$", line)
    if m:
        text.append("$ " + m.group(1))
    elif line.startswith("| ") or line == "|":
        text.append(line[2:])
    elif (m := re.match(r"^MOKUTIL-RC \d+ (\d+)$", line)):
        text.append(f"(exit status {m.group(1)})")
        text.append("")
open(f"{outdir}/mokutil.txt", "w").write("\n".join(text).rstrip("\n") + "\n")
sys.exit(1 if errors else 0)
PY
}

if [[ -n $explore ]]; then
	prepare
	v=$VARS_BASE
	[[ $explore_variant == enrolled ]] && v=$VARS_ENROLLED
	boot_case explore "$v" "$explore"
	rc=$?
	sed -n '/MOKUTIL-GUEST-BEGIN/,$p' "$LOGS/mokutil-explore.log"
	exit $rc
fi

# ---- all cases ----------------------------------------------------------------------

(( ${#cases[@]} )) || cases=("${ALL_CASES[@]}")
for c in "${cases[@]}"; do
	[[ " ${ALL_CASES[*]} " == *" $c "* ]] || die "unknown case $c (have: ${ALL_CASES[*]})"
done
t_all=$SECONDS
prepare
# What produced the vectors (a run of some cases only adds to the record).
prov_mode='>'
[[ ${cases[*]} == "${ALL_CASES[*]}" || ! -s $out/provenance.txt ]] || prov_mode='>>'
{
	echo "# tests/qemu/mokutil_vectors.sh ${cases[*]}"
	dpkg-query -W -f '${Package} ${Version}\n' mokutil busybox-static ovmf qemu-system-x86 2>/dev/null
	echo "kernel $(cat "$LOCKSHIM_CACHE/$(cat "$LOCKSHIM_CACHE/debian-kernel.stamp")/VERSION")"
	echo "lockshim $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo +changes) $(sha256sum "$LOCKSHIM_EFI" | cut -c1-16)"
	echo "mok.der sha256 $(sha256sum "$KEY" | cut -c1-64)"
} | if [[ $prov_mode == '>' ]]; then cat >"$out/provenance.txt"; else cat >>"$out/provenance.txt"; fi
failed=0
for c in "${cases[@]}"; do
	t0=$SECONDS
	case_info "$c"
	tmpl=$VARS_BASE
	[[ $C_VARIANT == enrolled ]] && tmpl=$VARS_ENROLLED
	if ! boot_case "$c" "$tmpl" "$WORK/steps/$c.sh"; then
		echo "not ok - $c (boot failed; log: $LOGS/mokutil-$c.log)"
		failed=$((failed + 1))
		continue
	fi
	if ! extract "$c" "$tmpl" 2> >(sed "s/^/# $c: /" >&2); then
		echo "not ok - $c (extraction failed)"
		failed=$((failed + 1))
		continue
	fi
	# The case's parameters for verify.py and README.md.
	python3 - "$out/$c/case.json" "$c" "$C_VARIANT" "$C_PASSWORD" \
		"${C_HASHFILE:+$WORK/data/$C_HASHFILE}" "$HASH_HEX" <<'PY'
import json, sys
path, name, variant, password, hashfile, hash_hex = sys.argv[1:7]
info = {"case": name, "variant": variant, "password": password or None,
        "hash_file": open(hashfile).read().strip() if hashfile else None}
if name == "import_hash":
    info["sha256"] = hash_hex
json.dump(info, open(path, "w"), indent=1, sort_keys=True)
open(path, "a").write("\n")
PY
	(( keep_vars )) || rm -f "$WORK/$c.fd"
	echo "ok - $c ($(( SECONDS - t0 ))s, QEMU ${QEMU_ELAPSED}s): $(tr '\n' ' ' <"$out/$c/attributes")"
done
echo "# all cases: $(( SECONDS - t_all ))s" >&2
python3 tests/vectors/mokutil/verify.py --write-readme "$out" || failed=$((failed + 1))
(( failed == 0 ))
