#!/usr/bin/env bash
# Kernel lockdown across kexec: a locked kernel hands its lock on.
#
#   tests/qemu/test_lockdown_kexec.sh [SCENARIO...]     (default: all, in order)
#
#   table_locked_kexec_agrees_with_lockshim  locked table carrying a MokListX
#                           and an SbatLevel: the kernel's kexec_file_load
#                           verdict on each image of the kexec matrix (below)
#                           is lockshim's (`build/lockshim verify` on the
#                           host, same lists and level, .sbat required as the
#                           table says); then the probe
#                           kexecs (kexec_file_load + reboot) into the
#                           vendor-signed kernel: the second kernel finds the
#                           table and is locked too
#   table_locked_kexec_initcall_blacklist_agrees  the same table and matrix
#                           with initcall_blacklist= naming every initcall that
#                           loads revocations (dbx, MokListX, the table's
#                           denials, its SbatLevel): the same verdicts
#   table_locked_kexec_boot_services  the same with the table in boot services
#                           memory: its reservation survives kexec
#   table_locked_kexec_without_efi_refused  + efi=noruntime: no EFI state (so no
#                           table) would reach the next kernel: locked as
#                           invalid, the kexec into it refused
#   sb_on_revoked_kernel_kexec_refused  SB on, an older vendor-signed kernel
#                           revoked by its digest in MokListX: lockshim
#                           refuses to boot it, and the kernel it boots
#                           refuses to kexec it (the same image is loaded
#                           when nothing revokes it)
#   sb_on_kexec_sha1_refused  SB on, a SHA-1 digest in dbx: lockshim boots the
#                           vendor kernel, which refuses to kexec a
#                           SHA-1-Authenticode image signed by vendor and the
#                           vendor-signed image whose SHA-1 digest is in dbx,
#                           as lockshim refuses them
#   sb_on_kexec_mokx_sha1_loads  SB on, a SHA-1 entry in MokListX (so in the
#                           table's denials): applied, and the good kernel
#                           (what kdump loads) is still kexec'd
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	table_locked_kexec_agrees_with_lockshim
	table_locked_kexec_initcall_blacklist_agrees
	table_locked_kexec_boot_services
	table_locked_kexec_without_efi_refused
	sb_on_revoked_kernel_kexec_refused
	sb_on_kexec_sha1_refused
	sb_on_kexec_mokx_sha1_loads
)

# ---- the kexec matrix ------------------------------------------------------------
#
# Images kexec_file_load()ed from a kernel locked by a table whose denied area
# is $MX_MOKX and whose SbatLevel is $MX_LEVEL (the test kernel's own
# component at generation 5, kernel/sbat.csv), and which says lockshim
# required .sbat of the kernel it started (SBAT_REQUIRED), each also judged
# on the host by `build/lockshim verify` (the rule for what lockshim starts)
# with the table's lists: the vendor certificate and MOK certificate
# trusted, $MX_MOKX as MokListX, $MX_LEVEL.
#   mx_current          vendor-signed, this kernel's .sbat (generation 5)
#   mx_revoked          vendor-signed, another .sbat at the level; its SHA-256
#                       digest is in MokListX
#   mx_sha384           signed by vendor with SHA-384 (osslsigncode), not revoked
#   mx_sha384_revoked   the same with another .sbat; its SHA-256 digest is in
#                       MokListX (the kernel checks SHA-256 whatever the
#                       signature's algorithm)
#   mx_sbat_below       vendor-signed, linux.lockshim generation 4 (the series
#                       of an earlier round): SBAT revokes it
#   mx_sbat_at          vendor-signed, linux.lockshim generation 5 (another
#                       version string, so another digest)
#   mx_rogue            rogue-signed
#   mx_unsigned         unsigned
#   mx_no_sbat          vendor-signed, no .sbat (the build's bzImage.raw)
#   mx_sha1             signed by vendor with SHA-1 (osslsigncode -h sha1):
#                       lockshim accepts SHA-2 only
#   mx_sha1_revoked     vendor-signed, another .sbat; its SHA-1 digest is in
#                       MokListX
#   mx_sigvalue_revoked vendor-signed, another .sbat; its signature value is
#                       in MokListX (EFI_CERT_RSA2048_SHA256)
# MX_EXPECT is what lockshim must say of each: a run where the host's
# verdicts differ from it tests nothing (lists or level not applied) and fails.
MX_DIR=$LD_WORK/kexec-matrix
MX_INITRD=$MX_DIR/probe-initrd.img
MX_MOKX=$MX_DIR/mokx.esl
MX_LEVEL=$MX_DIR/sbat-level.csv
MX_IMAGES=(mx_current mx_revoked mx_sha384 mx_sha384_revoked mx_sbat_below mx_sbat_at mx_rogue
	mx_unsigned mx_no_sbat mx_sha1 mx_sha1_revoked mx_sigvalue_revoked)
