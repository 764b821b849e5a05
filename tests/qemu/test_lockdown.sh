#!/usr/bin/env bash
# Kernel lockdown scenarios: OVMF -> (lockshim | launch.efi) -> the patched
# test kernel (kernel/build.sh) -> the probe initramfs
# (tests/initramfs/build-probe.sh), whose probe prints one
# `PROBE <check> <result> <detail>` line per check and powers off.
#
#   tests/qemu/test_lockdown.sh [SCENARIO...]     (default: all, in order)
#
# Environment:
#   LOCKSHIM_EFI   the loader (default build/lockshimx64.efi); copies are
#                  signed with db
#   QEMU_TIMEOUT   bound on each QEMU run in seconds (default 120)
#   LOCKDOWN_TEE=1 show each console live
#   LOCKSHIM_KERNEL_DIR  a kernel/build.sh output directory to use instead of
#                  running kernel/build.sh (kernel development)
#
# Prints `ok - NAME (T s)` / `not ok - NAME` per scenario (diagnostics on
# stderr); scenarios that need the loader side of issue 4 (lockshim
# installing its table: `grep -l LOCKSHIM_TABLE src/efi/*.c`) print
# `ok - NAME # SKIP ...` until it is there. Logs: build/qemu/logs/lockdown-NAME.log.
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
#
# Scenarios (SB = Secure Boot; the launcher ones run with SB off):
#   sb_off_lockshim_not_locked      lockshim, SB off: table not locked, all allowed
#   sb_off_simulate_locks           secureboot_enable=1, no table: locked, builtin keys only
#   table_locked                    valid locked table: locked, vendor+MOK trusted
#   table_locked_cmdline_cannot_undo  + lockdown=none secureboot_enable=0 module.sig_enforce=0 lsm=
#   table_unlocked                  valid table without LOCKED: nothing locked, keys unused
#   table_unlocked_simulate_locks   + secureboot_enable=1: locked, table keys trusted
#   table_denied_entry_refused      MOK both trusted and denied: denied wins
#   table_in_boot_services_memory   the table is reserved, so its keys still load
#   table_invalid_*, table_crosses_descriptor, table_outside_memory_map
#                                   each validation rule broken once: fail closed
#   sb_on_lockshim_locked           SB on, MokList enrolled: locked by lockshim's table
#   sb_on_lockshim_cmdline_cannot_undo  the same through launch.efi with a hostile command line
#   table_locked_kexec              locked table; the probe kexecs (kexec_file_load
#                                   + reboot) into the vendor-signed kernel: the
#                                   second kernel finds the table and is locked too
#   table_locked_kexec_boot_services  the same with the table in boot services
#                                   memory: its reservation survives kexec
#   table_locked_kexec_without_efi_refused  + efi=noruntime: no EFI state (so no
#                                   table) would reach the next kernel: locked as
#                                   invalid, the kexec into it refused
#
# Slots: the probe initramfs holds the test module and the kernel image
# (for kexec_file_load) unsigned and signed by vendor, mok, rogue and db
# (build/pki). rogue is trusted nowhere; db is the firmware's db key.

cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
. tests/qemu/lib.sh

LOCKSHIM_EFI=${LOCKSHIM_EFI:-build/lockshimx64.efi}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-120}
LOCKDOWN_TEE=${LOCKDOWN_TEE:-0}
LD_WORK=$QEMU_BUILD/lockdown
LD_LOGS=$QEMU_BUILD/logs
PKI=build/pki
GUEST=build/guest
PROBE_INITRD=build/initramfs/probe-initrd.img
MOK_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
CRASH='!!!! X64 Exception Type'
END_RE='LOCKSHIM-PROBE-END'
SLOTS=(unsigned vendor mok rogue db)

SCENARIOS=(
	sb_off_lockshim_not_locked
	sb_off_simulate_locks
	table_locked
	table_locked_cmdline_cannot_undo
	table_unlocked
	table_unlocked_simulate_locks
	table_denied_entry_refused
	table_in_boot_services_memory
	table_invalid_digest
	table_invalid_magic
	table_invalid_version
	table_invalid_header_size
	table_invalid_area
	table_invalid_flags
	table_invalid_lock_reason
	table_invalid_reserved
	table_crosses_descriptor
	table_outside_memory_map
	sb_on_lockshim_locked
	sb_on_lockshim_cmdline_cannot_undo
	table_locked_kexec
	table_locked_kexec_boot_services
	table_locked_kexec_without_efi_refused
)

