#!/usr/bin/env bash
# Kernel lockdown: user-space drivers. A device that VFIO hands to user
# space behind an IOMMU reaches only the memory mapped for it, so a locked
# kernel allows it; what takes that isolation away stays refused: no-IOMMU
# mode, interrupts that are not remapped, UIO and /dev/mem.
#
#   tests/qemu/test_lockdown_vfio.sh [SCENARIO...]     (default: all, in order)
#
#   vfio_iommu_sb_on_lockshim     SB on, lockshim's table, intel_iommu=on:
#                                 vfio-pci works end to end, DMA included,
#                                 and a DMA to an unmapped IOVA does not
#                                 land; /dev/mem, UIO still refused
#   vfio_noiommu_sb_on_lockshim   the same without an IOMMU, and
#                                 vfio.enable_unsafe_noiommu_mode=1: binding
#                                 vfio-pci refused, no no-IOMMU group
#   vfio_unsafe_interrupts_sb_on_lockshim  the IOMMU without interrupt
#                                 remapping (intremap=off) and
#                                 vfio_iommu_type1.allow_unsafe_interrupts=1:
#                                 VFIO_SET_IOMMU refused
#   vfio_noiommu_unlocked         launch.efi, SB off, no table, no IOMMU,
#                                 no-IOMMU mode: the group opens and BAR0
#                                 maps, what the lock refuses above
#
# The device is QEMU's edu (-device edu), which the probe binds to vfio-pci
# (tests/guest/probe_vfio.c); the IOMMU is QEMU's intel-iommu with
# interrupt remapping (run_qemu --iommu). lockshim is started by launch.efi
# with the command line in its load options, as a boot entry would.
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	vfio_iommu_sb_on_lockshim
	vfio_noiommu_sb_on_lockshim
	vfio_unsafe_interrupts_sb_on_lockshim
	vfio_noiommu_unlocked
)

EDU=(-- -device edu)

# _lockshim_vfio NAME OPTIONS: Secure Boot on, MokList enrolled, lockshim
# started by launch.efi with the kernel's command line OPTIONS; the run_qemu
# options are the caller's LD_RUN_OPTS.
_lockshim_vfio() {
	need_lockshim || return 1
	lockdown_boot "$1" "$SB_MOK_VARS" "$LD_WORK/launch-db.efi" "$LD_WORK/kernel-vendor.efi" \
		"image=\\EFI\\BOOT\\lockshim.efi"$'\n'"options=vmlinuz.efi $2" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/lockshim.efi || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "PROBE cmdline info console=ttyS0 $2" &&
		expect_bootlog 'locked down (Secure Boot, table v3)'
}

# The IOMMU translates (DMA remapping) and remaps interrupts.
_expect_iommu() {
	expect_log '^\[ *[0-9.]+\] DMAR: Intel\(R\) Virtualization Technology for Directed I/O$'
}

# _expect_vfio_device NODE IOMMU [BIND_ERE]: the probe bound edu to vfio-pci
# (its line matching BIND_ERE), opened its group /dev/vfio/NODE (an ERE),
# set the container's IOMMU to IOMMU, got the device and mapped its BAR0.
_expect_vfio_device() {
	expect_probe vfio:bind allowed "${3:-}" &&
		expect_probe vfio:open_group allowed "open\\(/dev/vfio/$1\\)" &&
		expect_probe vfio:set_container allowed &&
		expect_probe vfio:set_iommu allowed "$2" &&
		expect_probe vfio:device_fd allowed &&
		expect_probe vfio:mmap_bar0 allowed 'id=0x010000ed '
}

# _expect_vfio_refused CHECK NEXT: lockdown refused CHECK (EPERM, and its
# message), the probe went no further (no NEXT line), and all else is locked.
_expect_vfio_refused() {
	expect_probe "$1" refused 'errno=EPERM.*lockdown_msg=yes' &&
		expect_no_log -F "PROBE $2 " &&
		expect_locked
}

vfio_iommu_sb_on_lockshim() {
	local -a LD_RUN_OPTS=(--iommu "${EDU[@]}")
	_lockshim_vfio "${FUNCNAME[0]}" "intel_iommu=on" || return 1
	_expect_iommu &&
		expect_log '^\[ *[0-9.]+\] DMAR-IR: Enabled IRQ remapping in [a-z0-9]+ mode$' &&
		_expect_vfio_device '[0-9]+' VFIO_TYPE1v2_IOMMU &&
		expect_probe vfio:map_dma allowed &&
		expect_probe vfio:dma allowed 'landed=yes' &&
		expect_probe vfio:dma_unmapped refused 'landed=no .*DMAR: .*fault addr 0x200000' &&
		expect_no_log -F 'vfio-noiommu' &&
		expect_locked
}

vfio_noiommu_sb_on_lockshim() {
	local -a LD_RUN_OPTS=("${EDU[@]}")
	_lockshim_vfio "${FUNCNAME[0]}" "vfio.enable_unsafe_noiommu_mode=1" || return 1
	expect_no_log -F 'vfio-noiommu' &&
		_expect_vfio_refused vfio:bind vfio:open_group
}

vfio_unsafe_interrupts_sb_on_lockshim() {
	local -a LD_RUN_OPTS=(--iommu "${EDU[@]}")
	_lockshim_vfio "${FUNCNAME[0]}" \
		"intel_iommu=on intremap=off vfio_iommu_type1.allow_unsafe_interrupts=1" || return 1
	_expect_iommu &&
		expect_no_log 'DMAR-IR: Enabled IRQ remapping' &&
		expect_probe vfio:bind allowed &&
		expect_probe vfio:open_group allowed 'open\(/dev/vfio/[0-9]+\)' &&
		expect_probe vfio:set_container allowed &&
		_expect_vfio_refused vfio:set_iommu vfio:device_fd
}

vfio_noiommu_unlocked() {
	local -a LD_RUN_OPTS=("${EDU[@]}")
	launch_kernel "${FUNCNAME[0]}" "vfio.enable_unsafe_noiommu_mode=1" || return 1
	expect_bootlog 'no table' &&
		_expect_vfio_device 'noiommu-[0-9]+' VFIO_NOIOMMU_IOMMU \
			'Adding kernel taint for vfio-noiommu group' &&
		expect_probe vfio:map_dma untested &&
		expect_unlocked
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main lockdown_prepare "$@"
fi
