#!/usr/bin/env bash
# Secure Boot scenarios: OVMF -> lockshim -> Debian's kernel -> test initramfs
# (the companion test kernel where the scenario is about lockshim alone: e
# and f).
#
#   tests/qemu/test_boot.sh [SCENARIO...]     (default: all, in order)
#
# Environment:
#   LOCKSHIM_EFI   the loader to test (default build/lockshimx64.efi); a copy
#                  is signed with db (and another stripped of signatures)
#   QEMU_TIMEOUT   bound on each QEMU run in seconds (default 90)
#
# Prints `ok - NAME (T s, QEMU Q s)` or `not ok - NAME` per scenario, after
# its diagnostics, and exits 1 if any failed; LOCKSHIM_JOBS (default 2) of
# them run at a time (tests/qemu/scenario.sh, the runner of every
# test_*.sh). Logs: build/qemu/logs/NAME.log (clean), NAME.log.raw (as QEMU
# wrote it), NAME.log.err (QEMU's stderr).
#
# Every scenario boots \EFI\BOOT\BOOTX64.EFI (lockshim) from the removable
# media path, with \EFI\BOOT\vmlinuz.efi and \EFI\BOOT\initrd.img beside it.
#   sb_vendor_kernel_boots      a: SB on, lockshim signed by db, kernel by vendor
#   sb_unsigned_kernel_refused  b: SB on, kernel unsigned
#   sb_rogue_kernel_refused     c: SB on, kernel signed by a key trusted nowhere
#   sb_unsigned_lockshim_refused d: SB on, lockshim unsigned: OVMF refuses it
#   sb_off_unsigned_kernel_boots e: SB off (setup mode), kernel unsigned
#   sb_cpu_max_simd_crypto      a, on QEMU's `-cpu max` (SSSE3, AVX...): lockshim's
#                               SHA-256 takes the SSSE3 assembly, and not AVX,
#                               whose state OVMF leaves disabled (XCR0); with
#                               CRYPTO_ASM=0 in the environment, the portable C;
#                               and a MOK request waiting with lockshim's own
#                               MOK manager unsigned: refused, the kernel boots
#   outside_vendor_kernel_boots lockshim built with an outside vendor
#                               certificate (make VENDOR_CERT=) boots a kernel
#                               whose signer it issued, expired in 2020
#   outside_vendor_refuses_test_vendor  ... and refuses the test vendor's
#   outside_vendor_dbx_kernel_refused   ... and, its vendor dbx (make
#                               VENDOR_DBX=) holding the db certificate,
#                               refuses the db-signed kernel
#   sb_vendor_kernel_boots and sb_unsigned_kernel_refused also check that
#   lockshim says nothing of a TPM, having none; sb_vendor_kernel_boots,
#   that it says Debian 12's OVMF has no memory attributes protocol (no
#   firmware here enforces NX_COMPAT: docs/building.md),
#   and which of systemd's Boot Loader Interface variables it set before
#   the kernel started: not the times (QEMU's CPU reports a hypervisor) nor
#   LoaderDevicePartUUID (the ESP here has no partition table)
#
# Its preparation: boot.sh's (boot_prepare) and the lockshim built with an
# outside vendor certificate.

# shellcheck source=tests/qemu/policy.sh
. "$(dirname "${BASH_SOURCE[0]}")/policy.sh" # cds to the repository (boot_case)

SCENARIOS=(
	sb_vendor_kernel_boots
	sb_unsigned_lockshim_refused
	sb_off_unsigned_kernel_boots
	sb_cpu_max_simd_crypto
	outside_vendor_kernel_boots
)

