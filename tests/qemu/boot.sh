# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# What the scenarios that boot lockshim from a disk share (test_boot.sh,
# test_policy.sh, test_handoff.sh, mok.sh, second_stage.sh, faults.sh source
# it): OVMF -> lockshim -> Debian's kernel -> the test initramfs.
#
# Environment:
#   LOCKSHIM_EFI   the loader to test (default build/lockshimx64.efi); a copy
#                  is signed with db (and another stripped of signatures)
#   QEMU_TIMEOUT   bound on each QEMU run in seconds (default 90)
#   BOOT_TEE=1     show each boot's serial output live
#
# boot_prepare
#     The test PKI, the VARS stores, Debian's kernel (unsigned, and signed
#     by the vendor and the rogue key), the companion test kernel
#     (companion-unsigned.efi, and -vendor, -db, -mok signed by those keys),
#     the initramfs, lockshim signed by db and unsigned; sets PREP_ERROR or
#     LOCKSHIM_MISSING when it cannot.
#
# boot_lockshim NAME VARS LOCKSHIM KERNEL GRACE STOP...
#     ESP with LOCKSHIM as BOOTX64.EFI, KERNEL as vmlinuz.efi and the test
#     initrd, booted with VARS; the log is $BOOT_LOGS/NAME.log (also $LOG).
#     More run_qemu options: the array BOOT_RUN_OPTS (e.g. --persist; QEMU
#     arguments last, after --); more files on the ESP: the array
#     BOOT_ESP_EXTRA (SRC ESPPATH pairs, as make_esp takes them).
#
# boot_disk NAME VARS IMAGE STOP...
#     One boot of the VARS store and IMAGE (an ESP or a GPT disk), both
#     written by the boot (--persist): the caller boots copies. It stops at
#     a STOP, a crash, a kernel panic, the guest initramfs's error or OVMF's
#     "No bootable option"; the log is $BOOT_LOGS/NAME.log (also $LOG).
#     More run_qemu options: the array BOOT_RUN_OPTS, as for boot_lockshim.
#
# gpt_disk DISK PARTUUID SRC ESPPATH...
#     A GPT disk DISK whose one partition (unique GUID PARTUUID, from LBA
#     2048: mkgpt.py) is an ESP holding the files (make_esp), whose FAT image
#     stays beside it as DISK.fat.
#
# _expect_kernel_refused REASON [RECORD]
#     lockshim refused the kernel at $KPATH with REASON (and the record
#     RECORD), the kernel never ran, and the firmware got
#     EFI_SECURITY_VIOLATION back (expect_lockshim_returned, lib.sh).
#
# options_in VARS
#     "NNNN description|node|node|data" for each Boot#### in the store VARS
#     (mkdmpstore.py, mkloadoption.py --read); fails, saying why, when the
#     store or one of its options cannot be read: never "no options".
#
# Logs: build/qemu/logs/NAME.log (clean), NAME.log.raw (as QEMU wrote it),
# NAME.log.err (QEMU's stderr).

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/qemu/lib.sh
. tests/qemu/scenario.sh

LOCKSHIM_EFI=${LOCKSHIM_EFI:-build/lockshimx64.efi}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-90}
BOOT_WORK=$QEMU_BUILD/boot
BOOT_LOGS=$QEMU_BUILD/logs
BOOT_TEE=${BOOT_TEE:-0}
PKI=build/pki
MARKER='LOCKSHIM-TEST-MARKER: init reached'
KPATH='\EFI\BOOT\vmlinuz.efi'
# A CPU exception in firmware context (lockshim crashing, say) hangs with a
# register dump: stop on it at once instead of waiting for the timeout.
CRASH=$QEMU_CRASH

GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
LOCKSHIM_MISSING=
BOOT_RUN_OPTS=()
BOOT_ESP_EXTRA=()

