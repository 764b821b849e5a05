#!/usr/bin/env bash
# The fallback (src/efi/efi_fallback.c): lockshim started by the firmware
# from the removable path \EFI\BOOT\BOOTX64.EFI creates the boot options a
# distribution's \EFI\<vendor>\BOOTX64.CSV asks for, puts them first in
# BootOrder and boots through the first at once, without a reset.
#
#   tests/qemu/test_fallback.sh [SCENARIO...]     (default: all)
#
# Every disk is GPT (tests/qemu/mkgpt.py, partition $FB_PARTUUID): a boot
# option names its partition. The vendor directory is $FB_VENDOR, a name
# lockshim knows nothing of; its CSV is as Debian writes its own (UCS-2, no
# byte order mark, LF) and names lockshimx64.efi (lockshim signed by db)
# with the options "companion.efi": the companion kernel beside it.
#
#   fallback_creates_entry   VARS without boot options (OVMF boots the
#       disk's removable path by itself). Boot 1: lockshim creates
#       Boot####, exactly the bytes efibootmgr would write (read back
#       offline: description, HD() with the partition, file, options), puts
#       it first in BootOrder and the kernel boots through it; the lockshim
#       it starts replaces the first one's SHIM_LOCK, as shim does. Boot 2, the
#       same VARS: the firmware itself loads that option; no fallback line.
#   fallback_broken_csv      Two vendor directories: Alpha's CSV (BOM, CRLF)
#       names a valid file and a missing one, Beta's one signed by the
#       rogue key, which db does not allow; Gamma has only a BOOT.CSV
#       (which shim's fallback reads) naming a valid file. Nothing is
#       created (no option in the store names any of them, Gamma is never
#       mentioned), each refusal is said, and
#       lockshim boots its own next stage (\EFI\BOOT\vmlinuz.efi).
#   fallback_existing_entry  Boot0007 already starts the CSV's file (the
#       short form efibootmgr can write, a lone file path) and BootOrder
#       already starts with it; BootNext sends the firmware to the disk's
#       removable path (Boot0001, which OVMF creates). root left a
#       LockshimFallback (NV|BS|RT), which is not lockshim's once-a-boot
#       mark: deleted, said, and the fallback goes on: nothing is created,
#       BootOrder is left as it is (said "unchanged", not written), and the
#       kernel boots through 0007. (Boot0007, not Boot0001: edk2 numbers
#       its own options from 0000 by BootOrder alone, and would write over a
#       Boot0001 that BootOrder does not name.)
#   fallback_policy          The owner set MokDBState (stop trusting db);
#       root put \EFI\Evil\BOOTX64.CSV naming a db-signed kernel and left
#       no BootOrder. The fallback decides with lockshim's policy, after the
#       hand-off: the kernel is refused, no option names it, nothing starts.
#       With a vendor-signed kernel in its place the option is created and
#       the kernel boots after the hand-off (the table in its log). Before
#       each boot `lockshim check` on the same ESP and variables (as the OS
#       sees them) predicts it, held by check_boots.py against the log.
#   fallback_once_a_boot     Loop's CSV names lockshim with the options
#       "\EFI\BOOT\BOOTX64.EFI": the option created starts a lockshim that
#       starts the removable path again. That third lockshim finds the
#       once-a-boot mark, says so, and boots its own next stage: one
#       option created, one started, the kernel booted.
#   fallback_removable_medium The vendor's disk as a USB stick the firmware
#       calls removable: lockshim writes no boot option for a medium that
#       may be gone at the next boot (or a stranger's), says so, and boots
#       as without the fallback.
#
# Environment: LOCKSHIM_EFI, QEMU_TIMEOUT, BOOT_TEE as for test_boot.sh.

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

SCENARIOS=(
	fallback_creates_entry
	fallback_broken_csv
	fallback_existing_entry
	fallback_policy
	fallback_removable_medium
	fallback_once_a_boot
)