PREP_ERROR=
KDIR=
LOADER_SIDE=0

# ---- preparation ---------------------------------------------------------------

lockdown_prepare() {
	local err=$LD_WORK/prepare.err
	mkdir -p "$LD_WORK" "$LD_LOGS"
	: >"$err"
	_prep() {
		local what=$1; shift
		if ! "$@" >/dev/null 2>>"$err"; then
			PREP_ERROR="$what failed: $(tail -n 3 "$err" | tr '\n' ' ')"
			return 1
		fi
	}
	local t0=$SECONDS
	if [[ -n ${LOCKSHIM_KERNEL_DIR:-} ]]; then
		KDIR=$LOCKSHIM_KERNEL_DIR
	else
		KDIR=$(kernel/build.sh 2>>"$err") ||
			{ PREP_ERROR="kernel/build.sh failed: $(tail -n 5 "$err" | tr '\n' ' ')"; return 1; }
	fi
	echo "# kernel: $KDIR ($(( SECONDS - t0 ))s)" >&2
	_prep "test PKI (tests/pki.sh)" tests/pki.sh "$PKI" &&
		_prep "OVMF variable stores (tests/qemu/vars.sh)" tests/qemu/vars.sh "$PKI" &&
		_prep "guest programs (tests/guest/build.sh)" tests/guest/build.sh "$GUEST" &&
		_prep "probe initramfs (tests/initramfs/build-probe.sh)" \
			tests/initramfs/build-probe.sh "$KDIR" "$PROBE_INITRD" &&
		_prep "unsigned kernel" cp "$KDIR/bzImage" "$LD_WORK/kernel-unsigned.efi" &&
		_prep "vendor-signed kernel" sign_efi vendor "$KDIR/bzImage" "$LD_WORK/kernel-vendor.efi" &&
		_prep "db-signed launcher" sign_efi db "$GUEST/launch.efi" "$LD_WORK/launch-db.efi" ||
		return 1
	if [[ -s $LOCKSHIM_EFI ]]; then
		_prep "db-signed lockshim" sign_efi db "$LOCKSHIM_EFI" "$LD_WORK/lockshim-db.efi" || return 1
	else
		rm -f "$LD_WORK/lockshim-db.efi"
	fi
	if grep -lq LOCKSHIM_TABLE src/efi/*.c 2>/dev/null; then
		LOADER_SIDE=1
	fi
	echo "# prepared in $(( SECONDS - t0 ))s; loader installs the table: $( (( LOADER_SIDE )) && echo yes || echo 'not yet')" >&2
}

# mktable NAME ARGS...: build $LD_WORK/NAME.table with tests/guest/mktable.py.
mktable() {
	local name=$1; shift
	python3 tests/guest/mktable.py "$LD_WORK/$name.table" "$@"
}

# ---- booting -------------------------------------------------------------------

# lockdown_boot NAME VARS LOADER KERNEL [LAUNCH_CFG_TEXT [EXTRA SRC ESPPATH]...]
# ESP: LOADER as BOOTX64.EFI, KERNEL as vmlinuz.efi, the probe initramfs as
# initrd.img, LAUNCH_CFG_TEXT (if any) as launch.cfg, plus extra files.
# The log is $LD_LOGS/lockdown-NAME.log (also $LOG).
lockdown_boot() {
	local name=$1 vars=$2 loader=$3 kernel=$4 cfg=${5:-}; shift 5 2>/dev/null || shift $#
	local img=$LD_WORK/$name.img
	local -a files=("$loader" EFI/BOOT/BOOTX64.EFI "$kernel" EFI/BOOT/vmlinuz.efi
		"$PROBE_INITRD" EFI/BOOT/initrd.img)
	if [[ -n $cfg ]]; then
		printf '%s\n' "$cfg" >"$LD_WORK/$name.cfg"
		files+=("$LD_WORK/$name.cfg" EFI/BOOT/launch.cfg)
	fi
	files+=("$@")
	local -a tee=()
	(( LOCKDOWN_TEE )) && tee=(--tee)
	make_esp "$img" "${files[@]}" || return 1
	run_qemu --esp "$img" --vars "$vars" --log "$LD_LOGS/lockdown-$name.log" \
		--timeout "$QEMU_TIMEOUT" --grace 0.5 \
		--stop "$END_RE" --stop 'Kernel panic' --stop 'lockshim: refusing' \
		--stop 'No bootable option' --stop 'launch: failed' --stop "$CRASH" "${tee[@]}"
	local rc=$?
	rm -f "$img"
	LAST_QEMU_ELAPSED=$QEMU_ELAPSED
	echo "# $name: QEMU $QEMU_OUTCOME${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/} after ${QEMU_ELAPSED}s" >&2
	if [[ $QEMU_OUTCOME == timeout ]]; then
		echo "FAIL: no end of the probe within ${QEMU_TIMEOUT}s" >&2
		_log_tail "$LOG"
		return 1
	fi
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

# The kernel's lockshim line, as the probe read it back from /dev/kmsg.
expect_bootlog() { expect_log -F "PROBE bootlog line lockshim: $1"; }

in_list() { local x=$1; shift; [[ " $* " == *" $x "* ]]; }

# expect_unlocked: lockdown none, CAP_SYS_RAWIO everywhere, every operation
# allowed, whatever signs the module or image.
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
		expect_probe write:module.sig_enforce=0 allowed 'was N' || return 1
	for s in "${SLOTS[@]}"; do
		expect_probe "kexec_file_load:$s" allowed &&
			expect_probe "finit_module:lstest_$s" allowed || return 1
	done
}

# expect_locked: lockdown integrity; CAP_SYS_RAWIO gone from init's bounding
# set and the probe's, and not to be regained; the raw I/O interfaces refused
# by the capability check (EPERM, and no lockdown message: lockdown was not
# even asked); kexec_load refused by lockdown; unsigned and rogue-signed
# modules and images refused.
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

# ---- scenarios: Secure Boot off -------------------------------------------------

# lockshim with Secure Boot off boots an unsigned kernel: not locked. Until
# the loader side lands there is no table; then it is one without LOCKED.
sb_off_lockshim_not_locked() {
	[[ -s $LD_WORK/lockshim-db.efi ]] || { echo "FAIL: no lockshim binary ($LOCKSHIM_EFI)" >&2; return 1; }
	lockdown_boot "${FUNCNAME[0]}" "$QEMU_BUILD/vars-setup.fd" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-unsigned.efi" || return 1
	expect_log -F 'lockshim: Secure Boot is off' || return 1
	if (( LOADER_SIDE )); then
		expect_bootlog 'table present, not locked' || return 1
	else
		expect_bootlog 'no table' || return 1
	fi
	expect_unlocked && expect_machine_keys ""
}

# secureboot_enable=1 without a table: the simulation locks; only built-in
# keys are trusted, and none of the test keys is built in.
sb_off_simulate_locks() {
	launch_kernel "${FUNCNAME[0]}" "secureboot_enable=1" || return 1
	expect_bootlog 'secureboot_enable=1: locking down' &&
		expect_locked && expect_trust "" "" && expect_machine_keys ""
}

TRUSTED=(--trusted "$PKI/vendor.esl" --trusted "$PKI/mok.esl")

# A valid locked table with vendor and MOK certificates, revoked denied.
table_locked() {
	launch_kernel "${FUNCNAME[0]}" "" "" --locked "${TRUSTED[@]}" --denied "$PKI/revoked.esl" || return 1
	expect_log -F 'launch: installed' &&
		expect_log '^\[ *[0-9.]+\] efi: .* LOCKSHIM=0x[0-9a-f]+ ' &&
		expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 1 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_machine_keys "vendor mok" &&
		expect_log -F 'PROBE key:.blacklist present asymmetric "lockshim test revoked: '
}

# Nothing on the command line undoes a locked table.
table_locked_cmdline_cannot_undo() {
	launch_kernel "${FUNCNAME[0]}" "lockdown=none secureboot_enable=0 module.sig_enforce=0 lsm=capability" \
		"" --locked "${TRUSTED[@]}" || return 1
	expect_log -F 'PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img lockdown=none secureboot_enable=0 module.sig_enforce=0 lsm=capability' &&
		expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_bootlog 'secureboot_enable=0 ignored: it cannot undo a lock' &&
		expect_log -F "PROBE bootlog line Booting kernel: \`0' invalid for parameter \`module.sig_enforce'" &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}

# A valid table without LOCKED: nothing locks, its trusted keys are not used.
table_unlocked() {
	launch_kernel "${FUNCNAME[0]}" "" "" --unlocked "${TRUSTED[@]}" || return 1
	expect_bootlog 'table present, not locked (table v1)' &&
		expect_bootlog 'table keys: 0 denied entries; trusted keys unused (not locked)' &&
		expect_unlocked && expect_machine_keys ""
}

# secureboot_enable=1 with an unlocked table: locked, and the table's keys
# are trusted as a locked table's would be.
table_unlocked_simulate_locks() {
	launch_kernel "${FUNCNAME[0]}" "secureboot_enable=1" "" --unlocked "${TRUSTED[@]}" || return 1
	expect_bootlog 'secureboot_enable=1: locking down (table v1 present, not locked)' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_machine_keys "vendor mok"
}

# A denied certificate wins over the same certificate among the trusted ones.
table_denied_entry_refused() {
	launch_kernel "${FUNCNAME[0]}" "" "" --locked "${TRUSTED[@]}" --denied "$PKI/mok.esl" || return 1
	expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_locked && expect_trust "vendor" "vendor" &&
		expect_probe finit_module:lstest_mok refused 'errno=EKEYREJECTED' &&
		expect_log -F 'PROBE key:.blacklist present asymmetric "lockshim test mok: '
}

# In boot services memory, which the kernel frees before it loads keys: the
# table must have been reserved for its keys to load.
table_in_boot_services_memory() {
	launch_kernel "${FUNCNAME[0]}" "" "table_memory=boot" --locked "${TRUSTED[@]}" || return 1
	expect_log -F 'in boot services memory' &&
		expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 0 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}

# An invalid table locks down (fail closed), says why, and none of its keys
# is trusted.
_invalid() {
	local name=$1 why=$2 tcfg=$3; shift 3
	launch_kernel "$name" "" "$tcfg" "$@" || return 1
	expect_bootlog "invalid table ($why): locking down" &&
		expect_locked && expect_trust "" "" && expect_machine_keys ""
}
table_invalid_digest() { _invalid "${FUNCNAME[0]}" 'digest mismatch' "" --locked "${TRUSTED[@]}" --break digest; }
table_invalid_magic() { _invalid "${FUNCNAME[0]}" 'bad magic' "" --unlocked "${TRUSTED[@]}" --break magic; }
table_invalid_version() { _invalid "${FUNCNAME[0]}" 'version 2, this kernel knows 1' "" --unlocked --break version; }
table_invalid_header_size() { _invalid "${FUNCNAME[0]}" 'header_size 96, expected 80' "" --unlocked --break header-size; }
table_invalid_area() {
	_invalid "${FUNCNAME[0]}" 'trusted keys at 80+1689 outside the table data' "" \
		--unlocked "${TRUSTED[@]}" --break trusted-area
}
table_invalid_flags() { _invalid "${FUNCNAME[0]}" 'unknown flags 0x80' "" --unlocked --break flags; }
table_invalid_lock_reason() { _invalid "${FUNCNAME[0]}" 'lock_reason 0 does not match flags 0x1' "" --unlocked --break lock-reason; }
table_invalid_reserved() { _invalid "${FUNCNAME[0]}" 'reserved fields not zero' "" --unlocked --break reserved; }
table_crosses_descriptor() {
	_invalid "${FUNCNAME[0]}" 'total_size 8192 crosses its EFI memory descriptor' \
		"table_placement=cross" --unlocked --total-size 8192
}
table_outside_memory_map() {
	launch_kernel "${FUNCNAME[0]}" "" "table_address=0xfffffffff000" || return 1
	expect_bootlog 'invalid table (at 0x0000fffffffff000, outside the EFI memory map): locking down' &&
		expect_locked && expect_trust "" ""
}

# ---- scenarios: Secure Boot on (need the loader side) --------------------------

# VARS with Secure Boot on and build/pki/mok.esl as MokList (NV|BS), from
# tests/qemu/vars.sh's variants when it has them; empty when it cannot.
vars_secboot_mok() {
	local out=$LD_WORK/vars-secboot-mok.fd
	if [[ -s $out ]]; then echo "$out"; return 0; fi
	if grep -q -- '--variant NAME' tests/qemu/vars.sh; then
		local path
		path=$(tests/qemu/vars.sh --variant lockdown-mok \
			--var "MokList:$MOK_GUID:0x3:$PKI/mok.esl" "$PKI" 2>>"$LD_WORK/prepare.err" | tail -n1) &&
			[[ -s $path ]] && cp "$path" "$out" && echo "$out" && return 0
	fi
	return 1
}

SKIP_REASON=
_need_loader_side() {
	if (( !LOADER_SIDE )); then
		SKIP_REASON="lockshim does not install its table yet (no LOCKSHIM_TABLE in src/efi/*.c)"
		return 1
	fi
	if [[ ! -s $LD_WORK/lockshim-db.efi ]]; then
		SKIP_REASON="no lockshim binary ($LOCKSHIM_EFI)"
		return 1
	fi
	SB_MOK_VARS=$(vars_secboot_mok) || {
		SKIP_REASON="no VARS with a MokList (tests/qemu/vars.sh --variant/--var missing or failed)"
		return 1
	}
}

# Secure Boot on, lockshim signed by db, kernel by vendor, MOK enrolled:
# locked through lockshim's table, vendor and MOK keys trusted for modules
# and kexec; db (in the platform keyring here) is refused for both, rogue too.
sb_on_lockshim_locked() {
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_log -F 'PROBE key:.machine present asymmetric "lockshim test mok: '
}

# The same, started by launch.efi (db-signed) as a boot entry would, with a
# command line that tries to undo everything.
sb_on_lockshim_cmdline_cannot_undo() {
	lockdown_boot "${FUNCNAME[0]}" "$SB_MOK_VARS" "$LD_WORK/launch-db.efi" \
		"$LD_WORK/kernel-vendor.efi" \
		"image=\\EFI\\BOOT\\lockshim.efi"$'\n'"options=vmlinuz.efi lockdown=none secureboot_enable=0 module.sig_enforce=0" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/lockshim.efi || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F 'PROBE cmdline info console=ttyS0 lockdown=none secureboot_enable=0 module.sig_enforce=0' &&
		expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_bootlog 'secureboot_enable=0 ignored: it cannot undo a lock' &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}
NEEDS_LOADER_SIDE=" sb_on_lockshim_locked sb_on_lockshim_cmdline_cannot_undo "

# ---- scenario: kexec under a locked table ---------------------------------------

# Boot 1 (launch.efi, locked table, retain_initrd lockshim.kexec=1): the
# probe runs, then kexec_file_load()s the vendor-signed kernel with the same
# initramfs and the command line lockshim.kexec=2, and reboots into it.
# Boot 2 must find the table again, lock down, load the table's keys (their
# digest checked against the table's memory again: it was kept), and end the
# run. TCFG: launch.cfg lines (table_memory=boot).
_kexec() {
	local name=$1 tcfg=$2 log2 rc
	launch_kernel "$name" "retain_initrd lockshim.kexec=1" "$tcfg" --locked "${TRUSTED[@]}" || return 1
	log2=$LD_WORK/$name.second.log
	if ! LC_ALL=C grep -q -F 'PROBE kexec_into info rebooting' "$LOG"; then
		echo "FAIL: the first boot did not kexec" >&2
		_log_tail "$LOG"
		return 1
	fi
	# The first boot: everything up to the reboot.
	sed -n '1,/PROBE kexec_into info rebooting/p' "$LOG" >"$LD_WORK/$name.first.log"
	sed -n '/PROBE kexec_into info rebooting/,$p' "$LOG" >"$log2"
	local full=$LOG
	LOG=$LD_WORK/$name.first.log
	expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_probe kexec_into allowed 'vendor.efi' &&
		expect_no_log -F 'LOCKSHIM-PROBE-END'
	rc=$?
	LOG=$log2
	(( rc == 0 )) &&
		expect_log -F 'PROBE cmdline info console=ttyS0 lockshim.kexec=2' &&
		expect_log '^\[ *[0-9.]+\] efi: .* LOCKSHIM=0x[0-9a-f]+ ' &&
		expect_log '^\[ *[0-9.]+\] lockshim: locked down \(Secure Boot, table v1\)' &&
		expect_bootlog 'locked down (Secure Boot, table v1)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 0 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_machine_keys "vendor mok" &&
		expect_log -F 'LOCKSHIM-PROBE-END status=0'
	rc=$?
	LOG=$full
	return $rc
}
table_locked_kexec() { _kexec "${FUNCNAME[0]}" ""; }
table_locked_kexec_boot_services() { _kexec "${FUNCNAME[0]}" "table_memory=boot"; }

# efi=noruntime (the command line is not authenticated) leaves the kexec
# loader no EFI state to hand on: the next kernel would not see the table and
# would come up unlocked. It must not get there (fail closed): with no EFI
# memory map the table cannot be validated, so the first kernel locks as for
# an invalid table and trusts none of its keys, and the vendor image is
# refused (ENOKEY); an image signed by a builtin key would still meet
# bzImage64_load's refusal (EPERM, "no EFI state to pass on", patch 6).
# /init then ends the run with status 99.
table_locked_kexec_without_efi_refused() {
	local name=${FUNCNAME[0]} n
	# Its status is 99 by design (lockdown_boot's complaint about that goes
	# to $LD_WORK/NAME.boot.err); the lines below say whether that is right.
	launch_kernel "$name" "efi=noruntime retain_initrd lockshim.kexec=1" "" --locked "${TRUSTED[@]}" \
		2>"$LD_WORK/$name.boot.err"
	if ! LC_ALL=C grep -q -F 'LOCKSHIM-PROBE-END' "$LOG"; then
		cat "$LD_WORK/$name.boot.err" >&2
		return 1
	fi
	n=$(LC_ALL=C grep -c 'Linux version' "$LOG")
	if [[ $n != 1 ]]; then
		echo "FAIL: $n kernels booted, expected 1 (kexec must be refused)" >&2
		return 1
	fi
	expect_log -F 'PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img efi=noruntime' &&
		expect_bootlog 'invalid table (no EFI memory map to check it against): locking down' &&
		expect_locked && expect_trust "" "" &&
		expect_probe kexec_into refused 'errno=(ENOKEY|EPERM)' &&
		expect_log -F 'PROBE done ok' &&
		expect_log -F 'LOCKSHIM-PROBE-KEXEC-FAILED' &&
		expect_log -F 'LOCKSHIM-PROBE-END status=99'
}

# ---- running ------------------------------------------------------------------------

LD_PASSED=0 LD_FAILED=0 LD_SKIPPED=0

run_scenario() {
	local name=$1 t0 secs rc
	if [[ -n $PREP_ERROR ]]; then
		echo "# $name: $PREP_ERROR" >&2
		echo "not ok - $name (setup failed)"
		LD_FAILED=$(( LD_FAILED + 1 ))
		return 1
	fi
	if [[ $NEEDS_LOADER_SIDE == *" $name "* ]] && ! _need_loader_side; then
		echo "ok - $name # SKIP $SKIP_REASON"
		LD_SKIPPED=$(( LD_SKIPPED + 1 ))
		return 0
	fi
	LAST_QEMU_ELAPSED=
	t0=$(date +%s.%N)
	"$name"
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if (( rc == 0 )); then
		echo "ok - $name (${secs}s, QEMU ${LAST_QEMU_ELAPSED:-?}s)"
		LD_PASSED=$(( LD_PASSED + 1 ))
	else
		echo "# $name: see $LD_LOGS/lockdown-$name.log" >&2
		echo "not ok - $name (${secs}s)"
		LD_FAILED=$(( LD_FAILED + 1 ))
	fi
	return $rc
}

lockdown_main() {
	local -a which=("$@")
	(( ${#which[@]} )) || which=("${SCENARIOS[@]}")
	local s
	for s in "${which[@]}"; do
		if [[ " ${SCENARIOS[*]} " != *" $s "* ]]; then
			echo "test_lockdown.sh: unknown scenario $s (have: ${SCENARIOS[*]})" >&2
			return 2
		fi
	done
	echo "1..${#which[@]}"
	lockdown_prepare
	for s in "${which[@]}"; do
		run_scenario "$s"
	done
	echo "# lockdown: $LD_PASSED passed, $LD_FAILED failed, $LD_SKIPPED skipped" >&2
	(( LD_FAILED == 0 ))
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	lockdown_main "$@"
fi
