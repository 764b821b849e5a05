#!/usr/bin/env bash
# Produce the OVMF variable stores for the QEMU tests:
#
#   tests/qemu/vars.sh [PKI_DIR]       (PKI_DIR defaults to build/pki)
#
#   build/qemu/vars-secboot.fd  PK, KEK, db and dbx from PKI_DIR enrolled:
#                               Secure Boot on (user mode)
#   build/qemu/vars-setup.fd    a copy of the blank OVMF_VARS_4M.fd: setup
#                               mode, Secure Boot off
#
# Variants (Secure Boot on, like vars-secboot.fd, plus extra variables and/or
# a longer dbx):
#
#   tests/qemu/vars.sh --variant NAME [--var VNAME:GUID:ATTRS:FILE]...
#                      [--dbx-esl FILE]... [--dbx-hash IMAGE]... [--db-hash IMAGE]...
#                      [--db-esl FILE]... [PKI_DIR]
#
#   build/qemu/vars-NAME.fd     (only this file is written; NAME is letters,
#                               digits, '.', '_', '-', not secboot or setup)
#     --var VNAME:GUID:ATTRS:FILE   also write variable VNAME (vendor GUID in
#                   8-4-4-4-12 form, attributes a number such as 0x3 = NV|BS
#                   or 0x7 = NV|BS|RT) with FILE's bytes as its data (FILE
#                   may contain ':'; it must not be empty). Written in the
#                   enrollment pass after KEK/db/dbx and before PK, in the
#                   order given. VNAME cannot be PK, KEK, db or dbx. E.g.
#                   --var MokList:605dab50-e046-4300-abb6-3dd810dd8b23:0x3:build/pki/mok.esl
#     --dbx-hash IMAGE   add IMAGE's Authenticode SHA-256 to dbx: dbx becomes
#                   hash-to-efi-sig-list(IMAGEs) followed by PKI_DIR/revoked.esl,
#                   signed with KEK (sign-efi-sig-list -t fixed timestamp, so
#                   the payload, and the store, are byte-identical for the same
#                   hashes). Without it (or --dbx-esl) dbx is PKI_DIR/dbx.auth,
#                   as in vars-secboot.fd.
#     --dbx-esl FILE   put FILE's signature lists (any type: a SHA-1 digest,
#                   say) first in dbx, before any --dbx-hash hashes and
#                   PKI_DIR/revoked.esl, signed the same way.
#     --db-hash IMAGE    likewise for db: IMAGE's hash, then PKI_DIR/db.esl
#                   (the db certificate), so IMAGE runs unsigned.
#     --db-esl FILE    put FILE's signature lists (a CA's certificate, say)
#                   first in db, before any --db-hash hashes and
#                   PKI_DIR/db.esl, signed the same way.
#   Prints the path of build/qemu/vars-NAME.fd on stdout.
#
# Enrollment: a blank OVMF_VARS_4M.fd boots (setup mode, no boot entries)
# into OVMF's built-in UEFI Shell, whose startup.nsh on the ESP runs
# `dmpstore -all -l enroll.dmp` (a file from mkdmpstore.py holding KEK, db,
# dbx, any --var variables and then PK) and `reset -s`. The result is then
# checked: read back offline (mkdmpstore.py --check: every variable written is
# live with exactly the attributes and data asked), and booted twice: an
# unsigned EFI application must be refused by the firmware, the same
# application signed with db must run.
#
# The checked store is cached; warm runs only copy it:
#   vars-secboot.fd: ${cache}/vars-<sha256>.fd, the hash covering
#       PK/KEK/db/dbx.auth in that order and the blank template;
#   a variant: ${cache}/vars-variant-<sha256>.fd, the hash covering a recipe
#       version, the blank template, PK/KEK/db.auth, the dbx payload actually
#       enrolled (which covers the image hashes, revoked.esl and KEK's key),
#       and each --var's name, GUID, attributes and FILE contents, in order.
#       The variant's NAME is not part of the key.
# ${cache} is $LOCKSHIM_CACHE (default ~/.cache/lockshim). Logs of cold runs:
# build/qemu/logs/enroll[-NAME]{,-check-unsigned,-check-signed}.log.
set -euo pipefail

