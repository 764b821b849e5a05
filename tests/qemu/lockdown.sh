# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# What the kernel lockdown tests share (tests/qemu/test_lockdown_*.sh source
# it): OVMF -> (lockshim | launch.efi) -> the patched test kernel
# (kernel/build.sh) -> the probe initramfs (tests/initramfs/build-probe.sh),
# whose probe (tests/guest/probe*.c) prints one `PROBE <check> <result>
# <detail>` line per check and powers off.
#
#   test_lockdown_table.sh    what a valid table does, and lockshim's own
#   test_lockdown_invalid.sh  each validation rule broken once: fail closed
#   test_lockdown_cmdline.sh  hostile command lines cannot undo a lock
#   test_lockdown_kexec.sh    kexec under a locked table; a revoked image
#   test_lockdown_early.sh    the early-boot window: ACPI tables from the
#                             initrd and acpi_rsdp=, before the hooks exist
#   test_lockdown_no_table.sh Secure Boot without lockshim's table: another
#                             loader (Debian's shim 16.1, or one entering
#                             through the boot protocol, no EFI stub), or SB off
#   test_lockdown_vfio.sh     user-space drivers: vfio-pci behind an IOMMU
#                             allowed, no-IOMMU mode and unsafe interrupts not
#   test_lockdown_kexec_corpus.sh  the differential kexec corpus' sample
#                             (kexec_corpus.sh; make kexec-corpus: all of it)
#   test_lockdown_params.sh   parameters that reach physical memory: memmap=
#                             over the EFI runtime code, an MMIO earlycon kept
#                             by keep_bootcon, efivar_ssdt= with no EFI stub
#
# Environment:
#   LOCKSHIM_EFI   the loader (default build/lockshimx64.efi); copies are
#                  signed with db
#   QEMU_TIMEOUT   bound on each QEMU run in seconds (default 120)
#   LOCKDOWN_TEE=1 show each console live
#   LOCKSHIM_KERNEL_DIR  a kernel/build.sh output directory to use instead of
#                  running kernel/build.sh (kernel development)
#   LOCKSHIM_KERNEL_VARIANT  build and use the test-only variant of that name
#                  (kernel/build.sh --variant, kernel/variants/): e.g.
#                  upstream-trust, the MOK trust rules of upstream Linux
#   LD_MKTABLE     the table builder instead of tests/guest/mktable.py (an
#                  older layout, for an older kernel)
#
# Logs: build/qemu/logs/lockdown-NAME.log. Scenarios are run by
# tests/qemu/scenario.sh (LOCKSHIM_JOBS at a time).
#
# How the kernel is started:
#   lockshim     BOOTX64.EFI = lockshim (db-signed), vmlinuz.efi and
#                initrd.img beside it: the real chain, no command line.
#   launch       BOOTX64.EFI = launch.efi (tests/guest/launch.c, db-signed),
#                which reads \EFI\BOOT\launch.cfg, may install a lockshim
#                table of its own (tests/guest/mktable.py), and starts
#                vmlinuz.efi, or lockshim, with load options: the stand-in for
#                a Boot#### entry's optional data. With Secure Boot off it
#                starts the kernel directly (initrd= on the command line).
#                With entry=boot-protocol it loads vmlinuz.efi itself and
#                enters it as a legacy loader would (x86 64-bit boot
#                protocol, no EFI stub, boot_params.secure_boot left 0).
#
# Slots: the probe initramfs holds the test module and the kernel image
# (for kexec_file_load) unsigned and signed by vendor, mok, rogue and db
# (build/pki). rogue is trusted nowhere; db is the firmware's db key.
# test_lockdown_kexec.sh's revocation scenario adds /kexec/vendor_old.efi:
# an "older" kernel ($OLD_KERNEL: the same build with another .sbat, so
# another Authenticode digest) signed by vendor, which $SB_MOK_REVOKED_VARS
# revokes by its digest in MokListX. Only there: every image in /kexec is
# loaded in every boot, and an allowed load costs most of a second of TCG.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/qemu/lib.sh
. tests/qemu/scenario.sh

LOCKSHIM_EFI=${LOCKSHIM_EFI:-build/lockshimx64.efi}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-120}
LOCKDOWN_TEE=${LOCKDOWN_TEE:-0}
LD_WORK=$QEMU_BUILD/lockdown
LD_LOGS=$QEMU_BUILD/logs
PKI=build/pki
GUEST=build/guest
PROBE_INITRD=build/initramfs/probe-initrd.img
MOK_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
CRASH=$QEMU_CRASH
END_RE='LOCKSHIM-PROBE-END'
SLOTS=(unsigned vendor mok rogue db)

