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
# Enrollment: a blank OVMF_VARS_4M.fd boots (setup mode, no boot entries)
# into OVMF's built-in UEFI Shell, whose startup.nsh on the ESP runs
# `dmpstore -all -l enroll.dmp` (a file from mkdmpstore.py holding KEK, db,
# dbx and then PK with their .auth payloads) and `reset -s`. The result is
# then checked by booting it twice: an unsigned EFI application must be
# refused by the firmware, the same application signed with db must run.
#
# The checked store is cached as ${cache}/vars-<sha256>.fd, where the hash
# covers PK/KEK/db/dbx.auth in that order and the blank template; the store is
# byte-identical for the same inputs, so warm runs only copy it.
set -euo pipefail

cd "$(dirname "$0")/../.."
. tests/qemu/lib.sh

pki=${1:-build/pki}
die() { echo "vars.sh: $*" >&2; exit 1; }

for f in PK KEK db dbx; do
	[[ -s $pki/$f.auth ]] || die "$pki/$f.auth missing (run tests/pki.sh $pki)"
done
[[ -s $OVMF_VARS_BLANK ]] || die "$OVMF_VARS_BLANK missing (install ovmf)"
mkdir -p "$QEMU_BUILD" "$LOCKSHIM_CACHE"

cp "$OVMF_VARS_BLANK" "$QEMU_BUILD/vars-setup.fd.tmp"
mv "$QEMU_BUILD/vars-setup.fd.tmp" "$QEMU_BUILD/vars-setup.fd"

hash=$(cat "$pki/PK.auth" "$pki/KEK.auth" "$pki/db.auth" "$pki/dbx.auth" "$OVMF_VARS_BLANK" |
	sha256sum | cut -c1-64)
cached=$LOCKSHIM_CACHE/vars-$hash.fd

if [[ ! -s $cached ]]; then
	work=$QEMU_BUILD/enroll
	rm -rf "$work"
	mkdir -p "$work"
	t0=$SECONDS

	python3 tests/qemu/mkdmpstore.py "$work/enroll.dmp" \
		KEK="$pki/KEK.auth" db="$pki/db.auth" dbx="$pki/dbx.auth" PK="$pki/PK.auth"
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
		--log "$QEMU_BUILD/logs/enroll.log" --timeout 90 \
		--send-on 'Press ESC in' '\r' \
		--stop 'LOCKSHIM-ENROLL-FAILED' || die "enrollment run failed"
	[[ $QEMU_OUTCOME == exited ]] || die "enrollment: QEMU $QEMU_OUTCOME (log: $LOG)"
	expect_log -F 'LOCKSHIM-ENROLL-END' || die "enrollment did not complete (log: $LOG)"
	expect_no_log -F 'LOCKSHIM-ENROLL-FAILED' || die "dmpstore failed (log: $LOG)"
	cmp -s "$work/vars.fd" "$OVMF_VARS_BLANK" && die "enrollment left the VARS file unchanged"
	echo "vars.sh: enrolled in $(( SECONDS - t0 ))s (QEMU ${QEMU_ELAPSED}s)" >&2

	# Check: the firmware refuses an unsigned application...
	hello=/usr/lib/efitools/x86_64-linux-gnu/HelloWorld.efi
	[[ -s $hello ]] || die "$hello missing (install efitools)"
	unsign_efi "$hello" "$work/hello-unsigned.efi"
	make_esp "$work/esp.img" "$work/hello-unsigned.efi" EFI/BOOT/BOOTX64.EFI
	run_qemu --esp "$work/esp.img" --vars "$work/vars.fd" \
		--log "$QEMU_BUILD/logs/enroll-check-unsigned.log" --timeout 60 \
		--stop 'Access Denied' --stop 'Security Violation' --stop 'No bootable option' \
		--stop 'HelloWorld' || die "check run failed"
	expect_log 'BdsDxe: failed to load .*Access Denied' &&
		expect_no_log -F 'HelloWorld' ||
		die "the enrolled store does not refuse an unsigned image (log: $LOG)"

	# ... and runs it once signed with db.
	sign_efi db "$hello" "$work/hello-db.efi"
	make_esp "$work/esp.img" "$work/hello-db.efi" EFI/BOOT/BOOTX64.EFI
	run_qemu --esp "$work/esp.img" --vars "$work/vars.fd" \
		--log "$QEMU_BUILD/logs/enroll-check-signed.log" --timeout 60 \
		--stop 'Access Denied' --stop 'Security Violation' --stop 'No bootable option' \
		--stop 'HelloWorld' || die "check run failed"
	expect_log -F 'HelloWorld' ||
		die "the enrolled store does not run a db-signed image (log: $LOG)"
	echo "vars.sh: checked in $(( SECONDS - t0 ))s in all" >&2

	cp "$work/vars.fd" "$cached.tmp"
	mv "$cached.tmp" "$cached"
	rm -rf "$work"
fi

cp "$cached" "$QEMU_BUILD/vars-secboot.fd.tmp"
mv "$QEMU_BUILD/vars-secboot.fd.tmp" "$QEMU_BUILD/vars-secboot.fd"
echo "$QEMU_BUILD/vars-secboot.fd"