declare -A MX_EXPECT=(
	[mx_current]=allowed [mx_revoked]=refused [mx_sha384]=allowed [mx_sha384_revoked]=refused
	[mx_sbat_below]=refused [mx_sbat_at]=allowed [mx_rogue]=refused [mx_unsigned]=refused
	[mx_no_sbat]=refused [mx_sha1]=refused [mx_sha1_revoked]=refused
	[mx_sigvalue_revoked]=refused
)
# The entries of the table's denied area: two SHA-256 digests, a SHA-1
# digest and a signature value.
MX_DENIED=4

# mx_image NAME SIGNER|- SBAT_VERSION|-|none GENERATION [sha384|sha1]:
# $MX_DIR/NAME.efi, the test kernel with a .sbat whose linux.lockshim record
# has GENERATION and version SBAT_VERSION (- keeps the build's bzImage and
# its .sbat, none takes bzImage.raw, without .sbat), signed by SIGNER (-
# unsigned), with sbsign or osslsigncode -h sha384 or sha1.
mx_image() {
	local name=$1 signer=$2 version=$3 gen=$4 how=${5:-} img=$MX_DIR/$1.raw.efi
	if [[ $version == - ]]; then
		cp "$KDIR/bzImage" "$img" || return 1
	elif [[ $version == none ]]; then
		cp "$KDIR/bzImage.raw" "$img" || return 1
	else
		sed -e "s/^linux\.lockshim,[0-9]*,\(.*\),6\.12,/linux.lockshim,$gen,\1,$version,/" \
			kernel/sbat.csv >"$MX_DIR/$name.sbat.csv" &&
			grep -q "^linux.lockshim,$gen,.*,$version," "$MX_DIR/$name.sbat.csv" &&
			build/lockshim add-sbat "$MX_DIR/$name.sbat.csv" "$KDIR/bzImage.raw" "$img" || return 1
	fi
	case $signer:$how in
	-:*) mv "$img" "$MX_DIR/$name.efi" ;;
	*:sha384 | *:sha1)
		rm -f "$MX_DIR/$name.efi"
		osslsigncode sign -h "$how" -certs "$PKI/$signer.crt" -key "$PKI/$signer.key" \
			-in "$img" -out "$MX_DIR/$name.efi" ;;
	*) sign_efi "$signer" "$img" "$MX_DIR/$name.efi" ;;
	esac
}

# The images, MokListX with the two revoked digests, the SbatLevel, and
# the probe initramfs with the images in /kexec ($MX_INITRD).
kexec_matrix_prepare() {
	local -a extra=()
	local n
	command -v osslsigncode >/dev/null || { echo "osslsigncode missing (apt-get install osslsigncode)" >&2; return 1; }
	rm -rf "$MX_DIR" && mkdir -p "$MX_DIR" || return 1
	mx_image mx_current vendor - 5 &&
		mx_image mx_revoked vendor 6.12-revoked 5 &&
		mx_image mx_sha384 vendor - 5 sha384 &&
		mx_image mx_sha384_revoked vendor 6.12-sha384-revoked 5 sha384 &&
		mx_image mx_sbat_below vendor 6.12-below 4 &&
		mx_image mx_sbat_at vendor 6.12-at 5 &&
		mx_image mx_rogue rogue - 5 &&
		mx_image mx_unsigned - - 5 &&
		mx_image mx_no_sbat vendor none 5 &&
		mx_image mx_sha1 vendor - 5 sha1 &&
		mx_image mx_sha1_revoked vendor 6.12-sha1-revoked 5 &&
		mx_image mx_sigvalue_revoked vendor 6.12-sigvalue-revoked 5 || return 1
	python3 tests/cli/mkesl.py SHA256 "$MX_DIR/mokx-sha256.esl" \
		"$(build/lockshim hash "$MX_DIR/mx_revoked.efi")" \
		"$(build/lockshim hash "$MX_DIR/mx_sha384_revoked.efi")" &&
		python3 tests/cli/mkesl.py SHA1 "$MX_DIR/mokx-sha1.esl" \
			"$(build/lockshim hash --alg sha1 "$MX_DIR/mx_sha1_revoked.efi")" &&
		python3 tests/cli/mkesl.py RSA2048_SHA256 "$MX_DIR/mokx-sigvalue.esl" \
			"$(python3 tests/cli/mkesl.py signature-values - "$MX_DIR/mx_sigvalue_revoked.efi")" &&
		cat "$MX_DIR/mokx-sha256.esl" "$MX_DIR/mokx-sha1.esl" "$MX_DIR/mokx-sigvalue.esl" \
			>"$MX_MOKX" || return 1
	{ cat certs/sbat-level-automatic.csv; echo "linux.lockshim,5"; } >"$MX_LEVEL"
	for n in "${MX_IMAGES[@]}"; do extra+=("$n=$MX_DIR/$n.efi"); done
	tests/initramfs/build-probe.sh "$KDIR" "$MX_INITRD" "${extra[@]}"
}

