# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# What the scenarios with the MOK manager and a mokutil guest share
# (test_mok.sh, test_hostile_state.sh, test_measured_boot.sh source it):
# boot.sh's preparation, the db-signed MOK manager, MOK- and db-signed
# kernels, a Boot0000 entry that starts lockshim with linux.efi and the
# test initrd, the mokutil guest initramfs (tests/initramfs/mokutil-guest.sh)
# and the VARS stores VARS_BASE (Secure Boot, Boot0000), VARS_ENROLLED
# (and MokList) and VARS_TIMEOUT (and MokTimeout 2 s).
#
# mok_prepare                  the above, in MOK_WORK
# mok_variant NAME --var SPEC...   a cached VARS variant with Boot0000 too
# boot_mok NAME VARS KERNEL STEPS [run_qemu options...]
#                              one boot, the guest running STEPS (see below);
#                              fails when the guest started but could not read
#                              the variables (expect_guest_read_variables LOG)
# plant_vectors VARIANT VARS CASE/NAME... [--var SPEC...]
#                              VARS: a copy of a cached variant holding the
#                              request variables mokutil wrote (tests/vectors/mokutil)
# vector_password CASE         the password of a recorded case
# boot_mok_refused NAME VARS KERNEL [run_qemu options...]
#                              a boot that lockshim must refuse: it ends on the
#                              firmware's $FIRMWARE_REFUSED
# expect_mok_kernel_refused REASON RECORD
#                              lockshim refused linux.efi, then returned
# var_state / expect_var / expect_no_var VARS NAME [ATTRIBUTES]
#                              a variable of the shim GUID in a VARS file
#                              (mkdmpstore.py --list); a store that cannot be
#                              read fails both expectations

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
MOK_WORK=$QEMU_BUILD/mok
PASSWORD=lockshim-e2e-pw
MM_EFI=${MM_EFI:-build/mmx64.efi}
MOK_VECTORS=tests/vectors/mokutil
LEGACY_MOKNEW=$MOK_VECTORS/import_hashfile/MokNew.bin
VARS_BASE= VARS_ENROLLED= VARS_TIMEOUT=
MOK_GUEST_ADD=() # more --add SRC:DEST for every boot's guest (test_hostile_state.sh)
SB_PASSWORD=Sb8to16chars

mok_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	rm -rf "$MOK_WORK" && mkdir -p "$MOK_WORK/data"
	_prep "db-signed MOK manager" sign_efi db "$MM_EFI" "$MOK_WORK/mmx64-db.efi" &&
		_prep "MOK-signed kernel" sign_efi mok "$BOOT_WORK/kernel-unsigned.efi" "$MOK_WORK/kernel-mok.efi" &&
		_prep "db-signed kernel" sign_efi db "$BOOT_WORK/kernel-unsigned.efi" "$MOK_WORK/kernel-db.efi" &&
		_prep "Boot0000 load option" python3 tests/qemu/mkloadoption.py "$MOK_WORK/Boot0000.bin" \
			lockshim '\EFI\lockshim\lockshimx64.efi' \
			'linux.efi initrd=\boot\initrd-test.img console=ttyS0 panic=-1' || return 0
	printf '\x00\x00' >"$MOK_WORK/BootOrder.bin"
	printf '\x02\x00\x00\x00' >"$MOK_WORK/MokTimeout.bin" # 2 s
	openssl passwd -6 -salt e2eSalt "$PASSWORD" >"$MOK_WORK/data/pw.hash"
	# glibc's crypt("") ("openssl passwd" prints <NULL> for an empty password)
	perl -e 'print crypt("", q{$5$e2eEmpty$}), "\n"' >"$MOK_WORK/data/empty.hash"
	# the legacy MokAuth of an empty password: SHA-256 over MokNew alone
	openssl dgst -sha256 -binary "$LEGACY_MOKNEW" >"$MOK_WORK/legacy-MokAuth.bin"
	printf '%s\n%s\n' "$SB_PASSWORD" "$SB_PASSWORD" >"$MOK_WORK/data/sb.pw"
	cp "$PKI/mok.der" "$MOK_WORK/data/mok.der"
	# The guest initramfs without the steps: boot_mok adds each boot's.
	_prep "mokutil guest initramfs" tests/initramfs/mokutil-guest.sh \
		--add "$MOK_WORK/data/mok.der:/data/mok.der" \
		--add "$MOK_WORK/data/pw.hash:/data/pw.hash" \
		--add "$MOK_WORK/data/empty.hash:/data/empty.hash" \
		--add "$MOK_WORK/data/sb.pw:/data/sb.pw" "$MOK_WORK/mokutil-guest.img" || return 0
	local boot=(--var "Boot0000:$GLOBAL_GUID:0x7:$MOK_WORK/Boot0000.bin"
		--var "BootOrder:$GLOBAL_GUID:0x7:$MOK_WORK/BootOrder.bin")
	VARS_BASE=$(tests/qemu/vars.sh --variant mok-base "${boot[@]}" "$PKI" 2>>"$PREP_LOG") &&
		VARS_ENROLLED=$(tests/qemu/vars.sh --variant mok-enrolled "${boot[@]}" \
			--var "MokList:$SHIM_GUID:0x3:$PKI/mok.esl" "$PKI" 2>>"$PREP_LOG") &&
		VARS_TIMEOUT=$(tests/qemu/vars.sh --variant mok-timeout "${boot[@]}" \
			--var "MokTimeout:$SHIM_GUID:0x7:$MOK_WORK/MokTimeout.bin" "$PKI" 2>>"$PREP_LOG") ||
		PREP_ERROR="tests/qemu/vars.sh --variant failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