LD_RUN_OPTS=() # more run_qemu options for every boot (test_measured_boot.sh: --tpm)
SB_MOK_VARS=$LD_WORK/vars-secboot-mok.fd # vars_secboot_mok
SB_MOK_UNTRUSTED_VARS=$LD_WORK/vars-secboot-mok-untrusted.fd # vars_secboot_mok
SB_MOK_REVOKED_VARS=$LD_WORK/vars-secboot-mok-revoked.fd # vars_secboot_mok
SB_MOK_TBS_DENIED_VARS=$LD_WORK/vars-secboot-mok-tbs-denied.fd # vars_secboot_mok
OLD_KERNEL=$LD_WORK/kernel-old-vendor.efi # old_kernel
# The probe initramfs behind an uncompressed cpio holding an SSDT
# (acpi_initrd_table): what acpi_table_upgrade() installs, unless locked.
ACPI_INITRD=$LD_WORK/acpi-probe-initrd.img
ACPI_TABLE_ID=LSEARLY1
# A SATA disk on q35's AHCI controller holding an ext2 file system with
# rawio.txt (rawio_disk): the probe's SG_IO, bsg, HDIO and FIBMAP checks
# (tests/guest/probe_rawio.c) run on it. Added to a boot by RAWIO_DISK_OPTS
# in LD_RUN_OPTS (with the AHCI controller, run_qemu --sata); QEMU writes
# nothing back (snapshot).
RAWIO_DISK=$LD_WORK/rawio-ext2.img
# shellcheck disable=SC2054 # QEMU's commas
RAWIO_DISK_OPTS=(--sata -- -drive "if=none,id=rawio,format=raw,snapshot=on,file=$RAWIO_DISK"
	-device ide-hd,drive=rawio,bus=ide.0)
KDIR=

# ---- preparation ---------------------------------------------------------------

# Once per test file, before its scenarios: the kernel, the probe initramfs,
# the signed images, and the Secure Boot VARS with a MokList.
lockdown_prepare() {
	PREP_LOG=$LD_WORK/prepare.err
	mkdir -p "$LD_WORK" "$LD_LOGS"
	: >"$PREP_LOG"
	local t0=$SECONDS
	if [[ -n ${LOCKSHIM_KERNEL_DIR:-} ]]; then
		KDIR=$LOCKSHIM_KERNEL_DIR
	else
		KDIR=$(kernel/build.sh ${LOCKSHIM_KERNEL_VARIANT:+--variant "$LOCKSHIM_KERNEL_VARIANT"} \
			2>>"$PREP_LOG") ||
			{ PREP_ERROR="kernel/build.sh failed: $(tail -n 5 "$PREP_LOG" | tr '\n' ' ')"; return 1; }
	fi
	echo "# kernel: $KDIR ($(( SECONDS - t0 ))s)" >&2
	_prep "test PKI (tests/pki.sh)" tests/pki.sh "$PKI" &&
		_prep "OVMF variable stores (tests/qemu/vars.sh)" tests/qemu/vars.sh "$PKI" &&
		_prep "guest programs (tests/guest/build.sh)" tests/guest/build.sh "$GUEST" &&
		_prep "an older vendor-signed kernel, revoked in MokListX" old_kernel &&
		_prep "probe initramfs (tests/initramfs/build-probe.sh)" \
			tests/initramfs/build-probe.sh "$KDIR" "$PROBE_INITRD" &&
		_prep "probe initramfs behind an SSDT" acpi_initrd_table &&
		_prep "an ext2 disk for the SG_IO and FIBMAP checks" rawio_disk &&
		_prep "VARS with a MokList (tests/qemu/vars.sh --variant lockdown-mok)" vars_secboot_mok &&
		_prep "unsigned kernel" cp "$KDIR/bzImage" "$LD_WORK/kernel-unsigned.efi" &&
		_prep "vendor-signed kernel" sign_efi vendor "$KDIR/bzImage" "$LD_WORK/kernel-vendor.efi" &&
		_prep "db-signed launcher" sign_efi db "$GUEST/launch.efi" "$LD_WORK/launch-db.efi" ||
		return 1
	if [[ -s $LOCKSHIM_EFI ]]; then
		_prep "db-signed lockshim" sign_efi db "$LOCKSHIM_EFI" "$LD_WORK/lockshim-db.efi" || return 1
	else
		rm -f "$LD_WORK/lockshim-db.efi"
	fi
}