FB_WORK=$QEMU_BUILD/fallback
LOCKSHIM_VENDOR_GUID=fa4589c8-983f-4879-98de-41989578e75d # src/core/guid.h
FB_PARTUUID=6c6f636b-7368-6662-9d1a-000000000027
FB_VENDOR=Acme-Linux
FB_LABEL='Acme Linux (lockshim)'
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23 # src/core/guid.h
DB_GUID=d719b2cb-3d3a-4596-a3bc-dad00e67656f     # EFI_IMAGE_SECURITY_DATABASE_GUID
FB_FILE="\\EFI\\$FB_VENDOR\\lockshimx64.efi"
FB_KERNEL="\\EFI\\$FB_VENDOR\\companion.efi"
FB_OPTIONS=companion.efi
# the kernel has started: the evidence every boot here stops on
KERNEL_STARTED='Linux version [0-9]'
# or the firmware saw lockshim (from the removable path or the option) return
# (not any failed start: under Secure Boot the firmware's shell fails first)
FB_RETURNED='BdsDxe: failed to start Boot[0-9A-F]{4} "(UEFI Misc Device|Acme Linux \(lockshim\))"'

# csv_file OUT TEXT [bom]: TEXT (with \r, \n escapes) as UCS-2 little-endian,
# after a byte order mark when asked.
csv_file() {
	python3 -c 'import sys
text = sys.argv[2].replace("\\r", "\r").replace("\\n", "\n")
bom = b"\xff\xfe" if sys.argv[3:] == ["bom"] else b""
open(sys.argv[1], "wb").write(bom + text.encode("utf-16-le"))' "$@"
}

# fb_disk NAME SRC ESPPATH...: $FB_WORK/NAME.img, a GPT disk whose one
# partition is a FAT ESP holding the files.
fb_disk() {
	local name=$1
	shift
	make_esp "$FB_WORK/$name.fat" "$@" &&
		python3 tests/qemu/mkgpt.py "$FB_WORK/$name.img" "$FB_WORK/$name.fat" "$FB_PARTUUID"
}

