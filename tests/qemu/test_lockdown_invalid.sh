#!/usr/bin/env bash
# Kernel lockdown: a table that breaks a validation rule locks the kernel
# down (fail closed), says why, and none of its keys is trusted. Each rule
# is broken once, on a table from tests/guest/mktable.py that launch.efi
# installs (Secure Boot off).
#
#   tests/qemu/test_lockdown_invalid.sh [SCENARIO...]     (default: all, in order)
#
#   table_invalid_digest        the digest does not match
#   table_invalid_magic, _version, _header_size, _area, _sbat_area, _flags,
#   table_invalid_lock_reason, _reserved   one header field wrong
#   table_crosses_descriptor    the table runs past its EFI memory descriptor
#   table_outside_memory_map    its address is in no EFI memory descriptor
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME` per scenario; logs
# build/qemu/logs/lockdown-NAME.log. Environment, how the kernel is started,
# and the probe's slots: tests/qemu/lockdown.sh.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

SCENARIOS=(
	table_invalid_digest
	table_invalid_magic
	table_invalid_version
	table_invalid_header_size
	table_invalid_area
	table_invalid_sbat_area
	table_invalid_flags
	table_invalid_lock_reason
	table_invalid_reserved
	table_crosses_descriptor
	table_outside_memory_map
)

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
table_invalid_version() { _invalid "${FUNCNAME[0]}" 'version 2, this kernel knows 3' "" --unlocked --break version; }
table_invalid_header_size() { _invalid "${FUNCNAME[0]}" 'header_size 96, expected 88' "" --unlocked --break header-size; }
table_invalid_area() {
	_invalid "${FUNCNAME[0]}" 'trusted keys at 88+1689 outside the table data' "" \
		--unlocked "${TRUSTED[@]}" --no-sbat-level --break trusted-area
}
# The SbatLevel area (certs/sbat-level-automatic.csv, 32 bytes) runs 1 past.
table_invalid_sbat_area() {
	_invalid "${FUNCNAME[0]}" 'SbatLevel at 88+33 outside the table data' "" \
		--unlocked --break sbat-area
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

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main lockdown_prepare "$@"
fi