# f. A vendor certificate from outside the test PKI, embedded with
# make VENDOR_CERT=, and a vendor dbx with make VENDOR_DBX= (the test db
# certificate, as an X509 list): its kernels boot, even one whose signer's
# certificate expired long ago (issued by the outside vendor); the test
# vendor's no longer do; a db-signed kernel is refused by the vendor dbx.
# (Not by an image digest: every signing of one kernel has the same
# Authenticode digest, the outside vendor's too.)
OUTSIDE=$QEMU_BUILD/outside
EXPIRED_SUBJECT='/CN=outside expired signer'
# what lockshim set of systemd's Boot Loader Interface, here (sb_vendor_kernel_boots)
BLI_SET='lockshim: Boot Loader Interface: LoaderInfo, LoaderFirmwareInfo, LoaderFirmwareType, LoaderImageIdentifier set'
outside_vendor_prepare() {
	rm -rf "$OUTSIDE" && mkdir -p "$OUTSIDE" &&
		openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 \
			-subj '/CN=outside vendor/' -keyout "$OUTSIDE/vendor.key" \
			-out "$OUTSIDE/vendor.crt" 2>/dev/null &&
		openssl x509 -in "$OUTSIDE/vendor.crt" -outform DER -out "$OUTSIDE/vendor.der" &&
		expired_signer_prepare "$OUTSIDE" &&
		sign_efi db "$BOOT_WORK/kernel-unsigned.efi" "$OUTSIDE/kernel-db.efi" &&
		tests/make-locked.sh -s variant VARIANT="$OUTSIDE/build" VARIANT_CERT="$OUTSIDE/vendor.der" \
			VARIANT_DBX="$PKI/db.esl" &&
		sign_efi db "$OUTSIDE/build/lockshimx64.efi" "$OUTSIDE/lockshim-db.efi" &&
		PKI_DIR=$OUTSIDE sign_efi expired "$BOOT_WORK/kernel-unsigned.efi" "$OUTSIDE/kernel.efi"
}

# expired_signer_prepare DIR: DIR/expired.{key,crt}, a code-signing
# certificate that DIR/vendor issued, valid only in 2020; refuses to go on
# unless it is expired now and chains to DIR/vendor.crt.
expired_signer_prepare() {
	local d=$1
	mkdir -p "$d/ca" && : >"$d/ca/index.txt" && echo 01 >"$d/ca/serial" &&
		cat >"$d/ca/ca.cnf" <<-EOC &&
			[ca]
			default_ca = outside
			[outside]
			database = $d/ca/index.txt
			new_certs_dir = $d/ca
			serial = $d/ca/serial
			default_md = sha256
			policy = any
			unique_subject = no
			[any]
			commonName = supplied
			[signer]
			basicConstraints = critical,CA:FALSE
			keyUsage = critical,digitalSignature
			extendedKeyUsage = codeSigning
		EOC
		openssl req -new -newkey rsa:2048 -nodes -sha256 -subj "$EXPIRED_SUBJECT/" \
			-keyout "$d/expired.key" -out "$d/ca/expired.csr" 2>/dev/null &&
		openssl ca -batch -config "$d/ca/ca.cnf" -cert "$d/vendor.crt" -keyfile "$d/vendor.key" \
			-startdate 20200101000000Z -enddate 20201231235959Z -extensions signer -notext \
			-in "$d/ca/expired.csr" -out "$d/expired.crt" 2>/dev/null || return 1
	if openssl x509 -in "$d/expired.crt" -noout -checkend 0 >/dev/null; then
		echo "expired_signer_prepare: $d/expired.crt has not expired" >&2
		return 1
	fi
	openssl verify -no_check_time -CAfile "$d/vendor.crt" "$d/expired.crt" >/dev/null || {
		echo "expired_signer_prepare: $d/expired.crt does not chain to $d/vendor.crt" >&2
		return 1
	}
}

# A MOK request (mokutil's vectors) waits: lockshim starts \EFI\BOOT\mmx64.efi.
MOKNEW_VARS=
moknew_vars() {
	local v=tests/vectors/mokutil/import_hashfile
	MOKNEW_VARS=$(tests/qemu/vars.sh --variant boot-moknew \
		--var "MokNew:605dab50-e046-4300-abb6-3dd810dd8b23:0x7:$v/MokNew.bin" \
		--var "MokAuth:605dab50-e046-4300-abb6-3dd810dd8b23:0x7:$v/MokAuth.bin" "$PKI" | tail -n 1) &&
		[[ -s $MOKNEW_VARS ]]
}

boot_tests_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	_prep "lockshim built with an outside vendor certificate" outside_vendor_prepare &&
		_prep "VARS with a MOK request (tests/qemu/vars.sh --variant boot-moknew)" moknew_vars
}

# The kernel is signed by $EXPIRED_SUBJECT, which the outside vendor issued
# and which expired in 2020: docs/policy.md, "neither expiry nor key usage is
# checked", as in firmware and shim.
outside_vendor_kernel_boots() {
	boot_lockshim "${FUNCNAME[0]}" "$QEMU_BUILD/vars-secboot.fd" \
		"$OUTSIDE/lockshim-db.efi" "$OUTSIDE/kernel.efi" 0.5 \
		'LOCKSHIM-TEST-DONE' 'lockshim: refusing' 'No bootable option' || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_log -F "lockshim: booting $KPATH: signed by $EXPIRED_SUBJECT, trusted through vendor certificate /CN=outside vendor" &&
		expect_log -F "lockshim: verdict=allowed image=$KPATH reason=allowed-cert list=vendor entry=\"/CN=outside vendor\"" &&
		expect_log -F "$MARKER" &&
		expect_order -F "lockshim: booting $KPATH" "$MARKER"
}