# Build everything the scenarios share; on failure set PREP_ERROR (every
# scenario then fails with it) rather than stopping.
boot_prepare() {
	PREP_LOG=$BOOT_WORK/prepare.err
	mkdir -p "$BOOT_WORK" "$BOOT_LOGS"
	: >"$PREP_LOG"
	_prep "test PKI (tests/pki.sh)" tests/pki.sh "$PKI" &&
		_prep "OVMF variable stores (tests/qemu/vars.sh)" tests/qemu/vars.sh "$PKI" &&
		_prep "Debian kernel (tests/qemu/debian-kernel.sh)" tests/qemu/debian-kernel.sh &&
		_prep "initramfs (tests/initramfs/build.sh)" tests/initramfs/build.sh &&
		_prep "unsigned kernel" unsign_efi "$QEMU_BUILD/vmlinuz-debian" "$BOOT_WORK/kernel-unsigned.efi" &&
		_prep "vendor-signed kernel" sign_efi vendor "$BOOT_WORK/kernel-unsigned.efi" "$BOOT_WORK/kernel-vendor.efi" &&
		_prep "rogue-signed kernel" sign_efi rogue "$BOOT_WORK/kernel-unsigned.efi" "$BOOT_WORK/kernel-rogue.efi" ||
		return 1
	# The companion test kernel (kernel/build.sh, cached), for the scenarios
	# about what lockshim allows rather than about Debian's kernel: it
	# reaches /init a second after lockshim starts it, Debian's four (in TCG
	# it decompresses itself first).
	local kdir
	kdir=$(kernel/build.sh 2>>"$PREP_LOG") || { PREP_ERROR="kernel/build.sh failed"; return 1; }
	_prep "companion kernel" cp "$kdir/bzImage" "$BOOT_WORK/companion-unsigned.efi" || return 1
	local key
	for key in vendor db mok; do
		_prep "$key-signed companion kernel" \
			sign_efi "$key" "$kdir/bzImage" "$BOOT_WORK/companion-$key.efi" || return 1
	done

	rm -f "$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/lockshim-unsigned.efi"
	if [[ ! -s $LOCKSHIM_EFI ]]; then
		LOCKSHIM_MISSING="lockshim binary $LOCKSHIM_EFI does not exist (build it: make build/lockshimx64.efi, or set LOCKSHIM_EFI)"
		return 0
	fi
	_prep "db-signed lockshim" sign_efi db "$LOCKSHIM_EFI" "$BOOT_WORK/lockshim-db.efi" &&
		_prep "unsigned lockshim" unsign_efi "$LOCKSHIM_EFI" "$BOOT_WORK/lockshim-unsigned.efi"
}

boot_lockshim() {
	local name=$1 vars=$2 loader=$3 kernel=$4 grace=$5; shift 5
	local -a stops=() tee=()
	local s
	for s in "$@" "$CRASH"; do stops+=(--stop "$s"); done
	(( BOOT_TEE )) && tee=(--tee)
	make_esp "$BOOT_WORK/$name.img" \
		"$loader" EFI/BOOT/BOOTX64.EFI \
		"$kernel" EFI/BOOT/vmlinuz.efi \
		build/initramfs/initrd.img EFI/BOOT/initrd.img "${BOOT_ESP_EXTRA[@]}" || return 1
	run_qemu --esp "$BOOT_WORK/$name.img" --vars "$vars" \
		--log "$BOOT_LOGS/$name.log" --timeout "$QEMU_TIMEOUT" \
		--grace "$grace" "${stops[@]}" "${tee[@]}" "${BOOT_RUN_OPTS[@]}"
	local rc=$?
	rm -f "$BOOT_WORK/$name.img"
	qemu_outcome "$name" "no stop condition ($*)" || return 1
	return $rc
}

boot_disk() {
	local name=$1 vars=$2 image=$3 s
	shift 3
	local -a stops=() tee=()
	for s in "$@" "$CRASH" 'Kernel panic' 'MOKUTIL-GUEST-ERROR' 'No bootable option'; do stops+=(--stop "$s"); done
	(( BOOT_TEE )) && tee=(--tee)
	run_qemu --esp "$image" --vars "$vars" --persist --log "$BOOT_LOGS/$name.log" \
		--timeout "$QEMU_TIMEOUT" "${stops[@]}" "${tee[@]}" "${BOOT_RUN_OPTS[@]}"
	local rc=$?
	qemu_outcome "$name" || return 1
	return $rc
}

gpt_disk() {
	local out=$1 partuuid=$2
	shift 2
	make_esp "$out.fat" "$@" && python3 tests/qemu/mkgpt.py "$out" "$out.fat" "$partuuid"
}

# Shared by b and c: lockshim says why it refuses, the kernel's EFI stub never
# runs, and the firmware gets EFI_SECURITY_VIOLATION back from lockshim.
# _expect_kernel_refused REASON [RECORD]: the sentence says REASON and, when
# given, the record line after it says RECORD after the image (reason=CODE
# and what follows; src/core/verdict_reason.h).
_expect_kernel_refused() {
	local reason=$1 record=${2:-}
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "lockshim: refusing $KPATH: $reason" &&
		{ [[ -z $record ]] ||
			expect_order -F "lockshim: refusing $KPATH: $reason" \
				"lockshim: verdict=refused image=$KPATH $record"; } &&
		expect_no_log -F "lockshim: booting" &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F "$MARKER" &&
		expect_lockshim_returned 'Security Violation'
}

options_in() {
	local vars=$1 list name bin fields
	list=$(python3 tests/qemu/mkdmpstore.py --list "$vars") ||
		{ echo "FAIL: cannot read the boot options of $vars" >&2; return 1; }
	bin=$(mktemp) || return 1
	for name in $(cut -d' ' -f1 <<<"$list" | grep -E '^Boot[0-9A-F]{4}$'); do
		if ! python3 tests/qemu/mkdmpstore.py --dump "$vars" "$name" "$GLOBAL_GUID" >"$bin" ||
			! fields=$(python3 tests/qemu/mkloadoption.py --read "$bin"); then
			echo "FAIL: cannot read $name of $vars" >&2
			rm -f "$bin"
			return 1
		fi
		printf '%s %s\n' "${name#Boot}" "$(grep -v '^data-hex' <<<"$fields" | paste -sd'|')"
	done
	rm -f "$bin"
}
