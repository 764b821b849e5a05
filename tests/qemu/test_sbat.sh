#!/usr/bin/env bash
# SBAT on the real loader, and the revocation matrix: every way a signed
# kernel can be revoked, each refused with its reason, and the same kernel
# booting when none applies. Secure Boot on, lockshim signed by db, kernels
# from boot.sh's preparation (Debian's, with tests/qemu/debian-kernel.sbat.csv
# as .sbat: components sbat 1, linux 1, linux.debian 1).
#
#   tests/qemu/test_sbat.sh [SCENARIO...]     (default: all, in order)
#
# Environment: LOCKSHIM_EFI, QEMU_TIMEOUT, BOOT_TEE as for test_boot.sh.
#
# The revocation matrix (one vendor-signed kernel unless said):
#   not_revoked_boots          nothing revokes it: it boots; and lockshim, on
#                              this first boot, stores its automatic level in
#                              SbatLevel (NV|BS)
#   revoked_by_dbx_digest      dbx holds its Authenticode SHA-256
#   revoked_by_dbx_key         the same kernel signed by a key MokList trusts
#                              and dbx denies
#   revoked_by_mokx_key        MokListX holds the vendor certificate
#   revoked_by_sbat            SbatLevel (newer than lockshim's) says linux 2:
#                              refused naming the component; lockshim does not
#                              lower that level to its own older one
# SBAT:
#   sbat_generation_raised_boots  the same level; the kernel re-signed with
#                              linux 2 in its .sbat boots
#   sbat_lockshim_revoked      lockshim one SBAT generation back
#                              (tests/sbat-previous.sh), db-signed, and
#                              SbatLevel the latest level lockshim ships
#                              (certs/sbat-level-latest.csv): it refuses to
#                              run anything, the fallback of a BOOTX64.CSV
#                              on the ESP included
#   sbat_runtime_level_replaced   a SbatLevel with the runtime attribute (one
#                              the OS could write) saying linux 2: not trusted,
#                              replaced with lockshim's level; the kernel boots
#   sbat_missing_refused       a signed kernel without .sbat
#   sbat_malformed_refused     a signed kernel whose .sbat has a non-numeric
#                              generation
# Variables are read back offline after each boot (mkdmpstore.py).

# shellcheck source=tests/qemu/policy.sh
. "$(dirname "${BASH_SOURCE[0]}")/policy.sh" # cds to the repository

SCENARIOS=(
	sbat_lockshim_revoked
)

SBAT_WORK=$QEMU_BUILD/sbat
AUTOMATIC=certs/sbat-level-automatic.csv
AUTOMATIC_DATE=$(sed -n '1s/^sbat,[0-9]*,\([0-9]*\).*/\1/p' "$AUTOMATIC")
KERNEL_SBAT=tests/qemu/debian-kernel.sbat.csv
LATEST=certs/sbat-level-latest.csv
LATEST_DATE=$(sed -n '1s/^sbat,[0-9]*,\([0-9]*\).*/\1/p' "$LATEST")
GENERATION=$(sed -n 's/^lockshim,\([0-9]*\),.*/\1/p' certs/sbat.csv)

sbat_prepare() {
	policy_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	rm -rf "$SBAT_WORK" && mkdir -p "$SBAT_WORK"
	printf 'sbat,1,2099010100\nlinux,2\n' >"$SBAT_WORK/level-linux2.csv"
	sed 's/^linux,1,/linux,2,/' "$KERNEL_SBAT" >"$SBAT_WORK/kernel-linux2.csv"
	sed 's/^linux,1,/linux,x,/' "$KERNEL_SBAT" >"$SBAT_WORK/kernel-malformed.csv"

	_prep "expected dbx (hash-to-efi-sig-list)" \
		hash-to-efi-sig-list "$BOOT_WORK/kernel-vendor.efi" "$SBAT_WORK/dbx-hash.esl" ||
		return 0
	cat "$SBAT_WORK/dbx-hash.esl" "$PKI/revoked.esl" >"$SBAT_WORK/dbx.esl"
	_prep "kernel without .sbat" unsbat_kernel "$SBAT_WORK/kernel-nosbat.efi" &&
		_prep "vendor-signed kernel without .sbat" sign_efi vendor "$SBAT_WORK/kernel-nosbat.efi" "$SBAT_WORK/kernel-nosbat-vendor.efi" &&
		_prep "kernel with linux 2" sign_sbat "$SBAT_WORK/kernel-linux2.csv" "$SBAT_WORK/kernel-linux2.efi" &&
		_prep "kernel with a malformed .sbat" malformed_sbat_kernel "$SBAT_WORK/kernel-malformed.efi" &&
		_prep "kernel signed by the revoked key" sign_efi revoked "$BOOT_WORK/kernel-unsigned.efi" "$SBAT_WORK/kernel-revoked.efi" &&
		_prep "lockshim one SBAT generation back (tests/sbat-previous.sh)" \
			tests/sbat-previous.sh "$SBAT_WORK/previous" "$PKI/vendor.der" &&
		_prep "db-signed lockshim one generation back" \
			sign_efi db "$SBAT_WORK/previous/lockshimx64.efi" "$SBAT_WORK/lockshim-previous-db.efi" ||
		return 0

	_variant revocation-dbx-digest --dbx-hash "$BOOT_WORK/kernel-vendor.efi"
	_variant sbat-linux2 --var "SbatLevel:$SHIM_GUID:0x3:$SBAT_WORK/level-linux2.csv"
	_variant sbat-latest --var "SbatLevel:$SHIM_GUID:0x3:$LATEST"
	_variant sbat-runtime --var "SbatLevel:$SHIM_GUID:0x7:$SBAT_WORK/level-linux2.csv"
	_variant revocation-dbx-key --var "MokList:$SHIM_GUID:0x3:$PKI/revoked.esl"
	_variant revocation-mokx --var "MokListX:$SHIM_GUID:0x3:$PKI/vendor.esl"
}

