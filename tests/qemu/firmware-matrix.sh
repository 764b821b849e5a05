# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# The firmware's own verdict on a first stage against `lockshim verify
# --as-firmware` (src/core/firmware_verdict.h), shared by the QEMU scenarios
# of test_firmware_verdict.sh (a sample) and tests/qemu/firmware-matrix-run
# (every cell, `make firmware-matrix`).
#
# A cell is IMAGE DB DBX:
#   IMAGE  tests/guest's load_marker.efi signed by the old CA's signer
#          (tests/pki-ca.sh), the new one's, both in two certificate table
#          entries (old first, as Debian's verify_combine_sigs), or the new
#          nested inside the old (osslsigncode -nest): old, new, both, nested
#   DB     db holds the old CA, the new one or both (then the test db
#          certificate, which signs none of these): old, new, both
#   DBX    dbx revokes neither, the old CA or the new (as an X.509 entry,
#          then the test PKI's revoked certificate): none, old, new; or by
#          TBS digest (X509_SHA256, no revocation time) the old CA,
#          old-ca-tbs, or the new CA's signer, new-signer-tbs
# The firmware (OVMF, Secure Boot on, the variant store made by
# tests/qemu/vars.sh --variant fw-db-DB-dbx-DBX, cached by its contents)
# starts the image itself as Boot0000, the store's only BootOrder entry
# (\EFI\firmware\first.efi), no lockshim in between: "allowed" when
# load_marker prints LOADMARKER from there, "refused" when the boot manager
# says it failed to load Boot0000 with Access Denied.
#
# fwm_prepare           PKI, CA PKI, the images, the base stores; sets FWM_ERROR
# fwm_variant DB DBX    the cell's store (made or cached); its path in FWM_VARS
# fwm_firmware CELL...  boot it: FWM_FIRMWARE=allowed|refused|"" (no answer)
# fwm_predict CELL...   lockshim's prediction: FWM_PREDICTED, the sentence FWM_SAID

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

FWM_IMAGES=(old new both nested)
FWM_DBS=(old new both)
FWM_DBXS=(none old new)
FWM_TBS_DBXS=(old-ca-tbs new-signer-tbs)
FWM_WORK=$QEMU_BUILD/firmware
FWM_PKI=$LOCKSHIM_ROOT/build/pki
FWM_CA=$LOCKSHIM_ROOT/build/pki-ca
FWM_CLI=$LOCKSHIM_ROOT/build/lockshim
FWM_ERROR=
FWM_PATH='\EFI\firmware\first.efi'
GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c

# _fwm STEP CMD...: run a preparation step, its stderr to the log; FWM_ERROR on failure.
_fwm() {
	local what=$1; shift
	if ! "$@" >/dev/null 2>>"$FWM_WORK/prepare.err"; then
		FWM_ERROR="$what failed: $(tail -n 3 "$FWM_WORK/prepare.err" | tr '\n' ' ')"
		return 1
	fi
}

# _fwm_sign CA IN OUT: IN signed by CA's signer, added to any signature IN has.
_fwm_sign() {
	sbsign --key "$FWM_CA/$1-signer.key" --cert "$FWM_CA/$1-signer.crt" --output "$3" "$2"
}

