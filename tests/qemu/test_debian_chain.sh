#!/usr/bin/env bash
# Debian's own signed chain with lockshim in shim's place, Secure Boot on:
#
#   OVMF (test PK/KEK/db) -> Boot0001 \EFI\debian\lockshimx64.efi (Debian's
#   vendor certificate and dbx, DEFAULT_LOADER=grubx64.efi, signed with db)
#   -> \EFI\debian\grubx64.efi (Debian's grubx64.efi.signed, untouched),
#   which reads \EFI\debian\grub.cfg and asks lockshim's SHIM_LOCK protocol
#   to verify the kernel -> \boot\vmlinuz -> the test initramfs.
#
#   tests/qemu/test_debian_chain.sh [SCENARIO...]     (default: all)
#
#   debian_chain_boots           Debian's signed kernel as shipped boots and
#                                reaches /init locked down ([integrity]);
#                                lockshim serves no initrd of its own to
#                                GRUB (a decoy initrd.img lies beside it)
#   debian_rogue_kernel_refused  the kernel re-signed by a key trusted
#                                nowhere: lockshim refuses it, GRUB says so
#   debian_dbx_kernel_refused    Debian's kernel with its hash in dbx: refused
#   debian_mok_kernel_boots      the kernel signed only by an enrolled MOK key
#                                (MokList): boots
#
# The ESP layout and the Debian build of lockshim: tests/qemu/debian-chain.sh.
# Environment: QEMU_TIMEOUT (default 120), DEBIAN_CHAIN_TEE=1 to show each
# console live. Logs: build/qemu/logs/NAME.log. Scenarios run through
# tests/qemu/scenario.sh.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/qemu/lib.sh
. tests/qemu/scenario.sh
. tests/qemu/debian-chain.sh

QEMU_TIMEOUT=${QEMU_TIMEOUT:-120}
DEBIAN_CHAIN_TEE=${DEBIAN_CHAIN_TEE:-0}
CHAIN_WORK=$QEMU_BUILD/debian-chain
CHAIN_LOGS=$QEMU_BUILD/logs
PKI=build/pki
MOK_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
MARKER='LOCKSHIM-TEST-MARKER: init reached'
CMDLINE='console=ttyS0 panic=-1'
LOCKSHIM_ENTRY='BdsDxe: starting Boot0001 "debian" from \EFI\debian\lockshimx64.efi'
GRUB_VERDICT='lockshim: booting \EFI\debian\grubx64.efi: signed by /CN=Debian Secure Boot Signer 2022 - grub2, trusted through vendor certificate /CN=Debian Secure Boot CA'
# GRUB's own words when the protocol refuses the kernel (grub2's
# shim_lock verifier).
GRUB_REFUSAL='error: bad shim signature.'
# Stop at once when the guest is done, crashed, or GRUB gave up; on a GRUB
# error the rest of its messages come within the grace period.
STOPS=('LOCKSHIM-TEST-DONE' '^error: ' 'Press any key to continue' "$QEMU_CRASH" 'No bootable option')

# GRUB or systemd-boot holds the kernel and its initrd while the kernel
# decompresses itself: more memory than the default (lib.sh).
QEMU_MEMORY=512

SCENARIOS=(
	debian_chain_boots
	debian_rogue_kernel_refused
	debian_dbx_kernel_refused
	debian_mok_kernel_boots
)

VARS_CHAIN='' VARS_DBX='' VARS_MOK=''