# The probe initramfs with the older kernel too (lockdown.sh, "Slots").
PROBE_OLD_INITRD=$LD_WORK/probe-old-initrd.img

kexec_prepare() {
	lockdown_prepare && _prep "kexec matrix" kexec_matrix_prepare &&
		_prep "probe initramfs with the older kernel" \
			tests/initramfs/build-probe.sh "$KDIR" "$PROBE_OLD_INITRD" "vendor_old=$OLD_KERNEL" &&
		_prep "SHA-1 images, dbx and MokListX" sha1_prepare
}

# The SHA-1 scenarios': $MX_DIR/sb_dbx_sha1.efi (vendor-signed, its own .sbat
# version, so its own digests), whose SHA-1 digest is the one entry of
# $SHA1_DBX; $SHA1_MOKX, a SHA-1 entry for the older kernel (an image the
# probe does not load); VARS with Secure Boot on and MokList trusted, plus
# dbx $SHA1_DBX (before the PKI's) in $SB_SHA1_DBX_VARS, or MokListX
# $SHA1_MOKX in $SB_SHA1_MOKX_VARS; and the probe initramfs with
# /kexec/sha1.efi (mx_sha1) and /kexec/dbx_sha1.efi.
SHA1_DBX=$LD_WORK/dbx-sha1.esl
SHA1_MOKX=$LD_WORK/mokx-sha1.esl
SB_SHA1_DBX_VARS=$LD_WORK/vars-secboot-dbx-sha1.fd
SB_SHA1_MOKX_VARS=$LD_WORK/vars-secboot-mokx-sha1.fd
PROBE_SHA1_INITRD=$LD_WORK/probe-sha1-initrd.img
sha1_prepare() {
	local path
	local -a mok=(--var "MokList:$MOK_GUID:0x3:$PKI/mok.esl"
		--var "MokListTrusted:$MOK_GUID:0x3:$LD_WORK/MokListTrusted.bin")
	mx_image sb_dbx_sha1 vendor 6.12-dbx-sha1 5 &&
		python3 tests/cli/mkesl.py SHA1 "$SHA1_DBX" \
			"$(build/lockshim hash --alg sha1 "$MX_DIR/sb_dbx_sha1.efi")" &&
		python3 tests/cli/mkesl.py SHA1 "$SHA1_MOKX" \
			"$(build/lockshim hash --alg sha1 "$OLD_KERNEL")" || return 1
	printf '\x01' >"$LD_WORK/MokListTrusted.bin"
	path=$(tests/qemu/vars.sh --variant lockdown-dbx-sha1 "${mok[@]}" --dbx-esl "$SHA1_DBX" \
		"$PKI" | tail -n1) && [[ -s $path ]] && cp "$path" "$SB_SHA1_DBX_VARS" &&
		path=$(tests/qemu/vars.sh --variant lockdown-mokx-sha1 "${mok[@]}" \
			--var "MokListX:$MOK_GUID:0x3:$SHA1_MOKX" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$SB_SHA1_MOKX_VARS" &&
		tests/initramfs/build-probe.sh "$KDIR" "$PROBE_SHA1_INITRD" \
			"sha1=$MX_DIR/mx_sha1.efi" "dbx_sha1=$MX_DIR/sb_dbx_sha1.efi"
}

# sha1_host NAME DENY-OPTIONS... -- IMAGE=VERDICT...: lockshim's verdict on the
# host (the boot's lists: vendor and MOK trusted, the automatic SbatLevel,
# and DENY-OPTIONS) on each IMAGE (sha1, dbx_sha1, vendor) is VERDICT.
sha1_host() {
	local name=$1 n host bad=0; shift
	local -a deny=()
	local -A images=([sha1]=$MX_DIR/mx_sha1.efi [dbx_sha1]=$MX_DIR/sb_dbx_sha1.efi
		[vendor]=$LD_WORK/kernel-vendor.efi)
	while [[ $1 != -- ]]; do deny+=("$1"); shift; done
	shift
	for n in "$@"; do
		if build/lockshim verify --vendor-cert "$PKI/vendor.crt" --mok "$PKI/mok.esl" \
			"${deny[@]}" --sbat-level certs/sbat-level-automatic.csv "${images[${n%=*}]}" \
			>>"$LD_WORK/$name.host" 2>&1; then
			host=allowed
		else
			host=refused
		fi
		[[ $host == "${n#*=}" ]] ||
			{ echo "FAIL: lockshim (host) says $host for ${n%=*}, expected ${n#*=}" >&2; bad=1; }
	done
	(( !bad ))
}

# The table of the matrix boots: locked, vendor and MOK trusted, $MX_MOKX
# denied, $MX_LEVEL as SbatLevel.
MX_TABLE=(--locked "${TRUSTED[@]}" --denied "$MX_MOKX" --sbat-level "$MX_LEVEL")

# expect_kexec_matrix: for every image, the kernel's kexec_file_load verdict
# (the probe's line in $LOG) equals lockshim's on the host, which equals
# MX_EXPECT. The table of verdicts is $LD_WORK/NAME.matrix.
expect_kexec_matrix() {
	local name=$1 n host kernel line bad=0 out=$LD_WORK/$1.matrix
	: >"$out"
	for n in "${MX_IMAGES[@]}"; do
		if build/lockshim verify --vendor-cert "$PKI/vendor.crt" --mok "$PKI/mok.esl" \
			--mokx "$MX_MOKX" --sbat-level "$MX_LEVEL" "$MX_DIR/$n.efi" >>"$out.host" 2>&1; then
			host=allowed
		else
			host=refused
		fi
		line=$(LC_ALL=C grep -m1 -F "PROBE kexec_file_load:$n " "$LOG")
		kernel=$(awk '{ print $3 }' <<<"$line")
		printf '%-18s lockshim=%-8s kernel=%-8s %s\n' "$n" "$host" "${kernel:-none}" \
			"${line#*kexec_file_load:"$n" }" >>"$out"
		if [[ $host != "${MX_EXPECT[$n]}" ]]; then
			echo "FAIL: lockshim (host) says $host for $n, the matrix expects ${MX_EXPECT[$n]}" >&2
			bad=1
		fi
		if [[ $kernel != "$host" ]]; then
			echo "FAIL: kexec_file_load:$n: kernel ${kernel:-gave no line}, lockshim $host" >&2
			bad=1
		fi
	done
	sed 's/^/# /' "$out" >&2
	(( !bad ))
}

# Boot 1 (launch.efi, locked table, retain_initrd lockshim.kexec=1): the
# probe runs, then kexec_file_load()s the vendor-signed kernel with the same
# initramfs and the command line lockshim.kexec=2, and reboots into it.
# Boot 2 must find the table again, lock down, load the table's keys (their
# digest checked against the table's memory again: it was kept), and end the
# run. TCFG: launch.cfg lines (table_memory=boot).
_kexec() {
	local name=$1 tcfg=$2 log2 rc matrix=${3:-}
	local -a table=(--locked "${TRUSTED[@]}")
	local denied=0 PROBE_INITRD=$PROBE_INITRD
	# the probe holds a copy of the initramfs and the kernel it loads: with
	# the storage, pmem and FireWire drivers of lockshim.config, 256 MiB
	# ran out (the OOM killer ended the probe before the kexec)
	local QEMU_MEMORY=512
	if [[ -n $matrix ]]; then
		table=("${MX_TABLE[@]}") denied=$MX_DENIED PROBE_INITRD=$MX_INITRD
	fi
	launch_kernel "$name" "retain_initrd lockshim.kexec=1" "$tcfg" "${table[@]}" || return 1
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
	{ [[ -z $matrix ]] || expect_kexec_matrix "$name"; } &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog "table keys: 2 trusted certificates, $denied denied entries" &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_probe kexec_into allowed 'vendor.efi' &&
		expect_no_log -F 'LOCKSHIM-PROBE-END'
	rc=$?
	LOG=$log2
	(( rc == 0 )) &&
		expect_log -F 'PROBE cmdline info console=ttyS0 lockshim.kexec=2' &&
		expect_log '^\[ *[0-9.]+\] efi: .* LOCKSHIM=0x[0-9a-f]+ ' &&
		expect_log '^\[ *[0-9.]+\] lockshim: locked down \(Secure Boot, table v3\)' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog "table keys: 2 trusted certificates, $denied denied entries" &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_machine_keys "vendor mok" &&
		expect_log -F 'LOCKSHIM-PROBE-END status=0'
	rc=$?
	LOG=$full
	return $rc
}
table_locked_kexec_agrees_with_lockshim() { _kexec "${FUNCNAME[0]}" "" matrix; }

# initcall_blacklist= (honoured with CONFIG_KALLSYMS, as in Debian) names
# every initcall that loads a revocation: load_uefi_certs (dbx, MokListXRT),
# the table's denials and SbatLevel (load_lockshim_denied,
# lockshim_sbat_keep_level; load_lockshim_keys before the series split it)
# and its trusted keys. A locked kernel runs them anyway (the lockdown LSM
# says so once), so the matrix gets the same verdicts.
table_locked_kexec_initcall_blacklist_agrees() {
	local name=${FUNCNAME[0]} PROBE_INITRD=$MX_INITRD
	local bl=load_uefi_certs,load_lockshim_keys,load_lockshim_denied,load_lockshim_trusted,lockshim_sbat_keep_level
	launch_kernel "$name" "initcall_blacklist=$bl" "" "${MX_TABLE[@]}" || return 1
	expect_kexec_matrix "$name" &&
		expect_log -F "PROBE cmdline info console=ttyS0 initrd=\EFI\BOOT\initrd.img initcall_blacklist=$bl" &&
		expect_no_log -F 'initcall_blacklist requires CONFIG_KALLSYMS' &&
		expect_log 'Lockdown: [^:]*: initcall_blacklist= is restricted' &&
		expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog "table keys: 2 trusted certificates, $MX_DENIED denied entries" &&
		expect_bootlog 'SbatLevel 2025021800 applies to kexec images' &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}
table_locked_kexec_boot_services() { _kexec "${FUNCNAME[0]}" "table_memory=boot"; }

# efi=noruntime (the command line is not authenticated) leaves the kexec
# loader no EFI state to hand on: the next kernel would not see the table and
# would come up unlocked. It must not get there (fail closed): with no EFI
# memory map the table cannot be validated, so the first kernel locks as for
# an invalid table and trusts none of its keys, and the vendor image is
# refused (ENOKEY); an image signed by a builtin key would still meet
# bzImage64_load's refusal (EPERM, "no EFI state to pass on", patch 9).
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

# Revocation reaches kexec: the digest lockshim refuses to boot is refused
# by kexec_file_load too, although a trusted key (vendor) signs the image.
# Boot 1: lockshim refuses the older kernel (MokListX). Boot 2: lockshim
# boots the current one, which loads the table's denied digest into the
# blacklist, and the probe's kexec_file_load of the older one fails on it.
# Boot 3: without MokListX the same image is loaded (what refuses it in boot
# 2 is the revocation, nothing else).
sb_on_revoked_kernel_kexec_refused() {
	local name=${FUNCNAME[0]} hash PROBE_INITRD=$PROBE_OLD_INITRD
	need_lockshim || return 1
	hash=$(build/lockshim hash "$OLD_KERNEL") || return 1
	LD_REFUSAL_STOP=$FIRMWARE_REFUSED LD_FIRMWARE_ONLY=1 lockdown_run "$name-boot" "$SB_MOK_REVOKED_VARS" \
		"$LD_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
		"$OLD_KERNEL" EFI/BOOT/vmlinuz.efi "$PROBE_INITRD" EFI/BOOT/initrd.img 2>/dev/null
	[[ $QEMU_STOPPED_ON == "$FIRMWARE_REFUSED" ]] || {
		echo "FAIL: the refused boot ended ${QEMU_OUTCOME}${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/}, not on the firmware's refusal" >&2
		return 1
	}
	expect_log -F 'lockshim: refusing \EFI\BOOT\vmlinuz.efi: image SHA-256 digest is in MokListX' &&
		expect_log -F 'lockshim: verdict=refused image=\EFI\BOOT\vmlinuz.efi reason=deny-digest list=MokListX' &&
		expect_order -F 'lockshim: verdict=refused image=\EFI\BOOT\vmlinuz.efi' 'Security Violation' &&
		expect_lockshim_returned 'Security Violation' &&
		expect_no_log -F 'Linux version' || return 1
	lockdown_boot "$name" "$SB_MOK_REVOKED_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'table keys: 2 trusted certificates, 1 denied entries' &&
		expect_locked && expect_trust "vendor mok" "vendor mok" &&
		expect_probe kexec_file_load:vendor_old refused \
			"errno=EKEYREJECTED.*kmsg=\"PEFILE: Image digest $hash is blacklisted" || return 1
	lockdown_boot "$name-unrevoked" "$SB_MOK_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_locked && expect_probe kexec_file_load:vendor_old allowed
}

# A kernel lockshim locked refuses at kexec what lockshim refuses on SHA-1
# grounds (Secure Boot on, the real chain, dbx holding the SHA-1 digest of
# a vendor-signed image): lockshim on the host, with the same lists,
# refuses the image signed with SHA-1 by vendor (a trusted key) and the
# one whose SHA-1 digest is in dbx; the kernel's kexec_file_load refuses
# each for that reason (its kmsg line), and loads the vendor kernel.
sb_on_kexec_sha1_refused() {
	local name=${FUNCNAME[0]} bad=0 sha1 PROBE_INITRD=$PROBE_SHA1_INITRD
	need_lockshim || return 1
	sha1_host "$name" --dbx "$SHA1_DBX" -- sha1=refused dbx_sha1=refused vendor=allowed ||
		return 1
	sha1=$(build/lockshim hash --alg sha1 "$MX_DIR/sb_dbx_sha1.efi") || return 1
	lockdown_boot "$name" "$SB_SHA1_DBX_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	# each verdict said, whatever the other is
	sha1_refused_for_algorithm || bad=1
	expect_probe kexec_file_load:dbx_sha1 refused \
		"errno=EKEYREJECTED.*kmsg=\".*PEFILE: Image digest $sha1 is blacklisted \\(sha1\\)" || bad=1
	(( !bad )) && sha1_locked_as_lockshim 0
}

sha1_refused_for_algorithm() {
	expect_probe kexec_file_load:sha1 refused \
		'errno=EKEYREJECTED.*kmsg=".*PEFILE: Image signer digest algorithm sha1 refused'
}

# sha1_locked_as_lockshim N: locked by the table, its keys and its N denials
# loaded, none left unapplied; vendor and MOK trusted.
sha1_locked_as_lockshim() {
	expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog "table keys: 2 trusted certificates, $1 denied entries" &&
		expect_no_log 'not applied' &&
		expect_locked && expect_trust "vendor mok" "vendor mok"
}

# A SHA-1 entry in MokListX (an image's digest lockshim applies; the table
# carries it among its denials) is applied by the kernel lockshim locked,
# and stops nothing else: the vendor kernel, what kdump would load, and the
# vendor-signed dbx_sha1 (not in this dbx) are kexec'd, as lockshim allows
# them; the SHA-1-signed image is still refused, for its algorithm.
sb_on_kexec_mokx_sha1_loads() {
	local name=${FUNCNAME[0]} bad=0 PROBE_INITRD=$PROBE_SHA1_INITRD
	need_lockshim || return 1
	sha1_host "$name" --mokx "$SHA1_MOKX" -- sha1=refused dbx_sha1=allowed vendor=allowed ||
		return 1
	lockdown_boot "$name" "$SB_SHA1_MOKX_VARS" "$LD_WORK/lockshim-db.efi" \
		"$LD_WORK/kernel-vendor.efi" || return 1
	expect_probe kexec_file_load:vendor allowed || bad=1
	expect_probe kexec_file_load:dbx_sha1 allowed || bad=1
	sha1_refused_for_algorithm || bad=1
	(( !bad )) && sha1_locked_as_lockshim 1 &&
		expect_log -F "PROBE key:.blacklist present blacklist \"bin:$(build/lockshim hash --alg sha1 "$OLD_KERNEL")\""
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main kexec_prepare "$@"
fi