cd "$(dirname "$0")/../.."
. tests/qemu/lib.sh

die() { echo "vars.sh: $*" >&2; exit 1; }
usage() {
	die "usage: vars.sh [PKI_DIR] | vars.sh --variant NAME [--var VNAME:GUID:ATTRS:FILE]... [--dbx-esl FILE]... [--dbx-hash IMAGE]... [--db-hash IMAGE]... [--db-esl FILE]... [PKI_DIR]"
}

pki='' variant=''
var_specs=() dbx_esls=() dbx_images=() db_images=() db_esls=()
while (( $# )); do
	case $1 in
	--variant) (( $# >= 2 )) || usage; variant=$2; shift 2 ;;
	--var) (( $# >= 2 )) || usage; var_specs+=("$2"); shift 2 ;;
	--dbx-esl) (( $# >= 2 )) || usage; dbx_esls+=("$2"); shift 2 ;;
	--dbx-hash) (( $# >= 2 )) || usage; dbx_images+=("$2"); shift 2 ;;
	--db-hash) (( $# >= 2 )) || usage; db_images+=("$2"); shift 2 ;;
	--db-esl) (( $# >= 2 )) || usage; db_esls+=("$2"); shift 2 ;;
	-*) usage ;;
	*) [[ -z $pki ]] || usage; pki=$1; shift ;;
	esac
done
pki=${pki:-build/pki}
if [[ -z $variant ]] && (( ${#var_specs[@]} + ${#dbx_esls[@]} + ${#dbx_images[@]} + ${#db_images[@]} + ${#db_esls[@]} )); then
	die "--var, --dbx-esl, --dbx-hash, --db-hash and --db-esl need --variant NAME"
fi
if [[ -n $variant ]]; then
	[[ $variant =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad variant name '$variant'"
	[[ $variant != secboot && $variant != setup ]] || die "variant name '$variant' is taken"
fi

for f in PK KEK db dbx; do
	[[ -s $pki/$f.auth ]] || die "$pki/$f.auth missing (run tests/pki.sh $pki)"
done
[[ -s $OVMF_VARS_BLANK ]] || die "$OVMF_VARS_BLANK missing (install ovmf)"
mkdir -p "$QEMU_BUILD" "$LOCKSHIM_CACHE"

sha() { sha256sum "$1" | cut -c1-64; }

# enroll WORK LOGNAME SPEC...: enroll the mkdmpstore.py SPECs (PK last) into a
# blank store, WORK/vars.fd, and check it (read back, then two boots).
enroll() {
	local work=$1 logname=$2; shift 2
	local t0=$SECONDS

	python3 tests/qemu/mkdmpstore.py "$work/enroll.dmp" "$@"
	printf '%s\r\n' \
		'@echo -off' \
		'fs0:' \
		'echo LOCKSHIM-ENROLL-BEGIN' \
		'dmpstore -all -l enroll.dmp' \
		'if %lasterror% ne 0 then' \
		'  echo LOCKSHIM-ENROLL-FAILED' \
		'endif' \
		'echo LOCKSHIM-ENROLL-END' \
		'reset -s' >"$work/startup.nsh"
	make_esp "$work/esp.img" "$work/startup.nsh" startup.nsh "$work/enroll.dmp" enroll.dmp
	cp "$OVMF_VARS_BLANK" "$work/vars.fd"

	# Any key but ESC at the shell's countdown skips its 5 s wait.
	run_qemu --esp "$work/esp.img" --vars "$work/vars.fd" --persist \
		--log "$QEMU_BUILD/logs/$logname.log" --timeout 90 \
		--send-on 'Press ESC in' '\r' \
		--stop 'LOCKSHIM-ENROLL-FAILED' || die "enrollment run failed"
	[[ $QEMU_OUTCOME == exited ]] || die "enrollment: QEMU $QEMU_OUTCOME (log: $LOG)"
	expect_log -F 'LOCKSHIM-ENROLL-END' || die "enrollment did not complete (log: $LOG)"
	expect_no_log -F 'LOCKSHIM-ENROLL-FAILED' || die "dmpstore failed (log: $LOG)"
	cmp -s "$work/vars.fd" "$OVMF_VARS_BLANK" && die "enrollment left the VARS file unchanged"
	echo "vars.sh: enrolled in $(( SECONDS - t0 ))s (QEMU ${QEMU_ELAPSED}s)" >&2

	# Read back: every variable is there with the attributes and data asked
	# (dmpstore goes on after a variable it cannot set).
	if ! python3 tests/qemu/mkdmpstore.py --check "$work/vars.fd" "$@" \
		>"$QEMU_BUILD/logs/$logname-readback.log" 2>&1; then
		sed 's/^/| /' "$QEMU_BUILD/logs/$logname-readback.log" >&2
		die "the enrolled store does not hold what was written"
	fi

	# Check: the firmware refuses an unsigned application...
	local hello=/usr/lib/efitools/x86_64-linux-gnu/HelloWorld.efi
	[[ -s $hello ]] || die "$hello missing (install efitools)"
	unsign_efi "$hello" "$work/hello-unsigned.efi"
	make_esp "$work/esp.img" "$work/hello-unsigned.efi" EFI/BOOT/BOOTX64.EFI
	run_qemu --esp "$work/esp.img" --vars "$work/vars.fd" \
		--log "$QEMU_BUILD/logs/$logname-check-unsigned.log" --timeout 60 \
		--stop 'Access Denied' --stop 'Security Violation' --stop 'No bootable option' \
		--stop 'HelloWorld' || die "check run failed"
	expect_log 'BdsDxe: failed to load .*Access Denied' &&
		expect_no_log -F 'HelloWorld' ||
		die "the enrolled store does not refuse an unsigned image (log: $LOG)"

	# ... and runs it once signed with db.
	sign_efi db "$hello" "$work/hello-db.efi"
	make_esp "$work/esp.img" "$work/hello-db.efi" EFI/BOOT/BOOTX64.EFI
	run_qemu --esp "$work/esp.img" --vars "$work/vars.fd" \
		--log "$QEMU_BUILD/logs/$logname-check-signed.log" --timeout 60 \
		--stop 'Access Denied' --stop 'Security Violation' --stop 'No bootable option' \
		--stop 'HelloWorld' || die "check run failed"
	expect_log -F 'HelloWorld' ||
		die "the enrolled store does not run a db-signed image (log: $LOG)"
	echo "vars.sh: checked in $(( SECONDS - t0 ))s in all" >&2
}

# install SRC DEST: copy, atomically.
install_fd() {
	cp "$1" "$2.tmp"
	mv "$2.tmp" "$2"
}

# ---- the default stores ------------------------------------------------------

if [[ -z $variant ]]; then
	install_fd "$OVMF_VARS_BLANK" "$QEMU_BUILD/vars-setup.fd"

	hash=$(cat "$pki/PK.auth" "$pki/KEK.auth" "$pki/db.auth" "$pki/dbx.auth" "$OVMF_VARS_BLANK" |
		sha256sum | cut -c1-64)
	cached=$LOCKSHIM_CACHE/vars-$hash.fd

	if [[ ! -s $cached ]]; then
		work=$QEMU_BUILD/enroll
		rm -rf "$work"
		mkdir -p "$work"
		enroll "$work" enroll \
			KEK="$pki/KEK.auth" db="$pki/db.auth" dbx="$pki/dbx.auth" PK="$pki/PK.auth"
		install_fd "$work/vars.fd" "$cached"
		rm -rf "$work"
	fi

	install_fd "$cached" "$QEMU_BUILD/vars-secboot.fd"
	echo "$QEMU_BUILD/vars-secboot.fd"
	exit 0
fi

# ---- a variant ---------------------------------------------------------------

# The extra variables, as mkdmpstore.py specs, and their part of the key.
extra_specs=() key_lines=()
for spec in "${var_specs[@]}"; do
	IFS=: read -r vname guid attrs file <<<"$spec"
	[[ -n $vname && -n $guid && -n $attrs && -n $file ]] ||
		die "bad --var '$spec' (want VNAME:GUID:ATTRS:FILE)"
	[[ $vname != *=* ]] || die "bad --var '$spec': '=' in the name"
	case $vname in PK | KEK | db | dbx) die "--var cannot set $vname" ;; esac
	[[ $guid =~ ^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$ ]] ||
		die "bad --var '$spec': GUID '$guid'"
	[[ $attrs =~ ^(0[xX][0-9A-Fa-f]{1,8}|[1-9][0-9]{0,9})$ ]] && (( attrs > 0 && attrs <= 0xFFFFFFFF )) ||
		die "bad --var '$spec': attributes '$attrs'"
	[[ -s $file ]] || die "--var $vname: $file missing or empty"
	guid=${guid,,}
	attrs=$(printf '0x%x' "$attrs")
	extra_specs+=("$vname:$guid:$attrs=$file")
	key_lines+=("var $vname $guid $attrs $(sha "$file")")
done

work=$QEMU_BUILD/enroll-$variant
rm -rf "$work"
mkdir -p "$work"

# hashes_auth VAR BASE_ESL [--first ESL]... IMAGE...: $work/VAR.auth, the
# payload that sets VAR (db or dbx) to the --first lists, the images'
# Authenticode SHA-256 (when any) then BASE_ESL, signed with KEK at a fixed
# time (so the same lists make the same payload, and store).
hashes_auth() {
	local var=$1 base=$2 img; shift 2
	local -a parts=()
	while [[ ${1:-} == --first ]]; do
		[[ -s $2 ]] || die "--$var-esl: $2 missing or empty"
		parts+=("$2")
		shift 2
	done
	[[ -s $base && -s $pki/KEK.key && -s $pki/KEK.crt ]] ||
		die "$base, KEK.key or KEK.crt missing (run tests/pki.sh $pki)"
	for img in "$@"; do
		[[ -s $img ]] || die "--$var-hash: $img missing or empty"
	done
	if (( $# )); then
		hash-to-efi-sig-list "$@" "$work/$var-hashes.esl" >"$work/$var-hashes.out" ||
			die "hash-to-efi-sig-list $* failed"
		sed -n "s/^HASH IS /vars.sh: $var += SHA-256 /p" "$work/$var-hashes.out" >&2
		parts+=("$work/$var-hashes.esl")
	fi
	cat "${parts[@]}" "$base" >"$work/$var.esl"
	sign-efi-sig-list -t '2024-01-01 00:00:00' -k "$pki/KEK.key" -c "$pki/KEK.crt" \
		"$var" "$work/$var.esl" "$work/$var.auth" >/dev/null ||
		die "sign-efi-sig-list $var failed"
}

# dbx: the base payload, or the --dbx-esl lists, the image hashes then the
# revoked certificate; db likewise: the --db-esl lists, the image hashes
# then the db certificate.
dbx_auth=$pki/dbx.auth db_auth=$pki/db.auth
if (( ${#dbx_esls[@]} + ${#dbx_images[@]} )); then
	first=()
	for f in "${dbx_esls[@]}"; do first+=(--first "$f"); done
	hashes_auth dbx "$pki/revoked.esl" "${first[@]}" "${dbx_images[@]}"
	dbx_auth=$work/dbx.auth
fi
if (( ${#db_esls[@]} + ${#db_images[@]} )); then
	first=()
	for f in "${db_esls[@]}"; do first+=(--first "$f"); done
	hashes_auth db "$pki/db.esl" "${first[@]}" "${db_images[@]}"
	db_auth=$work/db.auth
fi

hash=$(
	{
		echo "lockshim-vars-variant 1"
		echo "blank $(sha "$OVMF_VARS_BLANK")"
		for f in PK KEK; do echo "$f $(sha "$pki/$f.auth")"; done
		echo "db $(sha "$db_auth")"
		echo "dbx $(sha "$dbx_auth")"
		for line in "${key_lines[@]}"; do echo "$line"; done
	} | sha256sum | cut -c1-64
)
cached=$LOCKSHIM_CACHE/vars-variant-$hash.fd

if [[ ! -s $cached ]]; then
	echo "vars.sh: creating variant $variant (key $hash)" >&2
	enroll "$work" "enroll-$variant" \
		KEK="$pki/KEK.auth" db="$db_auth" dbx="$dbx_auth" \
		"${extra_specs[@]}" PK="$pki/PK.auth"
	install_fd "$work/vars.fd" "$cached"
fi
rm -rf "$work"

install_fd "$cached" "$QEMU_BUILD/vars-$variant.fd"
echo "$QEMU_BUILD/vars-$variant.fd"