# unsbat_kernel OUT: Debian's kernel without signature or .sbat.
unsbat_kernel() {
	tests/qemu/debian-kernel.sh --without-sbat "$1"
}

# sign_sbat CSV OUT: the unsigned kernel with CSV as .sbat, signed by the vendor.
sign_sbat() {
	"$LOCKSHIM_ROOT/scripts/sign.sh" --key "$PKI/vendor.key" --cert "$PKI/vendor.crt" \
		--sbat "$1" --output "$2" "$SBAT_WORK/kernel-nosbat.efi"
}

# malformed_sbat_kernel OUT: add-sbat refuses malformed text, so add a good
# .sbat and break one byte of its generation before signing.
malformed_sbat_kernel() {
	local out=$1
	build/lockshim add-sbat "$KERNEL_SBAT" "$SBAT_WORK/kernel-nosbat.efi" "$out.unsigned" &&
		python3 - "$out.unsigned" <<'PY' &&
import sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
i = d.rfind(b"\nlinux,1,")
assert i > 0
d[i + 7] = ord("x")
open(p, "wb").write(d)
PY
		sign_efi vendor "$out.unsigned" "$out" && rm -f "$out.unsigned"
}

# expect_stored VARS SPEC...: after the boot, VARS holds exactly these.
expect_stored() {
	local vars=$1 out; shift
	if ! out=$(python3 tests/qemu/mkdmpstore.py --check "$vars" "$@" 2>&1); then
		echo "FAIL: after the boot, $vars does not hold:" >&2
		sed 's/^/| /' <<<"$out" >&2
		return 1
	fi
}

VENDOR_VERDICT='signed by /CN=lockshim test vendor, trusted through vendor certificate /CN=lockshim test vendor'
LEVEL_LINUX2="SbatLevel:$SHIM_GUID:0x3=$SBAT_WORK/level-linux2.csv"

# On its first boot lockshim stores its automatic level (NV|BS).
automatic_level_stored() {
	expect_log -F "lockshim: SbatLevel $AUTOMATIC_DATE stored" &&
		expect_order -F "lockshim: SbatLevel $AUTOMATIC_DATE stored" "lockshim: booting $KPATH" &&
		expect_stored "$VARS" "SbatLevel:$SHIM_GUID:0x3=$AUTOMATIC"
}
boot_case not_revoked_boots persist=1 kernel="$BOOT_WORK/companion-vendor.efi" \
	boots="$VENDOR_VERDICT" then=automatic_level_stored

# The hash dbx holds is the one lockshim computes (its host CLI, the same
# code): otherwise the refusal would prove nothing.
dbx_holds_lockshims_digest() {
	local want have
	want=$(build/lockshim hash "$BOOT_WORK/kernel-vendor.efi") || {
		echo "FAIL: build/lockshim hash $BOOT_WORK/kernel-vendor.efi failed (make all?)" >&2
		return 1
	}
	have=$(tail -c 32 "$SBAT_WORK/dbx-hash.esl" | od -An -tx1 -v | tr -d ' \n')
	if [[ $want != "$have" ]]; then
		echo "FAIL: lockshim hashes the kernel as $want, hash-to-efi-sig-list as $have" >&2
		return 1
	fi
	echo "# kernel Authenticode SHA-256 $want" >&2
}
boot_case revoked_by_dbx_digest kernel="$BOOT_WORK/kernel-vendor.efi" \
	variant=revocation-dbx-digest holds="dbx:$SECDB_GUID:0x27=$SBAT_WORK/dbx.esl" \
	refused='image SHA-256 digest is in dbx' then=dbx_holds_lockshims_digest