fallback_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	local w=$FB_WORK
	rm -rf "$w" && mkdir -p "$w"
	csv_file "$w/acme.csv" "lockshimx64.efi,$FB_LABEL,$FB_OPTIONS,the test's boot entry\n"
	csv_file "$w/alpha.csv" "lockshimx64.efi,Alpha,$FB_OPTIONS,valid\r\ngrubx64.efi,Alpha GRUB,,missing\r\n" bom
	csv_file "$w/beta.csv" "rogue.efi,Beta,,signed by the rogue key\n"
	csv_file "$w/loop.csv" "lockshimx64.efi,Loop,\\EFI\\BOOT\\BOOTX64.EFI,back to the removable path\n"
	csv_file "$w/gamma.csv" "lockshimx64.efi,Gamma,$FB_OPTIONS,BOOT.CSV: shim's fallback reads it, lockshim does not\n"
	local -a vendor=(
		"$BOOT_WORK/lockshim-db.efi" "EFI/$FB_VENDOR/lockshimx64.efi"
		"$w/acme.csv" "EFI/$FB_VENDOR/BOOTX64.CSV"
		"$BOOT_WORK/companion-vendor.efi" "EFI/$FB_VENDOR/companion.efi"
		build/initramfs/initrd.img "EFI/$FB_VENDOR/initrd.img"
	)
	_prep "rogue-signed lockshim" sign_efi rogue "$LOCKSHIM_EFI" "$w/lockshim-rogue.efi" &&
		_prep "disk: a vendor's CSV" fb_disk vendor-disk \
			"$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI "${vendor[@]}" &&
		_prep "disk: broken CSVs" fb_disk broken-disk \
			"$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
			"$BOOT_WORK/companion-vendor.efi" EFI/BOOT/vmlinuz.efi \
			build/initramfs/initrd.img EFI/BOOT/initrd.img \
			"$w/alpha.csv" EFI/Alpha/BOOTX64.CSV \
			"$BOOT_WORK/lockshim-db.efi" EFI/Alpha/lockshimx64.efi \
			"$w/beta.csv" EFI/Beta/BOOTX64.CSV \
			"$w/lockshim-rogue.efi" EFI/Beta/rogue.efi \
			"$w/gamma.csv" EFI/Gamma/BOOT.CSV \
			"$BOOT_WORK/lockshim-db.efi" EFI/Gamma/lockshimx64.efi &&
		_prep "disk: a CSV whose option leads back to the removable path" fb_disk loop-disk \
			"$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
			"$BOOT_WORK/companion-vendor.efi" EFI/BOOT/vmlinuz.efi \
			build/initramfs/initrd.img EFI/BOOT/initrd.img \
			"$w/loop.csv" EFI/Loop/BOOTX64.CSV \
			"$BOOT_WORK/lockshim-db.efi" EFI/Loop/lockshimx64.efi &&
		_prep "Boot0007" python3 tests/qemu/mkloadoption.py "$w/Boot0007.bin" "$FB_LABEL" \
			"$FB_FILE" "$FB_OPTIONS" &&
		_prep "VARS with Boot0007" cp "$QEMU_BUILD/vars-secboot.fd" "$w/existing-vars.fd" &&
		_prep "VARS with Boot0007" python3 tests/qemu/mkdmpstore.py --set "$w/existing-vars.fd" \
			"Boot0007:$GLOBAL_GUID:0x7=$w/Boot0007.bin" || return 0
	# the fallback's once-a-boot mark as root can write it (NV|BS|RT)
	printf '\x01' >"$w/one.bin"
	_prep "VARS with root's LockshimFallback" python3 tests/qemu/mkdmpstore.py --set \
		"$w/existing-vars.fd" "LockshimFallback:$LOCKSHIM_VENDOR_GUID:0x7=$w/one.bin" || return 0
	# BootOrder already 0007 first; BootNext the disk's own option, which
	# OVMF creates as Boot0001 (its removable path) before it boots BootNext
	printf '\x07\x00' >"$w/order-0007.bin" && printf '\x01\x00' >"$w/next-0001.bin"
	_prep "VARS with BootOrder 0007, BootNext 0001" python3 tests/qemu/mkdmpstore.py --set \
		"$w/existing-vars.fd" "BootOrder:$GLOBAL_GUID:0x7=$w/order-0007.bin" \
		"BootNext:$GLOBAL_GUID:0x7=$w/next-0001.bin" || return 0
	# fallback_policy: MokDBState as the MOK manager writes it (NV|BS); the
	# ESPs, and the variables as the OS sees them for lockshim check
	csv_file "$w/evil.csv" "kernel.efi,Evil,,root's kernel\n"
	_prep "VARS with MokDBState" cp "$QEMU_BUILD/vars-secboot.fd" "$w/db-ignored-vars.fd" &&
		_prep "VARS with MokDBState" python3 tests/qemu/mkdmpstore.py --set \
			"$w/db-ignored-vars.fd" "MokDBState:$SHIM_GUID:0x3=$w/one.bin" || return 0
	local key mk="python3 tests/cli/mkefivars.py"
	for key in db vendor; do
		mkdir -p "$w/evil-$key/esp/EFI/BOOT" "$w/evil-$key/esp/EFI/Evil" "$w/evil-$key/vars"
		cp "$BOOT_WORK/lockshim-db.efi" "$w/evil-$key/esp/EFI/BOOT/BOOTX64.EFI"
		cp "$w/evil.csv" "$w/evil-$key/esp/EFI/Evil/BOOTX64.CSV"
		cp "$BOOT_WORK/companion-$key.efi" "$w/evil-$key/esp/EFI/Evil/kernel.efi"
		cp build/initramfs/initrd.img "$w/evil-$key/esp/EFI/Evil/initrd.img"
		_prep "disk: Evil's CSV, $key kernel" fb_disk "evil-$key-disk" \
			"$w/evil-$key/esp/EFI/BOOT/BOOTX64.EFI" EFI/BOOT/BOOTX64.EFI \
			"$w/evil.csv" EFI/Evil/BOOTX64.CSV \
			"$BOOT_WORK/companion-$key.efi" EFI/Evil/kernel.efi \
			build/initramfs/initrd.img EFI/Evil/initrd.img &&
			_prep "efivars: MokDBState" $mk byte "$w/evil-$key/vars" SecureBoot "$GLOBAL_GUID" 0x6 1 &&
			_prep "efivars: MokDBState" $mk byte "$w/evil-$key/vars" SetupMode "$GLOBAL_GUID" 0x6 0 &&
			_prep "efivars: MokDBState" $mk var "$w/evil-$key/vars" db "$DB_GUID" 0x27 "$PKI/db.esl" &&
			_prep "efivars: MokDBState" $mk var "$w/evil-$key/vars" dbx "$DB_GUID" 0x27 "$PKI/revoked.esl" &&
			_prep "efivars: MokDBState" $mk byte "$w/evil-$key/vars" MokIgnoreDB "$SHIM_GUID" 0x6 1 ||
			return 0
	done
}