# mok_variant NAME --var SPEC...: the path of a VARS store with Secure Boot,
# the scenario's Boot0000 and BootOrder, and these variables
# (tests/qemu/vars.sh --variant, cached); says why on failure.
mok_variant() {
	local name=$1; shift
	tests/qemu/vars.sh --variant "$name" \
		--var "Boot0000:$GLOBAL_GUID:0x7:$MOK_WORK/Boot0000.bin" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$MOK_WORK/BootOrder.bin" "$@" "$PKI" ||
		{ echo "FAIL: vars.sh --variant $name" >&2; return 1; }
}

# plant_vectors VARIANT VARS CASE/NAME... [--var SPEC...]: VARS, the
# scenario's own copy of the cached store mok_variant VARIANT, holding each
# variable NAME exactly as Debian's mokutil wrote it in case CASE of
# tests/vectors/mokutil (NAME.bin, with the attributes CASE/attributes
# lists), then the further --var SPECs. The MOK manager's scenarios start
# from it instead of a boot that runs mokutil.
plant_vectors() {
	local variant=$1 vars=$2 item attrs src
	shift 2
	local -a specs=()
	while (( $# )) && [[ $1 != --var ]]; do
		item=$1
		shift
		attrs=$(awk -v n="${item#*/}" '$1 == n { print $2 }' "$MOK_VECTORS/${item%/*}/attributes")
		if [[ -z $attrs || ! -s $MOK_VECTORS/$item.bin ]]; then
			echo "FAIL: no recorded variable $item in $MOK_VECTORS" >&2
			return 1
		fi
		specs+=(--var "${item#*/}:$SHIM_GUID:$attrs:$MOK_VECTORS/$item.bin")
	done
	src=$(mok_variant "$variant" "${specs[@]}" "$@") && cp "$src" "$vars"
}

# vector_password CASE: the password a recorded case typed or hashed (its case.json).
vector_password() {
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["password"])' \
		"$MOK_VECTORS/$1/case.json"
}

# boot_mok NAME VARS KERNEL STEPS [run_qemu options...]: one boot of the ESP
# with lockshim, the MOK manager, KERNEL as linux.efi and a mokutil guest
# running STEPS (a shell snippet); VARS is written in place, so it must be
# the scenario's own copy. FIRST_STAGE: what Boot0000 starts instead of
# lockshim; MANAGER: what is at mmx64.efi instead of the MOK manager;
# REFUSAL_STOP: the refusal that ends the boot (default: any).
boot_mok() {
	local name=$1 vars=$2 kernel=$3 steps=$4; shift 4
	local img=$MOK_WORK/$name-initrd.img esp=$MOK_WORK/$name-esp.img
	printf '%s\n' "$steps" >"$MOK_WORK/$name.steps"
	tests/initramfs/mokutil-guest.sh --base "$MOK_WORK/mokutil-guest.img" "${MOK_GUEST_ADD[@]}" \
		--steps "$MOK_WORK/$name.steps" "$img" >/dev/null || return 1
	make_esp "$esp" \
		"${FIRST_STAGE:-$BOOT_WORK/lockshim-db.efi}" EFI/lockshim/lockshimx64.efi \
		"${MANAGER:-$MOK_WORK/mmx64-db.efi}" EFI/lockshim/mmx64.efi \
		"$kernel" EFI/lockshim/linux.efi \
		"$img" boot/initrd-test.img \
		"$MOK_WORK/data/mok.der" EFI/lockshim/mok.der || return 1
	run_qemu --esp "$esp" --vars "$vars" --persist --log "$BOOT_LOGS/$name.log" \
		--timeout "$QEMU_TIMEOUT" --stop "${REFUSAL_STOP:-lockshim: refusing}" --stop 'No bootable option' \
		--stop "$CRASH" --stop 'Kernel panic' --stop 'MOKUTIL-GUEST-ERROR' "$@"
	local rc=$?
	rm -f "$esp" "$img"
	qemu_outcome "$name" && expect_guest_read_variables "$BOOT_LOGS/$name.log" || return 1
	return $rc
}

# expect_guest_read_variables LOG: a mokutil guest that started said
# MOKUTIL-GUEST-EFIVARFS ok and no MOKUTIL-GUEST-ERROR: a variable missing
# from what it shows is missing, not unread.
expect_guest_read_variables() {
	local log=$1 err
	err=$(LC_ALL=C grep -a -m1 'MOKUTIL-GUEST-ERROR' "$log")
	if [[ -n $err ]]; then
		echo "FAIL: the mokutil guest could not read the variables: $err (log $log)" >&2
		return 1
	fi
	if LC_ALL=C grep -aq '^MOKUTIL-GUEST-BEGIN' "$log" &&
		! LC_ALL=C grep -aqxF 'MOKUTIL-GUEST-EFIVARFS ok' "$log"; then
		echo "FAIL: the mokutil guest started, but never said MOKUTIL-GUEST-EFIVARFS ok (log $log)" >&2
		return 1
	fi
}

# boot_mok_refused NAME VARS KERNEL [run_qemu options...]: a boot in which
# lockshim must refuse KERNEL: it ends on the firmware's $FIRMWARE_REFUSED
# (lockshim returned EFI_SECURITY_VIOLATION), not on lockshim's refusal line,
# after which a lockshim that hung or went on would look the same. No OS
# runs: run_qemu --firmware-only.
boot_mok_refused() {
	local name=$1 vars=$2 kernel=$3
	shift 3
	REFUSAL_STOP=$FIRMWARE_REFUSED boot_mok "$name" "$vars" "$kernel" 'step true' --firmware-only "$@"
}

# What the firmware says when lockshim, started by Boot0000 (mok_prepare),
# returned EFI_SECURITY_VIOLATION. ($FIRMWARE_REFUSED matches it, and the
# same line for the UEFI Shell's boot option, tried next.)
MOK_FIRMWARE_REFUSED='BdsDxe: failed to start Boot0000 "lockshim" from \EFI\lockshim\lockshimx64.efi: Security Violation'

# expect_mok_kernel_refused REASON RECORD: after boot_mok_refused, lockshim
# said it refused linux.efi with REASON, then wrote its record (RECORD:
# reason=CODE and what follows, src/core/verdict_reason.h), then returned
# EFI_SECURITY_VIOLATION to the firmware, and the kernel never ran.
expect_mok_kernel_refused() {
	local k='\EFI\lockshim\linux.efi'
	local refusal="lockshim: refusing $k: $1" record="lockshim: verdict=refused image=$k $2"
	if [[ $QEMU_STOPPED_ON != "$FIRMWARE_REFUSED" ]]; then
		echo "FAIL: the refused boot ended ${QEMU_OUTCOME}${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/}, not on the firmware's /$FIRMWARE_REFUSED/" >&2
		_log_tail "$LOG"
		return 1
	fi
	expect_order -F "$refusal" "$record" &&
		expect_order -F "$record" "$MOK_FIRMWARE_REFUSED" &&
		expect_no_log -F 'MOKUTIL-GUEST-BEGIN'
}

# var_state VARS NAME [ATTRIBUTES]: 0 when the variable of the shim GUID is
# live in VARS (with those attributes), 1 when it is not, 2 (said on
# stderr) when VARS cannot be read: then nothing is known about it.
var_state() {
	local list
	if ! list=$(python3 tests/qemu/mkdmpstore.py --list "$1" 2>&1); then
		echo "FAIL: cannot read the variables of $1: $list" >&2
		return 2
	fi
	awk -v n="$2" -v g="$SHIM_GUID" -v a="${3:-}" \
		'$1 == n && $2 == g && (a == "" || $3 == a) { f = 1 } END { exit !f }' <<<"$list"
}

expect_var() {
	var_state "$@"
	case $? in
	0) return 0 ;;
	1) echo "FAIL: variable $2${3:+ with attributes $3} missing from $1" >&2 ;;
	esac
	return 1
}

expect_no_var() {
	var_state "$1" "$2"
	case $? in
	1) return 0 ;;
	0) echo "FAIL: variable $2 still present in $1" >&2 ;;
	esac
	return 1
}
