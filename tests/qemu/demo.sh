#!/usr/bin/env bash
# `make demo`: boot firmware -> lockshim -> Debian's kernel -> test initramfs
# under Secure Boot in QEMU (scenario sb_vendor_kernel_boots), with the serial
# console shown live, then the verdict.
#
#   tests/qemu/demo.sh            (LOCKSHIM_EFI, QEMU_TIMEOUT as for test_boot.sh)
set -uo pipefail

. "$(dirname "$0")/test_boot.sh"

BOOT_TEE=1  # read by boot_lockshim
echo "demo: preparing keys, firmware variables, kernel and initramfs..." >&2
boot_prepare
if [[ -n $PREP_ERROR ]]; then echo "demo: $PREP_ERROR" >&2; exit 1; fi
if [[ -n $LOCKSHIM_MISSING ]]; then echo "demo: $LOCKSHIM_MISSING" >&2; exit 1; fi
echo "demo: Secure Boot on (PK/KEK/db/dbx from build/pki); lockshim signed by db, kernel by vendor" >&2
echo "demo: ---- serial console ----" >&2
run_scenario sb_vendor_kernel_boots
rc=$?
echo "demo: log in $BOOT_LOGS/sb_vendor_kernel_boots.log" >&2
exit $rc
