# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# What the policy scenarios share (test_policy.sh and test_sbat.sh source
# it): boot.sh's preparation, the kernels signed by db and the MOK key, the
# policy VARS variants (tests/qemu/vars.sh --variant, cached:
# build/qemu/vars-policy-*.fd), and the checks of a kernel that booted.
#
# policy_prepare           boot_prepare, then the above
# _vars NAME SPEC...       the variant NAME exists and holds each
#                          mkdmpstore.py --check SPEC; sets VARS to its path
# _expect_kernel_booted VERDICT [RECORD]
#                          lockshim booted the kernel at $KPATH with VERDICT
#                          (and the record RECORD), and the kernel ran
# BOOTS, REFUSALS          the stop rules of a boot and of a refusal
#
# boot_case NAME KEY=VALUE...
#     Declares the scenario NAME as data, adds it to SCENARIOS and defines
#     it: one boot of an ESP holding LOADER as \EFI\BOOT\BOOTX64.EFI,
#     KERNEL as vmlinuz.efi and the test initrd, and lockshim's verdict on
#     the kernel, sentence and record. The keys:
#       vars=FILE        the VARS store (default: Secure Boot, build/qemu/vars-secboot.fd)
#       variant=NAME     a VARS variant made by the preparation (_variant),
#                        which must hold each of
#       holds="SPEC..."  (mkdmpstore.py --check specs: NAME:GUID:ATTRS=FILE)
#       persist=1        the boot writes a copy of the store (then= reads it
#                        back: its path is $VARS)
#       loader=FILE      (default: lockshim signed by db)
#       kernel=FILE      (required)
#       boots=SENTENCE   lockshim says "booting $KPATH: SENTENCE", records
#                        the verdict, and the kernel reaches the initramfs
#       refused=SENTENCE lockshim says "refusing $KPATH: SENTENCE", records
#                        it, returns: the firmware reports the Security
#                        Violation of the option lockshim ran as (not
#                        another's); nothing of the kernel runs
#       record=TEXT      the record's text after "image=$KPATH " (optional)
#       then=FUNCTION    the scenario's own checks, after these
#     A scenario that needs more than one boot, another ESP, or input at a
#     prompt is a function of its own.

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
SECDB_GUID=d719b2cb-3d3a-4596-a3bc-dad00e67656f

declare -A VARIANT_ERROR=() VARIANT_SECS=()

# _variant NAME ARGS...: tests/qemu/vars.sh --variant NAME ARGS... $PKI, timed;
# on failure VARIANT_ERROR[NAME] says why.
_variant() {
	local name=$1; shift
	local err=$BOOT_WORK/variant-$name.err t0 t1
	t0=$(date +%s.%N)
	if ! tests/qemu/vars.sh --variant "$name" "$@" "$PKI" >/dev/null 2>"$err"; then
		VARIANT_ERROR[$name]="tests/qemu/vars.sh --variant $name failed: $(tail -n 3 "$err" | tr '\n' ' ')"
		echo "# variant $name: FAILED (see $err)" >&2
		return 1
	fi
	t1=$(date +%s.%N)
	VARIANT_SECS[$name]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	local how=cached
	grep -q 'creating variant' "$err" && how=created
	echo "# variant $name: $how in ${VARIANT_SECS[$name]}s ($QEMU_BUILD/vars-$name.fd)" >&2
}

policy_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	_prep "db-signed kernel" sign_efi db "$BOOT_WORK/kernel-unsigned.efi" "$BOOT_WORK/kernel-db.efi" &&
		_prep "MOK-signed kernel" sign_efi mok "$BOOT_WORK/kernel-unsigned.efi" "$BOOT_WORK/kernel-mok.efi" ||
		return 0

	local mok=$PKI/mok.esl
	_variant policy-mok --var "MokList:$SHIM_GUID:0x3:$mok"
	_variant policy-mok-rt --var "MokList:$SHIM_GUID:0x7:$mok"
	malformed_esl "$BOOT_WORK/mokx-malformed.esl"
	_variant policy-mokx-malformed --var "MokListX:$SHIM_GUID:0x3:$BOOT_WORK/mokx-malformed.esl"
	# The SHA-1 digest as lockshim's host CLI computes it (tests/cli checks it
	# against osslsigncode's): dbx is that list, then the revoked certificate.
	_prep "the db-signed kernel's SHA-1 digest" sha1_esl "$BOOT_WORK/kernel-db.efi" "$BOOT_WORK/dbx-sha1.esl" &&
		_prep "a list of unknown type" python3 tests/cli/mkesl.py UNKNOWN "$BOOT_WORK/unknown.esl" 00112233 &&
		cat "$BOOT_WORK/dbx-sha1.esl" "$PKI/revoked.esl" >"$BOOT_WORK/dbx-sha1.expected" &&
		_variant policy-dbx-sha1 --dbx-esl "$BOOT_WORK/dbx-sha1.esl" \
			--var "MokListX:$SHIM_GUID:0x3:$BOOT_WORK/unknown.esl"
}

# sha1_esl IMAGE OUT: one EFI_CERT_SHA1 list of IMAGE's Authenticode SHA-1 digest.
sha1_esl() {
	local digest
	digest=$(build/lockshim hash --alg sha1 "$1") && [[ $digest =~ ^[0-9a-f]{40}$ ]] &&
		python3 tests/cli/mkesl.py SHA1 "$2" "$digest" && echo "# kernel Authenticode SHA-1 $digest" >&2
}

