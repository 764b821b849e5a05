#!/usr/bin/env bash
# Kernel lockdown: command-line parameters that would reach physical memory
# are refused once the kernel is locked down, also when they were parsed
# before the lock was decided.
#
#   tests/qemu/test_lockdown_params.sh [SCENARIO...]     (default: all, in order)
#
#   sb_on_lockshim_memmap_pram_refused  SB on, lockshim's table:
#                       memmap=SIZE!START over the firmware's first EFI
#                       Runtime Code range (learnt from an efi=debug boot of
#                       the same chain), and firewire_ohci.remote_dma=1:
#                       both ignored, no /dev/pmem*
#   sb_on_lockshim_earlycon_mmio_refused  SB on, lockshim's table:
#                       earlycon=uart8250,mmio,BAR keep_bootcon, BAR a page of
#                       host memory (QEMU's ivshmem-plain): the console is
#                       unregistered before user space, not kept
#   stubless_sb_on_efivar_ssdt_refused  SB on, no EFI stub (the lock is
#                       decided after the command line is parsed), an SSDT in
#                       an EFI variable named by efivar_ssdt=: not loaded
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log (and lockdown-NAME-map.log, the boot
# that learnt the addresses). Environment, how the kernel is started, and
# the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	sb_on_lockshim_memmap_pram_refused
	sb_on_lockshim_earlycon_mmio_refused
	stubless_sb_on_efivar_ssdt_refused
)

SSDT_VAR=LSSSDT
SSDT_GUID=85eec472-a2a6-46f8-872c-ff2ce741ed81
SSDT_VARS=$LD_WORK/vars-secboot-ssdt.fd
# A page of host memory the guest sees as a PCI BAR, every byte 0x60: read
# as a 16550's line status register, "transmitter empty", so a console
# there never waits.
SHMEM=$LD_WORK/ivshmem.bin

# lockdown.sh's preparation, then Secure Boot VARS with the test SSDT in an
# EFI variable (NV|BS|RT, as efivar_ssdt_load() finds it at runtime).
params_prepare() {
	lockdown_prepare || return 1
	_prep "the test SSDT" test_ssdt "$LD_WORK/ssdt.aml" &&
		_prep "VARS with the SSDT variable" ssdt_vars
}