boot_case revoked_by_dbx_key kernel="$SBAT_WORK/kernel-revoked.efi" \
	variant=revocation-dbx-key holds="MokList:$SHIM_GUID:0x3=$PKI/revoked.esl" \
	refused='certificate /CN=lockshim test revoked is in dbx'

boot_case revoked_by_mokx_key kernel="$BOOT_WORK/kernel-vendor.efi" \
	variant=revocation-mokx holds="MokListX:$SHIM_GUID:0x3=$PKI/vendor.esl" \
	refused='certificate /CN=lockshim test vendor is in MokListX'

# A newer level than lockshim's own is kept as it is.
newer_level_kept() {
	expect_no_log -F 'lockshim: SbatLevel' && expect_stored "$VARS" "$LEVEL_LINUX2"
}
boot_case revoked_by_sbat persist=1 kernel="$BOOT_WORK/kernel-vendor.efi" \
	variant=sbat-linux2 holds="$LEVEL_LINUX2" \
	refused='SBAT revokes component linux generation 1 (SbatLevel 2099010100 requires 2)' \
	then=newer_level_kept

boot_case sbat_generation_raised_boots kernel="$SBAT_WORK/kernel-linux2.efi" \
	variant=sbat-linux2 holds="$LEVEL_LINUX2" boots="$VENDOR_VERDICT"

# A SbatLevel the OS could have written: replaced with lockshim's own.
runtime_level_replaced() {
	expect_log -F "lockshim: SbatLevel had attributes 0x7, not NV|BS: replaced with $AUTOMATIC_DATE" &&
		expect_log -F "lockshim: SbatLevel $AUTOMATIC_DATE stored" &&
		expect_stored "$VARS" "SbatLevel:$SHIM_GUID:0x3=$AUTOMATIC"
}
boot_case sbat_runtime_level_replaced persist=1 kernel="$BOOT_WORK/companion-vendor.efi" \
	variant=sbat-runtime holds="SbatLevel:$SHIM_GUID:0x7=$SBAT_WORK/level-linux2.csv" \
	boots="$VENDOR_VERDICT" then=runtime_level_replaced

boot_case sbat_missing_refused kernel="$SBAT_WORK/kernel-nosbat-vendor.efi" \
	refused='image has no .sbat section (SBAT is required)'

boot_case sbat_malformed_refused kernel="$SBAT_WORK/kernel-malformed.efi" \
	refused="malformed .sbat section: line 2: generation 'x' is not a number from 0 to 4294967295"

sbat_lockshim_revoked() {
	_vars sbat-latest "SbatLevel:$SHIM_GUID:0x3=$LATEST" || return 1
	# a distribution's BOOTX64.CSV: a revoked lockshim at the removable
	# path does no fallback either (it would start what the CSV names)
	printf 'v\0m\0l\0i\0n\0u\0z\0.\0e\0f\0i\0,\0x\0\n\0' >"$SBAT_WORK/BOOTX64.CSV"
	local -a BOOT_ESP_EXTRA=("$BOOT_WORK/kernel-vendor.efi" EFI/vendor/vmlinuz.efi
		"$SBAT_WORK/BOOTX64.CSV" EFI/vendor/BOOTX64.CSV)
	# it boots nothing: no OS runs (run_qemu --firmware-only)
	local -a BOOT_RUN_OPTS=(--firmware-only)
	boot_lockshim "${FUNCNAME[0]}" "$VARS" \
		"$SBAT_WORK/lockshim-previous-db.efi" "$BOOT_WORK/kernel-vendor.efi" 0.3 \
		"$FIRMWARE_REFUSED" 'No bootable option' "$MARKER" || return 1
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_log -F "lockshim: this lockshim is revoked: SBAT revokes component lockshim generation $((GENERATION - 1)) (SbatLevel $LATEST_DATE requires $GENERATION); refusing to boot anything" &&
		expect_no_log -F 'lockshim: booting' &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_no_log -F 'EFI stub:' &&
		expect_no_log -F "$MARKER" &&
		expect_no_log -F 'lockshim: fallback' &&
		expect_order -F 'lockshim: this lockshim is revoked' 'Security Violation' &&
		expect_lockshim_returned 'Security Violation'
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main sbat_prepare "$@"
fi