fwm_prepare() {
	mkdir -p "$FWM_WORK"
	: >"$FWM_WORK/prepare.err"
	[[ -x $FWM_CLI ]] || { FWM_ERROR="$FWM_CLI missing (run make)"; return 1; }
	_fwm "Boot0000" python3 tests/qemu/mkloadoption.py "$FWM_WORK/Boot0000.bin" \
		"first stage" "$FWM_PATH" || return 1
	printf '\x00\x00' >"$FWM_WORK/BootOrder.bin"
	rm -f "$FWM_WORK"/{old,new,both,nested}.efi # osslsigncode overwrites nothing
	_fwm "test PKI" tests/pki.sh "$FWM_PKI" &&
		_fwm "CA PKI" tests/pki-ca.sh "$FWM_CA" &&
		_fwm "OVMF variable stores" tests/qemu/vars.sh "$FWM_PKI" &&
		_fwm "guest programs" tests/guest/build.sh build/guest &&
		_fwm "new signer DER" openssl x509 -in "$FWM_CA/new-signer.crt" -outform DER \
			-out "$FWM_WORK/new-signer.der" &&
		_fwm "old CA TBS list" python3 tests/cli/mkesl.py X509_SHA256 "$FWM_WORK/old-ca-tbs.esl" \
			"$FWM_CA/old-ca.der" &&
		_fwm "new signer TBS list" python3 tests/cli/mkesl.py X509_SHA256 \
			"$FWM_WORK/new-signer-tbs.esl" "$FWM_WORK/new-signer.der" &&
		_fwm "old-signed image" _fwm_sign old build/guest/load_marker.efi "$FWM_WORK/old.efi" &&
		_fwm "new-signed image" _fwm_sign new build/guest/load_marker.efi "$FWM_WORK/new.efi" &&
		_fwm "image signed twice" _fwm_sign new "$FWM_WORK/old.efi" "$FWM_WORK/both.efi" &&
		_fwm "image signed nested" osslsigncode sign -nest -h sha256 \
			-certs "$FWM_CA/new-signer.crt" -key "$FWM_CA/new-signer.key" \
			-in "$FWM_WORK/old.efi" -out "$FWM_WORK/nested.efi"
}

# _fwm_dbx DBX: the list dbx holds first for DBX (not none).
_fwm_dbx() {
	case $1 in
	*-tbs) echo "$FWM_WORK/$1.esl" ;;
	*) echo "$FWM_CA/$1-ca.esl" ;;
	esac
}

# _fwm_lists DB DBX: the --db/--dbx files the cell's store holds, in FWM_LISTS.
_fwm_lists() {
	FWM_LISTS=(--db "$FWM_CA/$1-ca.esl" --db "$FWM_PKI/db.esl")
	[[ $2 == none ]] || FWM_LISTS+=(--dbx "$(_fwm_dbx "$2")")
	FWM_LISTS+=(--dbx "$FWM_PKI/revoked.esl")
}

fwm_variant() {
	local name=fw-db-$1-dbx-$2 args=(--db-esl "$FWM_CA/$1-ca.esl"
		--var "Boot0000:$GLOBAL_GUID:0x7:$FWM_WORK/Boot0000.bin"
		--var "BootOrder:$GLOBAL_GUID:0x7:$FWM_WORK/BootOrder.bin")
	[[ $2 == none ]] || args+=(--dbx-esl "$(_fwm_dbx "$2")")
	FWM_VARS=
	_fwm "variant $name" tests/qemu/vars.sh --variant "$name" "${args[@]}" "$FWM_PKI" &&
		FWM_VARS=$QEMU_BUILD/vars-$name.fd
}

fwm_firmware() {
	local image=$1 db=$2 dbx=$3 name=fw-$1-db-$2-dbx-$3
	local esp=$FWM_WORK/$name.img vars=$QEMU_BUILD/vars-fw-db-$db-dbx-$dbx.fd
	FWM_FIRMWARE=
	make_esp "$esp" "$FWM_WORK/$image.efi" EFI/firmware/first.efi || return 1
	# the marker or the firmware's refusal ends it: no OS (--firmware-only)
	run_qemu --esp "$esp" --vars "$vars" --log "$QEMU_BUILD/logs/$name.log" --timeout 60 --firmware-only \
		--stop 'LOADMARKER running' --stop 'Access Denied' --stop 'Security Violation' \
		--stop 'No bootable option' || { rm -f "$esp"; return 1; }
	rm -f "$esp"
	if grep -qF "LOADMARKER running $FWM_PATH" "$LOG"; then
		FWM_FIRMWARE=allowed
	elif grep -Eq '^BdsDxe: failed to load Boot0000 "first stage" .*: Access Denied' "$LOG"; then
		FWM_FIRMWARE=refused
	fi
	[[ -n $FWM_FIRMWARE ]]
}

fwm_predict() {
	local image=$1
	_fwm_lists "$2" "$3"
	FWM_SAID=$("$FWM_CLI" verify --as-firmware "${FWM_LISTS[@]}" "$FWM_WORK/$image.efi")
	case $? in
	0) FWM_PREDICTED=allowed ;;
	1) FWM_PREDICTED=refused ;;
	*) FWM_PREDICTED= ; return 1 ;;
	esac
}