# _vars NAME SPEC...: the variant's VARS file exists (its creation did not
# fail) and holds each mkdmpstore.py --check SPEC; sets VARS to its path.
_vars() {
	local name=$1; shift
	VARS=$QEMU_BUILD/vars-$name.fd
	if [[ -n ${VARIANT_ERROR[$name]:-} ]]; then
		echo "FAIL: ${VARIANT_ERROR[$name]}" >&2
		return 1
	fi
	local out
	if ! out=$(python3 tests/qemu/mkdmpstore.py --check "$VARS" "$@" 2>&1); then
		echo "FAIL: $VARS does not hold what the scenario needs:" >&2
		sed 's/^/| /' <<<"$out" >&2
		return 1
	fi
	sed 's/^/# read back: /' <<<"$out" >&2
}

# Stop rules: a boot ends at the initramfs' last line, a refusal, or the
# firmware giving up (and $CRASH, added by boot_lockshim).
BOOTS=('LOCKSHIM-TEST-DONE' 'lockshim: refusing' 'No bootable option')
REFUSALS=('lockshim: refusing' 'No bootable option' "$MARKER")

# Shared by the scenarios that boot: lockshim's verdict, then the kernel
# under Secure Boot, then the initramfs; from the removable path of an ESP
# without a BOOTX64.CSV, the fallback says nothing (nor writes: it says
# each write).
# _expect_kernel_booted VERDICT [RECORD]: the sentence says VERDICT and, when
# given, the record line after it says RECORD after the image.
_expect_kernel_booted() {
	local verdict=$1 record=${2:-}
	expect_log -F 'lockshim: SecureBoot=1 SetupMode=0' &&
		expect_no_log -F 'lockshim: refusing' &&
		expect_log -F "lockshim: booting $KPATH: $verdict" &&
		expect_no_log -F 'lockshim: fallback' &&
		{ [[ -z $record ]] ||
			expect_order -F "lockshim: booting $KPATH: $verdict" \
				"lockshim: verdict=allowed image=$KPATH $record"; } &&
		expect_log -F 'EFI stub: UEFI Secure Boot is enabled.' &&
		expect_log -F "$MARKER" &&
		expect_order -F 'lockshim: SecureBoot=1' "lockshim: booting $KPATH" &&
		expect_order -F "lockshim: booting $KPATH" "$MARKER"
}

declare -A BOOT_CASE=()

boot_case() {
	local name=$1 kv; shift
	for kv in "$@"; do
		case ${kv%%=*} in
		vars | variant | holds | persist | loader | kernel | boots | refused | record | then)
			BOOT_CASE[$name.${kv%%=*}]=${kv#*=} ;;
		*) echo "boot_case $name: unknown key in '$kv'" >&2; return 2 ;;
		esac
	done
	SCENARIOS+=("$name")
	eval "$name() { boot_case_run $name; }"
}

boot_case_run() {
	local name=$1
	local loader=${BOOT_CASE[$name.loader]:-$BOOT_WORK/lockshim-db.efi}
	local kernel=${BOOT_CASE[$name.kernel]} record=${BOOT_CASE[$name.record]:-}
	local boots=${BOOT_CASE[$name.boots]-} refused=${BOOT_CASE[$name.refused]-}
	local variant=${BOOT_CASE[$name.variant]:-} holds
	VARS=${BOOT_CASE[$name.vars]:-$QEMU_BUILD/vars-secboot.fd}
	if [[ -n $variant ]]; then
		read -ra holds <<<"${BOOT_CASE[$name.holds]:-}"
		_vars "$variant" "${holds[@]}" || return 1
	fi
	if [[ -n ${BOOT_CASE[$name.persist]:-} ]]; then
		cp "$VARS" "$BOOT_WORK/$name.fd" || return 1
		VARS=$BOOT_WORK/$name.fd
		BOOT_RUN_OPTS=(--persist)
	fi
	if [[ -n ${BOOT_CASE[$name.refused]+set} ]]; then
		# a refusal ends where the firmware says lockshim returned: no OS
		# runs (run_qemu --firmware-only), but where the case shows that
		# lockshim says nothing of a TPM when the machine has none
		[[ ${BOOT_CASE[$name.then]:-} == nothing_measured ]] ||
			BOOT_RUN_OPTS=(--firmware-only "${BOOT_RUN_OPTS[@]}")
		boot_lockshim "$name" "$VARS" "$loader" "$kernel" 0.1 \
			"$FIRMWARE_REFUSED" 'No bootable option' 'EFI stub: ' "$MARKER" || return 1
		BOOT_RUN_OPTS=()
		_expect_kernel_refused "$refused" "$record" || return 1
	else
		boot_lockshim "$name" "$VARS" "$loader" "$kernel" 0.5 "${BOOTS[@]}" || return 1
		BOOT_RUN_OPTS=()
		_expect_kernel_booted "$boots" "$record" || return 1
	fi
	[[ -z ${BOOT_CASE[$name.then]:-} ]] || "${BOOT_CASE[$name.then]}"
}