# a. The whole chain under Secure Boot.
sb_vendor_kernel_boots() {
	boot_lockshim "${FUNCNAME[0]}" "$QEMU_BUILD/vars-secboot.fd" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/kernel-vendor.efi" 0.5 \
		'LOCKSHIM-TEST-DONE' 'lockshim: refusing' 'No bootable option' || return 1
	expect_log '^lockshim [^ :]+$' &&
		expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_no_log -F 'lockshim: Secure Boot is off' &&
		expect_log -F 'lockshim: firmware: memory attributes protocol absent' &&
		expect_log -F "lockshim: booting $KPATH: " &&
		expect_log -F "lockshim: verdict=allowed image=$KPATH reason=allowed-cert list=vendor entry=\"/CN=lockshim test vendor\"" &&
		expect_order -F "lockshim: booting $KPATH: " "lockshim: verdict=allowed image=$KPATH" &&
		expect_log -F 'lockshim: lockdown=locked reason=secure-boot' &&
		expect_order -F 'lockshim: lockdown=locked' "lockshim: verdict=allowed image=$KPATH" &&
		expect_log -F 'EFI stub: UEFI Secure Boot is enabled.' &&
		expect_log -F 'EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path' &&
		expect_log -F "$MARKER" &&
		expect_log -F 'LOCKSHIM-TEST-LOCKDOWN: none [integrity] confidentiality' &&
		expect_order -F 'lockshim: SecureBoot=1' "lockshim: booting $KPATH" &&
		expect_order -F "lockshim: booting $KPATH" "$MARKER" &&
		expect_log -F "$BLI_SET" &&
		expect_log -F "lockshim: Boot Loader Interface: no LoaderDevicePartUUID: lockshim's device is not a GPT partition" &&
		expect_log -F 'lockshim: Boot Loader Interface: no LoaderTimeInitUSec, LoaderTimeExecUSec: the CPU reports a hypervisor' &&
		expect_order -F "lockshim: verdict=allowed image=$KPATH" "$BLI_SET" &&
		expect_order -F "$BLI_SET" 'EFI stub: ' &&
		# no TPM here: nothing measured, nothing said (docs/measured-boot.md)
		expect_no_log "$TPM_SAID"
}

# b. Unsigned kernel: refused; and lockshim, without a TPM, says nothing of one.
nothing_measured() { expect_no_log "$TPM_SAID"; }
boot_case sb_unsigned_kernel_refused kernel="$BOOT_WORK/kernel-unsigned.efi" \
	refused='image is not signed' record=reason=not-signed then=nothing_measured

# c. Kernel signed by a key neither in db nor lockshim's vendor certificate.
boot_case sb_rogue_kernel_refused kernel="$BOOT_WORK/kernel-rogue.efi" \
	refused='signer does not chain to a trusted certificate' record=reason=untrusted-signer

# f. The lockshim built with an outside vendor certificate refuses the test vendor's kernel...
boot_case outside_vendor_refuses_test_vendor loader="$OUTSIDE/lockshim-db.efi" \
	kernel="$BOOT_WORK/kernel-vendor.efi" \
	refused='signer does not chain to a trusted certificate' record=reason=untrusted-signer

# ... and its vendor dbx (make VENDOR_DBX=) holds the db certificate: the
# db-signed kernel is refused, though db trusts its signer (test_policy.sh
# db_signed_kernel_boots boots it): deny lists first.
boot_case outside_vendor_dbx_kernel_refused loader="$OUTSIDE/lockshim-db.efi" \
	kernel="$OUTSIDE/kernel-db.efi" refused='certificate /CN=lockshim test db is in vendor dbx' \
	record='reason=deny-cert list="vendor dbx" entry="/CN=lockshim test db"'

# d. Unsigned lockshim: OVMF's own image verification refuses it. OVMF says
#   BdsDxe: failed to load Boot0001 "UEFI Non-Block Boot Device" from PciRoot(0x0)/Pci(0x1,0x0): Access Denied
# then fails its built-in shell with "Security Violation", then
#   BdsDxe: No bootable option or device was found.
sb_unsigned_lockshim_refused() {
	local -a BOOT_RUN_OPTS=(--firmware-only) # OVMF starts no lockshim, nor an OS
	boot_lockshim "${FUNCNAME[0]}" "$QEMU_BUILD/vars-secboot.fd" \
		"$BOOT_WORK/lockshim-unsigned.efi" "$BOOT_WORK/kernel-vendor.efi" 0.5 \
		'No bootable option' "$MARKER" || return 1
	expect_log 'BdsDxe: failed to load Boot[0-9A-F]{4} .*: Access Denied' &&
		expect_log -F 'BdsDxe: No bootable option or device was found.' &&
		expect_no_log 'lockshim' &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F "$MARKER"
}

