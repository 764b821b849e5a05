# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# What the tests of second stages share (test_systemd_boot.sh and
# test_shim_lock.sh source it; test_handoff.sh boots its entry with
# second_stage_boot): lockshim started by a boot entry whose
# optional data names the second stage, as a distribution installs it,
#
#   Boot0000 "lockshim"  \EFI\lockshim\lockshimx64.efi  "SECOND_STAGE"
#
# on an ESP with no \EFI\BOOT\BOOTX64.EFI, under Secure Boot (boot.sh's
# PKI and VARS; its preparation is sourced with it).
#
# second_stage_prepare WORK
#     boot.sh's preparation (PKI, VARS, kernels, initramfs, the
#     db-signed lockshim), then an empty WORK and PREP_LOG in it for the
#     test's own steps; returns 1, with PREP_ERROR or LOCKSHIM_MISSING set,
#     when the test cannot go on.
#
# second_stage_vars [--before DESCRIPTION ESPPATH]... NAME SECOND_STAGE [VNAME:GUID:ATTRS:FILE]...
#     Prints the path of an OVMF VARS file (tests/qemu/vars.sh --variant
#     NAME, cached) with Secure Boot on, that Boot0000 as the only entry in
#     BootOrder, and the extra variables given. Each --before adds an entry
#     (Boot0001, Boot0002... in order) that starts the image at ESPPATH,
#     ahead of Boot0000 in BootOrder: the firmware starts or refuses it on
#     its own verdict before lockshim runs.
#
# second_stage_boot NAME VARS GRACE STOP... -- SRC ESPPATH...
#     Boots an ESP holding the db-signed lockshim at \EFI\lockshim\ and each
#     SRC at ESPPATH, until a STOP pattern (or a CPU exception in firmware
#     context, which fails) shows; the log is $BOOT_LOGS/NAME.log ($LOG).

# shellcheck source=tests/qemu/boot.sh
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository

GLOBAL_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
LOCKSHIM_ESP_PATH='\EFI\lockshim\lockshimx64.efi'

second_stage_prepare() {
	boot_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 1
	PREP_LOG=$1/prepare.err
	mkdir -p "$1"
	: >"$PREP_LOG"
}

second_stage_vars() {
	local -a before=() entries=() extra=()
	while [[ ${1-} == --before ]]; do
		before+=("$2" "$3")
		shift 3
	done
	local name=$1 stage=$2; shift 2
	local entry=$BOOT_WORK/$name-Boot0000.bin boot_order=$BOOT_WORK/$name-BootOrder.bin
	local spec i var file
	python3 tests/qemu/mkloadoption.py "$entry" lockshim "$LOCKSHIM_ESP_PATH" "$stage" || return 1
	: >"$boot_order"
	for (( i = 1; i <= ${#before[@]} / 2; i++ )); do
		var=Boot$(printf %04X "$i")
		file=$BOOT_WORK/$name-$var.bin
		python3 tests/qemu/mkloadoption.py "$file" "${before[2 * i - 2]}" "${before[2 * i - 1]}" ||
			return 1
		entries+=(--var "$var:$GLOBAL_GUID:0x7:$file")
		printf '%b' "\\x$(printf %02x "$i")\\x00" >>"$boot_order" # a UINT16, little-endian
	done
	printf '\x00\x00' >>"$boot_order"
	for spec in "$@"; do extra+=(--var "$spec"); done
	tests/qemu/vars.sh --variant "$name" \
		--var "Boot0000:$GLOBAL_GUID:0x7:$entry" "${entries[@]}" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$boot_order" "${extra[@]}" "$PKI" | tail -n 1
}

second_stage_boot() {
	local name=$1 vars=$2 grace=$3; shift 3
	local -a stops=() tee=()
	while (( $# )) && [[ $1 != -- ]]; do
		stops+=(--stop "$1")
		shift
	done
	shift
	(( BOOT_TEE )) && tee=(--tee)
	make_esp "$BOOT_WORK/$name.img" \
		"$BOOT_WORK/lockshim-db.efi" "$LOCKSHIM_ESP_PATH" "$@" || return 1
	run_qemu --esp "$BOOT_WORK/$name.img" --vars "$vars" \
		--log "$BOOT_LOGS/$name.log" --timeout "$QEMU_TIMEOUT" \
		--grace "$grace" "${stops[@]}" --stop "$CRASH" "${tee[@]}"
	local rc=$?
	rm -f "$BOOT_WORK/$name.img"
	qemu_outcome "$name" || return 1 # a crash included
	return $rc
}