chain_prepare() {
	PREP_LOG=$CHAIN_WORK/prepare.err
	mkdir -p "$CHAIN_WORK" "$CHAIN_LOGS"
	: >"$PREP_LOG"
	local lockshim
	_prep "test PKI (tests/pki.sh)" tests/pki.sh "$PKI" &&
		_prep "initramfs (tests/initramfs/build.sh)" tests/initramfs/build.sh &&
		_prep "Debian's kernel as shipped (tests/qemu/debian-kernel.sh)" \
			tests/qemu/debian-kernel.sh --as-shipped "$CHAIN_WORK/kernel-debian.efi" &&
		_prep "Debian's GRUB (grub-efi-amd64-signed)" debian_chain_grub &&
		_prep "unsigned kernel" unsign_efi "$CHAIN_WORK/kernel-debian.efi" "$CHAIN_WORK/kernel-unsigned.efi" &&
		_prep "rogue-signed kernel" sign_efi rogue "$CHAIN_WORK/kernel-unsigned.efi" "$CHAIN_WORK/kernel-rogue.efi" &&
		_prep "MOK-signed kernel" sign_efi mok "$CHAIN_WORK/kernel-unsigned.efi" "$CHAIN_WORK/kernel-mok.efi" &&
		_prep "grub.cfg" debian_chain_grub_cfg "$CHAIN_WORK/grub.cfg" "$CMDLINE" &&
		_prep "Boot0001" debian_chain_boot_entry "$CHAIN_WORK/Boot0001.bin" lockshimx64.efi ||
		return 1
	lockshim=$(debian_chain_lockshim "$DEBIAN_CHAIN_BUILD" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="lockshim with Debian's vendor certificate failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 1; }
	_prep "db-signed lockshim" sign_efi db "$lockshim" "$CHAIN_WORK/lockshim-db.efi" || return 1
	VARS_CHAIN=$(chain_vars debian-chain) &&
		VARS_DBX=$(chain_vars debian-chain-dbx --dbx-hash "$CHAIN_WORK/kernel-debian.efi") &&
		VARS_MOK=$(chain_vars debian-chain-mok --var "MokList:$MOK_GUID:0x3:$PKI/mok.esl") ||
		PREP_ERROR="tests/qemu/vars.sh failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

# chain_vars NAME [vars.sh ARGS...]: a Secure Boot store whose only boot
# entry is Boot0001 (lockshim), plus ARGS; prints its path.
chain_vars() {
	local name=$1; shift
	tests/qemu/vars.sh --variant "$name" "${DEBIAN_CHAIN_BOOT_VARS[@]}" "$@" "$PKI" 2>>"$PREP_LOG" | tail -n1
}

# chain_boot NAME VARS KERNEL: the chain with KERNEL as \boot\vmlinuz; the
# log is $CHAIN_LOGS/NAME.log ($LOG).
chain_boot() {
	local name=$1 vars=$2 kernel=$3 img=$CHAIN_WORK/$1.img s
	local -a opts=()
	for s in "${STOPS[@]}"; do opts+=(--stop "$s"); done
	(( DEBIAN_CHAIN_TEE )) && opts+=(--tee)
	debian_chain_esp "$img" lockshimx64.efi "$CHAIN_WORK/lockshim-db.efi" "$CHAIN_WORK/grub.cfg" \
		"$kernel" boot/vmlinuz build/initramfs/initrd.img boot/initrd.img || return 1
	# Where lockshim looks for a kernel's default initrd: a kernel that got
	# this instead of GRUB's would never reach /init.
	echo "not an initramfs" | mcopy -i "$img" - "::/$DEBIAN_CHAIN_GRUB_DIR/initrd.img" || return 1
	run_qemu --esp "$img" --vars "$vars" --log "$CHAIN_LOGS/$name.log" --timeout "$QEMU_TIMEOUT" \
		--grace 2 "${opts[@]}"
	local rc=$?
	rm -f "$img"
	qemu_outcome "$name" || return 1
	return $rc
}

# What every run shows up to GRUB: the firmware starts lockshim from the
# boot entry, Secure Boot is enforced, lockshim verifies GRUB (its default
# loader) through Debian's CA and GRUB runs grub.cfg.
_expect_grub_started() {
	expect_log -F "$LOCKSHIM_ENTRY" &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "$GRUB_VERDICT" &&
		expect_log -F 'LOCKSHIM-GRUB: loading /boot/vmlinuz' &&
		expect_order -F "$GRUB_VERDICT" 'LOCKSHIM-GRUB: loading /boot/vmlinuz'
}

# How lockshim names what GRUB hands to SHIM_LOCK's Verify: KERNEL's bytes.
_verified() {
	echo "image from the second stage ($(stat -c %s "$1") bytes)"
}

# chain_boots NAME VARS KERNEL VERDICT: GRUB asked lockshim about KERNEL
# (Verify), which allowed it with VERDICT, and the kernel reached /init,
# locked down.
chain_boots() {
	local name=$1 vars=$2 kernel=$3 verdict=$4 allowed
	chain_boot "$name" "$vars" "$kernel" || return 1
	allowed="lockshim: allowing $(_verified "$kernel"): $verdict"
	_expect_grub_started &&
		expect_log -F "$allowed" &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_no_log '^error: ' &&
		expect_no_log 'lockshim: (no )?initrd' &&
		expect_order -F 'LOCKSHIM-GRUB: loading /boot/vmlinuz' "$allowed" &&
		expect_order -F "$allowed" 'LOCKSHIM-GRUB: booting' &&
		expect_log -F 'Kernel is locked down from EFI Secure Boot' &&
		expect_log -F "$MARKER" &&
		expect_log -F 'LOCKSHIM-TEST-LOCKDOWN: none [integrity] confidentiality' &&
		expect_order -F 'LOCKSHIM-GRUB: booting' "$MARKER"
}

# chain_refuses NAME VARS KERNEL REASON RECORD: lockshim refused KERNEL,
# which GRUB asked about, for REASON, with the record's RECORD (its reason=
# and what follows, verdict_reason.h); GRUB reported it; the kernel never ran.
chain_refuses() {
	local name=$1 vars=$2 kernel=$3 reason=$4 record=$5 refused
	chain_boot "$name" "$vars" "$kernel" || return 1
	refused="lockshim: refusing $(_verified "$kernel"): $reason"
	_expect_grub_started &&
		expect_log -F "$refused" &&
		expect_log -F "lockshim: verdict=refused image=buffer:$(stat -c %s "$kernel") $record" &&
		expect_no_log -F 'lockshim: allowing' &&
		expect_log -F "$GRUB_REFUSAL" &&
		expect_order -F "$refused" "$GRUB_REFUSAL" &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F 'Linux version' &&
		expect_no_log -F "$MARKER"
}

# a. Debian's chain as the packages ship it.
debian_chain_boots() {
	chain_boots "${FUNCNAME[0]}" "$VARS_CHAIN" "$CHAIN_WORK/kernel-debian.efi" \
		'signed by /CN=Debian Secure Boot Signer 2022 - linux, trusted through vendor certificate /CN=Debian Secure Boot CA'
}

# b. A kernel signed by a key that neither Debian's CA nor db nor MokList trusts.
debian_rogue_kernel_refused() {
	chain_refuses "${FUNCNAME[0]}" "$VARS_CHAIN" "$CHAIN_WORK/kernel-rogue.efi" \
		'signer does not chain to a trusted certificate' 'reason=untrusted-signer'
}

# b. Debian's own kernel, which a. boots, revoked by its hash in dbx.
debian_dbx_kernel_refused() {
	chain_refuses "${FUNCNAME[0]}" "$VARS_DBX" "$CHAIN_WORK/kernel-debian.efi" \
		'image SHA-256 digest is in dbx' 'reason=deny-digest list=dbx'
}

# b. A kernel signed only by the machine owner's enrolled key.
debian_mok_kernel_boots() {
	chain_boots "${FUNCNAME[0]}" "$VARS_MOK" "$CHAIN_WORK/kernel-mok.efi" \
		'signed by /CN=lockshim test mok, trusted through MokList certificate /CN=lockshim test mok'
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main chain_prepare "$@"
fi