# e. Secure Boot off: lockshim says so and boots an unsigned kernel.
sb_off_unsigned_kernel_boots() {
	boot_lockshim "${FUNCNAME[0]}" "$QEMU_BUILD/vars-setup.fd" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/companion-unsigned.efi" 0.5 \
		'LOCKSHIM-TEST-DONE' 'lockshim: refusing' 'No bootable option' || return 1
	expect_log -F 'lockshim: SecureBoot=0 SetupMode=1' &&
		expect_log -F 'lockshim: Secure Boot is off' &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_log -F "lockshim: booting $KPATH" &&
		expect_log -F "lockshim: verdict=unverified image=$KPATH reason=not-signed" &&
		expect_log -F 'lockshim: lockdown=none reason=secure-boot-off' &&
		expect_log -F 'EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path' &&
		expect_log -F "$MARKER" &&
		expect_order -F 'lockshim: Secure Boot is off' "lockshim: booting $KPATH" &&
		expect_order -F "lockshim: booting $KPATH" "$MARKER"
}

# f. The same boot as a. on a CPU with SIMD extensions. A MOK request waits
# and mmx64.efi beside lockshim is lockshim's own MOK manager, unsigned: its
# digest is the one built in, so only its missing signature refuses it; the
# manager never runs and lockshim boots on.
sb_cpu_max_simd_crypto() {
	# and a distribution's CSV on this disk without a partition table: no
	# boot option could name it, and the fallback says so
	local csv=$BOOT_WORK/${FUNCNAME[0]}.csv
	printf 'v\0m\0l\0i\0n\0u\0z\0.\0e\0f\0i\0,\0x\0\n\0' >"$csv" || return 1
	BOOT_RUN_OPTS=(-- -cpu max)
	BOOT_ESP_EXTRA=(build/mmx64.efi EFI/BOOT/mmx64.efi "$csv" EFI/acme/BOOTX64.CSV)
	boot_lockshim "${FUNCNAME[0]}" "$MOKNEW_VARS" \
		"$BOOT_WORK/lockshim-db.efi" "$BOOT_WORK/companion-vendor.efi" 0.5 \
		'LOCKSHIM-TEST-DONE' 'lockshim: refusing \\EFI\\BOOT\\vmlinuz' 'No bootable option' \
		'^lockshim MOK manager'
	local rc=$?
	BOOT_RUN_OPTS=() BOOT_ESP_EXTRA=()
	(( rc == 0 )) || return 1
	local mm='\EFI\BOOT\mmx64.efi'
	expect_log -F 'lockshim: starting the MOK manager' &&
		expect_log -F "lockshim: refusing $mm: image is not signed" &&
		expect_order -F 'lockshim: starting the MOK manager' "lockshim: refusing $mm: image is not signed" &&
		expect_order -F "lockshim: refusing $mm: image is not signed" \
			"lockshim: verdict=refused image=$mm reason=not-signed" &&
		expect_no_log -F "lockshim: starting $mm" &&
		expect_no_log '^(lockshim )?MOK manager' &&
		expect_order -F "lockshim: verdict=refused image=$mm" "lockshim: booting $KPATH: " &&
		expect_order -F "lockshim: booting $KPATH: " "$MARKER" &&
		expect_order -F "lockshim: fallback: lockshim's device is not a GPT partition, which a boot option must name; nothing created" \
			"lockshim: booting $KPATH: " &&
		expect_no_log -F '\EFI\acme\' || return 1
	if [[ ${CRYPTO_ASM:-1} == 0 ]]; then # make check CRYPTO_ASM=0: the portable build
		expect_log -F 'lockshim: crypto: portable C (no-asm build)' || return 1
	else
		expect_log 'lockshim: crypto: x86_64 asm: .*SSSE3.*; SHA-256 via (SSSE3|SHA-NI); AVX off \(XCR0\)' ||
			return 1
	fi
	expect_log -F "lockshim: booting $KPATH: signed by /CN=lockshim test vendor" &&
		expect_log -F "$MARKER"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main boot_tests_prepare "$@"
fi