ssdt_vars() {
	local path
	path=$(tests/qemu/vars.sh --variant lockdown-efivar-ssdt \
		--var "$SSDT_VAR:$SSDT_GUID:0x7:$LD_WORK/ssdt.aml" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$SSDT_VARS"
}

# _lockshim_boot NAME OPTIONS: Secure Boot on, MokList enrolled: launch.efi
# (db-signed, as a boot entry) starts lockshim with OPTIONS after the
# kernel's name; lockshim verifies the vendor-signed kernel and locks it.
_lockshim_boot() {
	local name=$1 options=$2
	need_lockshim || return 1
	lockdown_boot "$name" "$SB_MOK_VARS" "$LD_WORK/launch-db.efi" "$LD_WORK/kernel-vendor.efi" \
		"image=\\EFI\\BOOT\\lockshim.efi"$'\n'"options=vmlinuz.efi $options" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/lockshim.efi
}

# The lock the table asked for, and the command line as the kernel saw it.
_expect_locked_with() {
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "PROBE cmdline info console=ttyS0 $1" &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_locked
}

# runtime_code_range LOG: the first EFI Runtime Code range of the memory
# map that efi=debug printed, as SIZE!START for memmap= (hex).
runtime_code_range() {
	LC_ALL=C sed -nE 's/.*efi: mem[0-9]+: \[Runtime Code[^]]*\] range=\[0x([0-9a-f]+)-0x([0-9a-f]+)\].*/\1 \2/p' "$1" |
		head -n1 | { read -r start end && [[ -n $start ]] &&
			printf '0x%x!0x%x\n' $(( 16#$end - 16#$start + 1 )) $(( 16#$start )); }
}

# memmap=nn!ss makes its range persistent memory (e820 type 12), which wins
# over the firmware's type, and the pmem driver offers it as /dev/pmem0 for
# root to write: here the firmware's runtime code, which the next runtime
# call would run. The range comes from a first boot with efi=debug, and the
# second boot (efi=debug too) must show it is still runtime code there.
sb_on_lockshim_memmap_pram_refused() {
	local name=${FUNCNAME[0]} range
	_lockshim_boot "$name-map" "efi=debug" || return 1
	range=$(runtime_code_range "$LOG") ||
		{ echo "FAIL: no Runtime Code range in the efi=debug map of $LOG" >&2; return 1; }
	local opts="efi=debug memmap=$range firewire_ohci.remote_dma=1"
	_lockshim_boot "$name" "$opts" || return 1
	[[ $(runtime_code_range "$LOG") == "$range" ]] ||
		{ echo "FAIL: the first Runtime Code range moved: $range before, $(runtime_code_range "$LOG") now" >&2; return 1; }
	_expect_locked_with "$opts" &&
		expect_log -F "e820: memmap=$range ignored: the kernel is locked down" &&
		expect_no_log -F 'user-defined physical RAM map' &&
		expect_probe pmem absent &&
		expect_log -F 'firewire_ohci: remote_dma=1 ignored: the kernel is locked down' &&
		expect_probe param:firewire_ohci.remote_dma info '^PROBE [^ ]+ info N$'
}

# ivshmem_bar LOG: the guest-physical address of the ivshmem device's BAR 2
# (its shared memory), from the kernel's PCI enumeration.
ivshmem_bar() {
	local bdf
	bdf=$(LC_ALL=C sed -nE 's/.*pci ([0-9a-f:.]+): \[1af4:1110\].*/\1/p' "$1" | head -n1) &&
		[[ -n $bdf ]] &&
		LC_ALL=C sed -nE "s/.*pci $bdf: BAR 2 \\[mem (0x[0-9a-f]+)-.*/\\1/p" "$1" | head -n1 | grep .
}

# earlycon=uart8250,mmio,ADDR maps ADDR and writes the whole log to it;
# keep_bootcon keeps that console once the real one exists, so every line
# user space writes to /dev/kmsg (the probe writes one) lands at an address
# root chose. ADDR is host memory (ivshmem), where the console works.
sb_on_lockshim_earlycon_mmio_refused() {
	local name=${FUNCNAME[0]} bar
	python3 -c 'import sys; open(sys.argv[1], "wb").write(b"\x60" * 4096)' "$SHMEM" || return 1
	local -a LD_RUN_OPTS=(-- -object "memory-backend-file,id=lsshm,share=on,mem-path=$SHMEM,size=4K"
		-device "ivshmem-plain,memdev=lsshm")
	_lockshim_boot "$name-map" "" || return 1
	bar=$(ivshmem_bar "$LOG") || { echo "FAIL: no ivshmem BAR 2 in $LOG" >&2; return 1; }
	local opts="earlycon=uart8250,mmio,$bar keep_bootcon"
	_lockshim_boot "$name" "$opts" || return 1
	[[ $(ivshmem_bar "$LOG") == "$bar" ]] ||
		{ echo "FAIL: the ivshmem BAR moved: $bar before, $(ivshmem_bar "$LOG") now" >&2; return 1; }
	# The console did register, at that address (%pa: zero-padded), before
	# the lock took it: the serial console starts after it (keep_bootcon),
	# so the probe reads that line back from the kernel log.
	local at="at MMIO 0x0*${bar#0x}"
	_expect_locked_with "$opts" &&
		expect_log "PROBE bootlog line earlycon: uart[0-9]* $at \\(options ''\\)" &&
		expect_log "earlycon: uart[0-9]* $at from the command line unregistered: the kernel is locked down" &&
		expect_log -F 'PROBE console:ttyS0 info ' &&
		expect_no_log -F 'PROBE console:uart'
}

# No EFI stub: the lock is decided once runtime services are up, after the
# command line was parsed; efivar_ssdt= was accepted then, and the SSDT in
# the variable must still not be loaded.
stubless_sb_on_efivar_ssdt_refused() {
	lockdown_boot "${FUNCNAME[0]}" "$SSDT_VARS" "$LD_WORK/launch-db.efi" "$LD_WORK/kernel-unsigned.efi" \
		"entry=boot-protocol"$'\n'"initrd=\\EFI\\BOOT\\initrd.img"$'\n'"options=stubless=1 efivar_ssdt=$SSDT_VAR" ||
		return 1
	expect_log -F 'launch: firmware SecureBoot=1; boot_params.secure_boot left 0 (unset)' &&
		expect_log -F "PROBE cmdline info console=ttyS0 stubless=1 efivar_ssdt=$SSDT_VAR" &&
		expect_bootlog 'no table, Secure Boot on (asked the firmware): locking down' &&
		expect_locked &&
		expect_log -F "efi: efivar_ssdt=$SSDT_VAR ignored: the kernel is locked down" &&
		expect_no_log -F 'efi: loading SSDT from variable' &&
		expect_no_log "ACPI: SSDT 0x[0-9A-F]+ [0-9A-F]+ \\(v02 LOCKSH $ACPI_TABLE_ID" &&
		expect_probe "acpi_table:$ACPI_TABLE_ID" absent
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main params_prepare "$@"
fi