# fb_boot NAME VARS DISK STOP...: one boot of copies of VARS and DISK (kept
# as NAME.fd, NAME.img: what the boot wrote), stopped on a STOP; the disk a
# removable USB stick when FB_REMOVABLE=1.
fb_boot() {
	local name=$1 vars=$2 disk=$3 s
	shift 3
	local -a stops=() tee=()
	cp "$vars" "$FB_WORK/$name.fd" && cp "$disk" "$FB_WORK/$name.img" || return 1
	for s in "$@" "$CRASH" 'Kernel panic' 'No bootable option' "$FB_RETURNED"; do
		stops+=(--stop "$s")
	done
	(( BOOT_TEE )) && tee=(--tee)
	(( ${FB_REMOVABLE:-0} )) && tee+=(--removable)
	run_qemu --esp "$FB_WORK/$name.img" --vars "$FB_WORK/$name.fd" --persist \
		--log "$BOOT_LOGS/fallback-$name.log" --timeout "$QEMU_TIMEOUT" "${stops[@]}" "${tee[@]}"
	local rc=$?
	rm -f "$FB_WORK/$name.img"
	qemu_outcome "fallback-$name" || return 1
	return $rc
}

# boot_order_in VARS: BootOrder's numbers, comma-separated (empty: none).
boot_order_in() {
	python3 tests/qemu/mkdmpstore.py --dump "$1" BootOrder "$GLOBAL_GUID" 2>/dev/null |
		python3 -c 'import sys, struct
d = sys.stdin.buffer.read()
print(",".join("%04X" % n for n in struct.unpack("<%dH" % (len(d) // 2), d)))'
}

# expect_kernel_through FILE: the inner lockshim (FILE's) booted the companion kernel.
expect_kernel_through() {
	expect_order -F "lockshim: fallback: starting Boot$1 ($FB_FILE)" \
		"lockshim: booting $FB_KERNEL: " &&
		expect_order -F "lockshim: booting $FB_KERNEL: " 'Linux version'
}

fallback_creates_entry() {
	local w=$FB_WORK n opts order want sectors
	fb_boot creates-1 "$QEMU_BUILD/vars-secboot.fd" "$w/vendor-disk.img" "$KERNEL_STARTED" || return 1
	n=$(sed -n "s/^lockshim: fallback: created Boot\([0-9A-F]\{4\}\) \"$FB_LABEL\" for .*/\1/p" "$LOG" | head -n1)
	if [[ -z $n ]]; then
		echo "FAIL: lockshim created no boot option" >&2
		_log_tail "$LOG"
		return 1
	fi
	expect_log -F "lockshim: fallback: created Boot$n \"$FB_LABEL\" for $FB_FILE" &&
		expect_log "^lockshim: fallback: BootOrder $n(,|\$)" &&
		expect_kernel_through "$n" || return 1
	# the lockshim the option starts answers SHIM_LOCK, not the one that started it
	expect_order -F "lockshim: fallback: starting Boot$n" \
		'lockshim: replaced the shim_lock protocol of the first stage that started lockshim' || return 1

	# the option, read back offline: exactly what efibootmgr would write
	sectors=$(( $(stat -c %s "$w/vendor-disk.fat") / 512 ))
	want="$n attributes 0x1|description $FB_LABEL"
	want+="|node HD(1,GPT,$FB_PARTUUID,0x800,$(printf '%#x' "$sectors"))|node File($FB_FILE)"
	want+="|data $FB_OPTIONS\\0"
	opts=$(options_in "$w/creates-1.fd") || return 1
	if ! grep -qxF "$want" <<<"$opts"; then
		echo "FAIL: Boot$n is not the option wanted:" >&2
		echo "  want: $want" >&2
		grep "^$n " <<<"$opts" | sed 's/^/  have: /' >&2
		return 1
	fi
	python3 tests/qemu/mkdmpstore.py --list "$w/creates-1.fd" | grep "^Boot$n $GLOBAL_GUID 0x7 " >/dev/null || {
		echo "FAIL: Boot$n is not NV|BS|RT" >&2
		return 1
	}
	order=$(boot_order_in "$w/creates-1.fd")
	[[ $order == "$n" || $order == "$n,"* ]] || { echo "FAIL: BootOrder $order does not start with $n" >&2; return 1; }
	[[ $(grep -cF "|node File($FB_FILE)|" <<<"$opts") == 1 ]] || { echo "FAIL: more than one option for $FB_FILE" >&2; return 1; }

	# boot 2: the firmware starts the option; lockshim has nothing to do
	fb_boot creates-2 "$w/creates-1.fd" "$w/vendor-disk.img" "$KERNEL_STARTED" || return 1
	expect_log -F "BdsDxe: loading Boot$n \"$FB_LABEL\" from HD(1,GPT," &&
		expect_no_log -F 'lockshim: fallback:' &&
		expect_order -F "BdsDxe: starting Boot$n \"$FB_LABEL\"" "lockshim: booting $FB_KERNEL: " &&
		expect_order -F "lockshim: booting $FB_KERNEL: " 'Linux version'
}

fallback_broken_csv() {
	local w=$FB_WORK opts
	fb_boot broken "$QEMU_BUILD/vars-secboot.fd" "$w/broken-disk.img" "$KERNEL_STARTED" || return 1
	expect_log -F 'lockshim: fallback: \EFI\Alpha\BOOTX64.CSV: line 2: \EFI\Alpha\grubx64.efi: not found; nothing created' &&
		expect_order -F 'lockshim: refusing \EFI\Beta\rogue.efi: ' \
			'lockshim: fallback: \EFI\Beta\BOOTX64.CSV: line 1: \EFI\Beta\rogue.efi: lockshim'"'"'s policy refuses it; nothing created' &&
		expect_log -F 'lockshim: verdict=refused image=\EFI\Beta\rogue.efi ' &&
		expect_log -F 'lockshim: fallback: no boot option created; booting as without it' &&
		expect_no_log -F 'lockshim: fallback: created' &&
		expect_no_log -F 'lockshim: fallback: starting' &&
		expect_order -F 'lockshim: fallback: no boot option created' "lockshim: booting $KPATH: " &&
		expect_order -F "lockshim: booting $KPATH: " 'Linux version' &&
		expect_no_log -F '\EFI\Gamma\' || return 1
	opts=$(options_in "$w/broken.fd") || return 1
	if grep -E 'Alpha|Beta|Gamma' <<<"$opts" >&2; then
		echo "FAIL: an option names Alpha, Beta or Gamma (above)" >&2
		return 1
	fi
}

fallback_existing_entry() {
	local w=$FB_WORK opts order
	fb_boot existing "$w/existing-vars.fd" "$w/vendor-disk.img" "$KERNEL_STARTED" || return 1
	# root's LockshimFallback (NV|BS|RT) does not stop the fallback
	expect_log -F 'lockshim: fallback: deleted LockshimFallback: attributes 0x7 are not lockshim'"'"'s' &&
		expect_log -F "lockshim: fallback: \\EFI\\$FB_VENDOR\\BOOTX64.CSV: line 1: Boot0007 already starts $FB_FILE" &&
		expect_no_log -F 'lockshim: fallback: created' &&
		expect_log '^lockshim: fallback: BootOrder 0007(,[0-9A-F,]*)? unchanged$' &&
		expect_kernel_through 0007 || return 1
	opts=$(options_in "$w/existing.fd") || return 1
	[[ $(grep -cF "|node File($FB_FILE)|" <<<"$opts") == 1 ]] ||
		{ echo "FAIL: not exactly one option for $FB_FILE:" >&2; echo "$opts" >&2; return 1; }
	order=$(boot_order_in "$w/existing.fd")
	[[ $order == 0007 || $order == 0007,* ]] || { echo "FAIL: BootOrder $order does not start with 0007" >&2; return 1; }
}

# evil_check KEY: lockshim check's prediction for the Evil state with the KEY-signed kernel.
evil_check() {
	build/lockshim check --efivars "$FB_WORK/evil-$1/vars" --esp "$FB_WORK/evil-$1/esp" \
		--json >"$FB_WORK/evil-$1.json"
}

fallback_policy() {
	local w=$FB_WORK opts n
	# root's db-signed kernel, db not trusted by the owner's word
	evil_check db
	[[ $? == 1 ]] || { echo "FAIL: check does not say the db-signed kernel's state will not boot" >&2; return 1; }
	fb_boot evil-db "$w/db-ignored-vars.fd" "$w/evil-db-disk.img" "$KERNEL_STARTED" || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_order -F 'lockshim: lockdown table: locked' 'lockshim: refusing \EFI\Evil\kernel.efi: ' &&
		expect_log -F 'lockshim: fallback: \EFI\Evil\BOOTX64.CSV: line 1: \EFI\Evil\kernel.efi: lockshim'"'"'s policy refuses it; nothing created' &&
		expect_log -F 'lockshim: fallback: no boot option created; booting as without it' &&
		expect_no_log -F 'lockshim: fallback: created' &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log "$KERNEL_STARTED" &&
		expect_log "$FB_RETURNED" || return 1
	opts=$(options_in "$w/evil-db.fd") || return 1
	if grep -F 'Evil' <<<"$opts" >&2; then
		echo "FAIL: an option names Evil (above)" >&2
		return 1
	fi
	python3 tests/qemu/check_boots.py "$w/evil-db.json" "$LOG" 'removable=UEFI Misc Device' || return 1

	# the same with a vendor-signed kernel: created, and booted after the hand-off
	evil_check vendor || { echo "FAIL: check does not say the vendor-signed kernel's state boots" >&2; return 1; }
	fb_boot evil-vendor "$w/db-ignored-vars.fd" "$w/evil-vendor-disk.img" 'locked down \(' || return 1
	n=$(sed -n 's/^lockshim: fallback: created Boot\([0-9A-F]\{4\}\) "Evil" for .*/\1/p' "$LOG" | head -n1)
	[[ -n $n ]] || { echo "FAIL: lockshim created no boot option" >&2; _log_tail "$LOG"; return 1; }
	expect_order -F 'lockshim: lockdown table: locked' "lockshim: fallback: starting Boot$n (\\EFI\\Evil\\kernel.efi) as the next stage" &&
		expect_order -F "lockshim: fallback: starting Boot$n" 'lockshim: booting \EFI\Evil\kernel.efi: ' &&
		expect_order -F 'lockshim: booting \EFI\Evil\kernel.efi: ' 'Linux version' &&
		expect_log 'locked down \(Secure Boot, table v[0-9]+\)' || return 1
	python3 tests/qemu/check_boots.py "$w/evil-vendor.json" "$LOG" 'removable=UEFI Misc Device'
}

fallback_once_a_boot() {
	local n
	fb_boot loop "$QEMU_BUILD/vars-secboot.fd" "$FB_WORK/loop-disk.img" "$KERNEL_STARTED" || return 1
	n=$(sed -n 's/^lockshim: fallback: created Boot\([0-9A-F]\{4\}\) "Loop" for .*/\1/p' "$LOG")
	[[ $n =~ ^[0-9A-F]{4}$ ]] || { echo "FAIL: not one option created for Loop: '$n'" >&2; return 1; }
	[[ $(grep -c '^lockshim: fallback: starting ' "$LOG") == 1 ]] ||
		{ echo "FAIL: the fallback started an option more than once" >&2; _log_tail "$LOG"; return 1; }
	expect_order -F "lockshim: fallback: starting Boot$n (\EFI\Loop\lockshimx64.efi)" \
		'lockshim: booting \EFI\BOOT\BOOTX64.EFI: ' &&
		expect_order -F 'lockshim: booting \EFI\BOOT\BOOTX64.EFI: ' \
			'lockshim: fallback: already ran this boot; not again' &&
		expect_order -F 'lockshim: fallback: already ran this boot; not again' "lockshim: booting $KPATH: " &&
		expect_no_log -F 'lockshim: fallback: no boot option created' &&
		expect_order -F "lockshim: booting $KPATH: " 'Linux version'
}

fallback_removable_medium() {
	local w=$FB_WORK opts
	FB_REMOVABLE=1 fb_boot removable "$QEMU_BUILD/vars-secboot.fd" "$w/vendor-disk.img" \
		"$KERNEL_STARTED" 'BdsDxe: failed to start Boot[0-9A-F]{4} "UEFI QEMU QEMU USB HARDDRIVE' || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F 'lockshim: fallback: lockshim runs from a removable medium; no boot option written' &&
		expect_no_log -F 'lockshim: fallback: created' &&
		expect_no_log -F 'lockshim: fallback: starting' &&
		expect_log -F 'lockshim: cannot read \EFI\BOOT\vmlinuz.efi: Not Found' || return 1
	opts=$(options_in "$w/removable.fd") || return 1
	if grep -F "$FB_LABEL" <<<"$opts" >&2; then
		echo "FAIL: an option names $FB_LABEL (above)" >&2
		return 1
	fi
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main fallback_prepare "$@"
fi
