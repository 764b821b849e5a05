#!/usr/bin/env bash
# The firmware's own verdict on a first stage equals lockshim's prediction
# (`lockshim verify --as-firmware`), on a sample of the matrix of
# tests/qemu/firmware-matrix.sh (`make firmware-matrix` runs every cell):
# OVMF with Secure Boot on starts load_marker.efi as Boot0000, no lockshim,
# signed by an old CA, a new one or both, with db and dbx holding either.
# Each cell also checks the answer EDK2's rules give (firmware_verdict.h):
#
#   fw_old_dbnew          old-signed on a new-CA-only machine: refused
#   fw_both_dbnew         both, in two certificate table entries: allowed by
#                         the second (the new) signature
#   fw_nested_dbnew       the new signature nested in the old: refused, the
#                         firmware sees only the outer signature
#   fw_both_dbboth_dbxold both, the old CA revoked: refused, though the new
#                         signature alone is trusted
#   fw_new_dbboth_dbxold  new-only, the old CA revoked: allowed
#   fw_nested_dbold_dbxnew  nested, the new CA revoked: allowed (the
#                         revoked signer is not seen)
#   fw_both_dbold_dbxnew  both, the new CA revoked: refused
#
#   tests/qemu/test_firmware_verdict.sh [SCENARIO...]

# shellcheck source=tests/qemu/scenario.sh
. "$(dirname "${BASH_SOURCE[0]}")/scenario.sh"
# shellcheck source=tests/qemu/firmware-matrix.sh
. "$(dirname "${BASH_SOURCE[0]}")/firmware-matrix.sh"
cd "$LOCKSHIM_ROOT" || exit 1

# NAME IMAGE DB DBX EXPECTED
FW_SAMPLE=(
	"fw_old_dbnew old new none refused"
	"fw_both_dbnew both new none allowed"
	"fw_nested_dbnew nested new none refused"
	"fw_both_dbboth_dbxold both both old refused"
	"fw_new_dbboth_dbxold new both old allowed"
	"fw_nested_dbold_dbxnew nested old new allowed"
	"fw_both_dbold_dbxnew both old new refused"
)
SCENARIOS=()
for cell in "${FW_SAMPLE[@]}"; do
	read -r name image db dbx expected <<<"$cell"
	SCENARIOS+=("$name")
	eval "$name() { fw_cell $image $db $dbx $expected; }"
done

fw_prepare() {
	local cell name image db dbx expected
	local -A seen=()
	fwm_prepare || { PREP_ERROR=$FWM_ERROR; return 0; }
	for cell in "${FW_SAMPLE[@]}"; do
		read -r name image db dbx expected <<<"$cell"
		[[ -z ${seen[$db-$dbx]:-} ]] || continue
		seen[$db-$dbx]=1
		fwm_variant "$db" "$dbx" || { PREP_ERROR=$FWM_ERROR; return 0; }
	done
}

# fw_cell IMAGE DB DBX EXPECTED: OVMF says EXPECTED, and so does lockshim.
fw_cell() {
	local expected=$4
	fwm_firmware "$1" "$2" "$3"
	qemu_outcome "fw-$1-db-$2-dbx-$3" "LOADMARKER or Access Denied" || return 1
	[[ -n $FWM_FIRMWARE ]] || { echo "FAIL: OVMF neither ran nor refused the image" >&2; return 1; }
	fwm_predict "$1" "$2" "$3" || { echo "FAIL: lockshim verify --as-firmware: $FWM_SAID" >&2; return 1; }
	echo "# OVMF: $FWM_FIRMWARE; lockshim: $FWM_SAID" >&2
	[[ $FWM_FIRMWARE == "$FWM_PREDICTED" ]] ||
		{ echo "FAIL: OVMF $FWM_FIRMWARE the image, lockshim predicted $FWM_PREDICTED" >&2; return 1; }
	[[ $FWM_FIRMWARE == "$expected" ]] ||
		{ echo "FAIL: EDK2's rules say $expected, OVMF and lockshim say $FWM_FIRMWARE" >&2; return 1; }
}

scenario_main fw_prepare "$@"
