#!/usr/bin/env bash
# `lockshim install` on a live machine, then the firmware's own boot of
# what it wrote: a Debian guest booted through lockshim (Boot0001, lockshim
# at \EFI\lockshim\) under Secure Boot runs `lockshim install --vendor acme`
# with the live defaults: efivarfs (with the immutable flag efivarfs sets),
# the ESP mounted at /boot/efi, its partition from sysfs and
# /dev/disk/by-partuuid. \EFI\acme\ already holds lockshim's default loader
# (the vendor-signed kernel as vmlinuz.efi), as a package would put it.
#
#   install_live
#     boot 1: the guest's dry run, then the install, exit 0, and check says
#             the next boot reaches the kernel through the new option (the
#             first number free: OVMF adds its own options at each boot);
#             the store then holds it, "acme", active, whose HD() is the
#             ESP's partition (number, start, size, GUID of the disk
#             mkgpt.py made), first in BootOrder, Boot0001 next.
#     boot 2: that store and that disk: OVMF starts the new option, the
#             firmware accepts \EFI\acme\lockshimx64.efi and lockshim starts
#             \EFI\acme\vmlinuz.efi, whose kernel runs.
#
# Environment: LOCKSHIM_EFI, QEMU_TIMEOUT, BOOT_TEE as for test_boot.sh.

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

SCENARIOS=(
	install_live
)

INSTALL_WORK=$QEMU_BUILD/install
GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
INSTALL_PARTUUID=0c4e5a1d-5e5f-4c0c-9d1a-6c6f636b7369
INSTALL_VARS=
# boot 2 starts the kernel without a command line (no serial console): its
# EFI stub's line on the firmware's console
KERNEL_STARTED='EFI stub: '

install_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	local w=$INSTALL_WORK
	rm -rf "$w" && mkdir -p "$w"
	_prep "Boot0001" python3 tests/qemu/mkloadoption.py "$w/Boot0001.bin" debian \
		'\EFI\lockshim\lockshimx64.efi' 'debian.efi initrd=\boot\install-guest.img console=ttyS0 panic=-1' ||
		return 0
	printf '\x01\x00' >"$w/BootOrder.bin"
	INSTALL_VARS=$(tests/qemu/vars.sh --variant install-live \
		--var "Boot0001:$GLOBAL_GUID:0x7:$w/Boot0001.bin" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$w/BootOrder.bin" "$PKI" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="tests/qemu/vars.sh --variant install-live failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	_prep "install guest initramfs" tests/initramfs/mokutil-guest.sh \
		--module virtio_pci --module virtio_blk --module vfat --module nls_cp437 --module nls_ascii \
		--bin build/lockshim \
		--add "$BOOT_WORK/lockshim-db.efi:/data/lockshim.efi" \
		--add "$(dirname "$LOCKSHIM_EFI")/mmx64.efi:/data/mmx64.efi" \
		--steps tests/qemu/install-guest.sh "$w/guest.img" &&
		_prep "the machine's disk (GPT, its ESP)" gpt_disk "$w/esp.img" "$INSTALL_PARTUUID" \
			"$BOOT_WORK/lockshim-db.efi" EFI/lockshim/lockshimx64.efi \
			"$BOOT_WORK/kernel-vendor.efi" EFI/lockshim/debian.efi \
			"$BOOT_WORK/kernel-vendor.efi" EFI/acme/vmlinuz.efi \
			"$w/guest.img" boot/install-guest.img
}

# install_boot NAME VARS IMAGE STOP...: one boot of copies of VARS and
# IMAGE, kept as NAME.fd and NAME.img (what the boot wrote)
install_boot() {
	local name=$1 vars=$2 image=$3 w=$INSTALL_WORK
	shift 3
	cp "$vars" "$w/$name.fd" && cp "$image" "$w/$name.img" &&
		boot_disk "install-$name" "$w/$name.fd" "$w/$name.img" "$@"
}

install_live() {
	local w=$INSTALL_WORK sectors options n order
	install_boot guest "$INSTALL_VARS" "$w/esp.img" 'MOKUTIL-GUEST-DONE' || return 1
	# the first free number: OVMF added its own options (UiApp, the shell...) at this boot
	n=$(sed -n 's/^| writing Boot\([0-9A-F]\{4\}\) "acme": \\EFI\\acme\\lockshimx64.efi$/\1/p' "$LOG")
	[[ -n $n ]] || { echo "FAIL: install wrote no option for \\EFI\\acme\\ (log: $LOG)" >&2; return 1; }
	expect_log -F 'MOKUTIL-GUEST-EFIVARFS ok' && expect_log -F 'MOKUTIL-GUEST-DONE' &&
		expect_log -F 'INSTALL-RC dry-run 0' && expect_log -F "| would write BootOrder: $n,0001," &&
		expect_log -F '| check: the next boot reaches a kernel' &&
		expect_log -F 'INSTALL-RC install 0' && expect_log -F "| writing BootOrder: $n,0001," &&
		expect_log -F "| Boot$n \"acme\": boots: it boots \\EFI\\acme\\vmlinuz.efi" &&
		expect_log -F "| next boot: boots at Boot$n" && expect_log -F 'INSTALL-RC check 0' || return 1
	# the option as the firmware reads it: HD() of the partition mkgpt.py made
	sectors=$(($(stat -c %s "$w/esp.img.fat") / 512))
	options=$(options_in "$w/guest.fd") || return 1
	if [[ $options != *"$n attributes 0x1|description acme|node HD(1,GPT,$INSTALL_PARTUUID,0x800,$(printf '%#x' "$sectors"))|node File(\EFI\acme\lockshimx64.efi)|data none"* ]]; then
		echo "FAIL: Boot$n is not the ESP's option: $options" >&2
		return 1
	fi
	order=$(python3 tests/qemu/mkdmpstore.py --dump "$w/guest.fd" BootOrder "$GLOBAL_GUID" | od -An -tx1 | tr -d ' \n')
	[[ $order == "${n:2:2}${n:0:2}0100"* ]] || { echo "FAIL: BootOrder $order does not start $n,0001" >&2; return 1; }
	# the firmware boots it, and lockshim its default loader
	install_boot next "$w/guest.fd" "$w/guest.img" "$KERNEL_STARTED" || return 1
	expect_log -F "BdsDxe: starting Boot$n \"acme\" from HD(1,GPT,${INSTALL_PARTUUID^^},0x800," &&
		expect_log -F 'lockshim: verdict=allowed image=\EFI\acme\vmlinuz.efi reason=allowed-cert list=vendor' &&
		expect_log "$KERNEL_STARTED"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main install_prepare "$@"
fi