# VARS with Secure Boot on and build/pki/mok.esl as MokList (NV|BS),
# variants of tests/qemu/vars.sh's: $SB_MOK_VARS with MokListTrusted (NV|BS,
# 1: the owner's mokutil --trust-mok), $SB_MOK_UNTRUSTED_VARS without, and
# $SB_MOK_REVOKED_VARS as $SB_MOK_VARS plus MokListX holding the older
# kernel's digest, and $SB_MOK_TBS_DENIED_VARS as $SB_MOK_VARS plus MokListX
# holding the MOK certificate's TBS digest (EFI_CERT_X509_SHA256).
vars_secboot_mok() {
	local path
	local -a mok=(--var "MokList:$MOK_GUID:0x3:$PKI/mok.esl")
	local -a trusted=(--var "MokListTrusted:$MOK_GUID:0x3:$LD_WORK/MokListTrusted.bin")
	printf '\x01' >"$LD_WORK/MokListTrusted.bin"
	path=$(tests/qemu/vars.sh --variant lockdown-mok-trusted "${mok[@]}" "${trusted[@]}" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$SB_MOK_VARS" &&
		path=$(tests/qemu/vars.sh --variant lockdown-mok "${mok[@]}" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$SB_MOK_UNTRUSTED_VARS" &&
		path=$(tests/qemu/vars.sh --variant lockdown-mok-revoked "${mok[@]}" "${trusted[@]}" \
			--var "MokListX:$MOK_GUID:0x3:$LD_WORK/mokx-old.esl" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$SB_MOK_REVOKED_VARS" &&
		python3 tests/cli/mkesl.py X509_SHA256 "$LD_WORK/mokx-mok-tbs.esl" "$PKI/mok.der" &&
		path=$(tests/qemu/vars.sh --variant lockdown-mok-tbs-denied "${mok[@]}" "${trusted[@]}" \
			--var "MokListX:$MOK_GUID:0x3:$LD_WORK/mokx-mok-tbs.esl" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$SB_MOK_TBS_DENIED_VARS"
}

# $OLD_KERNEL: the test kernel with tests/qemu/kernel-old.sbat.csv as its
# .sbat (SBAT revokes nothing of it: only its digest differs), signed by
# vendor; $LD_WORK/mokx-old.esl: its digest, as lockshim computes it.
old_kernel() {
	local hash
	build/lockshim add-sbat tests/qemu/kernel-old.sbat.csv "$KDIR/bzImage.raw" "$LD_WORK/kernel-old.efi" &&
		sign_efi vendor "$LD_WORK/kernel-old.efi" "$OLD_KERNEL" &&
		hash=$(build/lockshim hash "$OLD_KERNEL") &&
		python3 tests/cli/mkesl.py SHA256 "$LD_WORK/mokx-old.esl" "$hash"
}

# test_ssdt FILE: an SSDT of only its 36-byte header (OEM table ID
# $ACPI_TABLE_ID, no AML), which the probe looks for (acpi_table:ID).
test_ssdt() {
	python3 - "$1" "$ACPI_TABLE_ID" <<-'EOF'
		import struct, sys
		hdr = bytearray(struct.pack('<4sIBB6s8sI4sI', b'SSDT', 36, 2, 0, b'LOCKSH',
		                            sys.argv[2].encode(), 1, b'LKSH', 1))
		hdr[9] = -sum(hdr) & 0xff
		open(sys.argv[1], 'wb').write(hdr)
	EOF
}

# $ACPI_INITRD: an uncompressed cpio with kernel/firmware/acpi/lockshim.aml,
# the test SSDT, then the probe initramfs, as Documentation/admin-guide/acpi/
# initrd_table_override.rst builds one.
acpi_initrd_table() {
	local dir=$LD_WORK/acpi-cpio
	rm -rf "$dir" && mkdir -p "$dir/kernel/firmware/acpi" || return 1
	test_ssdt "$dir/kernel/firmware/acpi/lockshim.aml" || return 1
	(cd "$dir" && find kernel | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible) \
		>"$ACPI_INITRD.tmp" &&
		cat "$PROBE_INITRD" >>"$ACPI_INITRD.tmp" && mv "$ACPI_INITRD.tmp" "$ACPI_INITRD"
}

# $RAWIO_DISK: 4 MiB of ext2 (mke2fs -d) holding rawio.txt, whose first
# bytes the probe finds again on the raw disk at the block FIBMAP names.
rawio_disk() {
	local dir=$LD_WORK/rawio-root i
	rm -rf "$dir" "$RAWIO_DISK" && mkdir -p "$dir" || return 1
	for (( i = 0; i < 64; i++ )); do printf 'lockshim rawio probe file, line %02d\n' "$i"; done \
		>"$dir/rawio.txt" &&
		mke2fs -q -F -t ext2 -b 1024 -d "$dir" "$RAWIO_DISK" 4M
}

# need_lockshim: the scenario boots lockshim; fail (with why) if there is none.
need_lockshim() {
	[[ -s $LD_WORK/lockshim-db.efi ]] && return 0
	echo "FAIL: no lockshim binary ($LOCKSHIM_EFI)" >&2
	return 1
}

# mktable NAME ARGS...: build $LD_WORK/NAME.table with tests/guest/mktable.py
# (or $LD_MKTABLE: an older table layout, to run a scenario against an older
# kernel, with LOCKSHIM_KERNEL_DIR).
mktable() {
	local name=$1; shift
	python3 "${LD_MKTABLE:-tests/guest/mktable.py}" "$LD_WORK/$name.table" "$@"
}

# ---- booting -------------------------------------------------------------------

# lockdown_boot NAME VARS LOADER KERNEL [LAUNCH_CFG_TEXT [EXTRA SRC ESPPATH]...]
# ESP: LOADER as BOOTX64.EFI (none if LOADER is -), KERNEL as vmlinuz.efi,
# the probe initramfs ($PROBE_INITRD) as initrd.img, LAUNCH_CFG_TEXT (if any)
# as launch.cfg, plus extra files.
# The log is $LD_LOGS/lockdown-NAME.log (also $LOG).
lockdown_boot() {
	local name=$1 vars=$2 loader=$3 kernel=$4 cfg=${5:-}; shift 5 2>/dev/null || shift $#
	local -a files=("$kernel" EFI/BOOT/vmlinuz.efi "$PROBE_INITRD" EFI/BOOT/initrd.img)
	[[ $loader == - ]] || files+=("$loader" EFI/BOOT/BOOTX64.EFI)
	if [[ -n $cfg ]]; then
		printf '%s\n' "$cfg" >"$LD_WORK/$name.cfg"
		files+=("$LD_WORK/$name.cfg" EFI/BOOT/launch.cfg)
	fi
	lockdown_run "$name" "$vars" "${files[@]}" "$@"
}

# lockdown_run NAME VARS [SRC ESPPATH]...: boot an ESP of these files until
# the probe ends; the log is $LD_LOGS/lockdown-NAME.log (also $LOG). A
# refusal ends it too: lockshim's line, or LD_REFUSAL_STOP (a boot that
# must be refused stops on $FIRMWARE_REFUSED instead, the firmware's word
# that lockshim returned). Nothing after the line it stops on is read: the
# probe's end is its last line, the firmware's refusal the boot's last
# word (0.1 s of grace, not the 0.5 s in which the guest powered off).
# LD_FIRMWARE_ONLY=1: a boot that must be refused, in which no OS runs
# (run_qemu --firmware-only).
lockdown_run() {
	local name=$1 vars=$2; shift 2
	local img=$LD_WORK/$name.img
	local -a tee=() fw=()
	(( LOCKDOWN_TEE )) && tee=(--tee)
	(( ${LD_FIRMWARE_ONLY:-0} )) && fw=(--firmware-only)
	make_esp "$img" "$@" || return 1
	run_qemu --esp "$img" --vars "$vars" --log "$LD_LOGS/lockdown-$name.log" \
		--timeout "$QEMU_TIMEOUT" --grace 0.1 \
		--stop "$END_RE" --stop 'Kernel panic' --stop "${LD_REFUSAL_STOP:-lockshim: refusing}" \
		--stop 'No bootable option' --stop 'launch: failed' --stop "$CRASH" "${tee[@]}" "${fw[@]}" \
		"${LD_RUN_OPTS[@]}"
	local rc=$?
	rm -f "$img"
	qemu_outcome "$name" "no end of the probe" || return 1
	(( rc == 0 )) || return $rc
	# The probe's poweroff -f often ends QEMU before the watcher sees the
	# end line: either way the end line must be there, and nothing else
	# may have stopped the run.
	if [[ $QEMU_OUTCOME == stopped && $QEMU_STOPPED_ON != "$END_RE" ]]; then
		echo "FAIL: stopped on /$QEMU_STOPPED_ON/ before the probe ended" >&2
		_log_tail "$LOG"
		return 1
	fi
	expect_log -F 'PROBE done ok' && expect_log -F 'LOCKSHIM-PROBE-END status=0'
}

# Boot the test kernel directly from launch.efi (Secure Boot off) with
# OPTIONS (initrd= is added) and, optionally, a table (mktable.py args) with
# the launch.cfg lines in TABLE_CFG.
#   launch_kernel NAME OPTIONS [TABLE_CFG [MKTABLE ARGS...]]
launch_kernel() {
	local name=$1 options=$2 tcfg=${3:-}; shift 3 2>/dev/null || shift $#
	local cfg="options=initrd=\\EFI\\BOOT\\initrd.img${options:+ $options}"
	local -a extra=()
	if (( $# )); then
		mktable "$name" "$@" || return 1
		extra=("$LD_WORK/$name.table" EFI/BOOT/table.bin)
		cfg+=$'\n'"table=\\EFI\\BOOT\\table.bin"
	fi
	[[ -n $tcfg ]] && cfg+=$'\n'"$tcfg"
	lockdown_boot "$name" "$QEMU_BUILD/vars-setup.fd" "$GUEST/launch.efi" \
		"$LD_WORK/kernel-unsigned.efi" "$cfg" "${extra[@]}"
}

# ---- reading the probe ------------------------------------------------------------

# expect_probe CHECK RESULT [ERE]: the first `PROBE CHECK ...` line has RESULT
# (and matches ERE).
expect_probe() {
	local check=$1 want=$2 pat=${3:-} line got
	line=$(LC_ALL=C grep -m1 -F "PROBE $check " "$LOG")
	if [[ -z $line ]]; then
		echo "FAIL: no 'PROBE $check' line in $LOG" >&2
		_log_tail "$LOG"
		return 1
	fi
	got=$(awk '{ print $3 }' <<<"$line")
	if [[ $got != "$want" ]]; then
		echo "FAIL: PROBE $check: expected '$want', got: $line" >&2
		return 1
	fi
	if [[ -n $pat ]] && ! LC_ALL=C grep -qE -- "$pat" <<<"$line"; then
		echo "FAIL: PROBE $check: expected /$pat/ in: $line" >&2
		return 1
	fi
}

# expect_variable_store: lockshim handed over the firmware's variable store
# (the MokVar table's VariableInfo) and it is the firmware's own answer:
# the NV|BS|RT store's size equals what efivarfs' statfs reports at
# runtime, nothing remains beyond it, and one variable may hold something.
expect_variable_store() {
	local max remaining var blocks
	max=$(sed -n 's/.*PROBE variable_info line bs_nv_rt_max_storage_sz: \(0x[0-9a-f]*\).*/\1/p' "$LOG" | head -1)
	remaining=$(sed -n 's/.*PROBE variable_info line bs_nv_rt_remaining_sz: \(0x[0-9a-f]*\).*/\1/p' "$LOG" | head -1)
	var=$(sed -n 's/.*PROBE variable_info line bs_nv_rt_max_var_sz: \(0x[0-9a-f]*\).*/\1/p' "$LOG" | head -1)
	blocks=$(sed -n 's/.*PROBE efivarfs_statfs info bsize=1 blocks=\([0-9]*\) .*/\1/p' "$LOG" | head -1)
	if [[ -z $max || -z $remaining || -z $var || -z $blocks ]]; then
		echo "FAIL: no VariableInfo for NV|BS|RT or no efivarfs statfs line in $LOG" >&2
		return 1
	fi
	if ((max != blocks || max == 0 || remaining > max || var == 0)); then
		echo "FAIL: VariableInfo max=$max remaining=$remaining max_var=$var, efivarfs blocks=$blocks" >&2
		return 1
	fi
}

# The kernel's lockshim line, as the probe read it back from /dev/kmsg.
expect_bootlog() { expect_log -F "PROBE bootlog line lockshim: $1"; }

in_list() { local x=$1; shift; [[ " $* " == *" $x "* ]]; }

# expect_unlocked: lockdown none, CAP_SYS_RAWIO everywhere, every operation
# allowed (PCI memory mapped through uio_pci_generic and uio_netx too),
# whatever signs the module or image.
expect_unlocked() {
	local s
	expect_probe lockdown none &&
		expect_probe capbnd:init present &&
		expect_probe capbnd:self present &&
		expect_probe capbnd:prctl present &&
		expect_probe iopl allowed &&
		expect_probe ioperm allowed &&
		expect_probe open:/dev/mem allowed &&
		expect_probe open:/dev/port allowed &&
		expect_probe kexec_load allowed &&
		expect_probe write:module.sig_enforce=0 allowed 'was N' &&
		expect_probe uio:bind allowed &&
		expect_probe uio:mmap allowed &&
		expect_probe uio_netx:bind allowed &&
		expect_probe uio_netx:mmap allowed || return 1
	for s in "${SLOTS[@]}"; do
		expect_probe "kexec_file_load:$s" allowed &&
			expect_probe "finit_module:lstest_$s" allowed || return 1
	done
}

# expect_locked: lockdown integrity; CAP_SYS_RAWIO gone from init's bounding
# set and the probe's, and not to be regained; the raw I/O interfaces refused
# by the capability check (EPERM, and no lockdown message: lockdown was not
# even asked); kexec_load and binding uio_pci_generic refused by lockdown,
# and so is a UIO map of PCI memory by any other driver (uio_netx, which
# binds: the UIO core refuses the map);
# unsigned and rogue-signed modules and images refused.
expect_locked() {
	expect_probe lockdown integrity &&
		expect_probe capbnd:init absent &&
		expect_probe capbnd:self absent &&
		expect_probe capprm:self absent &&
		expect_probe capbnd:prctl absent &&
		expect_probe regain:inheritable refused 'errno=EPERM' &&
		expect_probe regain:ambient refused 'errno=EPERM' &&
		expect_probe iopl refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe ioperm refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe open:/dev/mem refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe open:/dev/port refused 'errno=EPERM.*lockdown_msg=no' &&
		expect_probe kexec_load refused 'errno=EPERM.*lockdown_msg=yes' &&
		expect_probe uio:bind refused 'errno=EPERM.*lockdown_msg=yes' &&
		expect_no_log -F 'PROBE uio:mmap ' &&
		expect_probe uio_netx:bind allowed &&
		expect_probe uio_netx:mmap refused 'errno=EPERM.*lockdown_msg=yes' &&
		expect_probe write:module.sig_enforce=0 refused 'was Y.*errno=EROFS' &&
		expect_probe kexec_file_load:unsigned refused &&
		expect_probe kexec_file_load:rogue refused &&
		expect_probe finit_module:lstest_unsigned refused 'errno=EKEYREJECTED' &&
		expect_probe finit_module:lstest_rogue refused 'errno=EKEYREJECTED'
}

# expect_trust "MODULE SLOTS" "KEXEC SLOTS": among vendor, mok and db,
# exactly these are accepted (the others refused).
expect_trust() {
	local mods=$1 kexecs=$2 s
	for s in vendor mok db; do
		if in_list "$s" "$mods"; then
			expect_probe "finit_module:lstest_$s" allowed "kmsg=\".*lstest_$s: loaded" || return 1
		else
			expect_probe "finit_module:lstest_$s" refused || return 1
		fi
		if in_list "$s" "$kexecs"; then
			expect_probe "kexec_file_load:$s" allowed || return 1
		else
			expect_probe "kexec_file_load:$s" refused || return 1
		fi
	done
}

# expect_machine_keys "vendor mok": exactly these test certificates are in .machine.
expect_machine_keys() {
	local want=$1 s
	for s in vendor mok rogue db revoked; do
		if in_list "$s" "$want"; then
			expect_log -F "PROBE key:.machine present asymmetric \"lockshim test $s: " || return 1
		else
			expect_no_log -F "PROBE key:.machine present asymmetric \"lockshim test $s: " || return 1
		fi
	done
}

# The test vendor and MOK certificates, as mktable.py trusted entries.
TRUSTED=(--trusted "$PKI/vendor.esl" --trusted "$PKI/mok.esl")
