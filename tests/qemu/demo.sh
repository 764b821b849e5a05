#!/usr/bin/env bash
# `make demo`, in two boots under Secure Boot in QEMU, the serial console
# shown live:
#   1. firmware -> lockshim -> Debian's stock kernel -> test initramfs
#      (scenario sb_vendor_kernel_boots of test_boot.sh);
#   2. firmware -> lockshim -> the patched kernel (kernel/) -> the probe,
#      which tries every restricted interface (scenario sb_on_lockshim_locked
#      of test_lockdown_table.sh); its results are then shown as a table.
#
#   tests/qemu/demo.sh            (LOCKSHIM_EFI, QEMU_TIMEOUT as for test_boot.sh)
set -uo pipefail

. "$(dirname "$0")/test_boot.sh" # its scenario, boot.sh's preparation

BOOT_TEE=1  # read by boot_lockshim
echo "demo: preparing keys, firmware variables, kernel and initramfs..." >&2
boot_prepare
if [[ -n $PREP_ERROR ]]; then echo "demo: $PREP_ERROR" >&2; exit 1; fi
if [[ -n $LOCKSHIM_MISSING ]]; then echo "demo: $LOCKSHIM_MISSING" >&2; exit 1; fi
echo "demo: 1. Secure Boot on (PK/KEK/db/dbx from build/pki); lockshim signed by db, Debian's kernel by the vendor key" >&2
echo "demo: ---- serial console ----" >&2
run_scenario sb_vendor_kernel_boots || exit 1

echo >&2
echo "demo: 2. the same chain with the patched kernel: lockshim's table locks it down" >&2
echo "demo: ---- serial console ----" >&2
LOCKDOWN_TEE=1 bash tests/qemu/test_lockdown_table.sh sb_on_lockshim_locked || exit 1
log=$QEMU_BUILD/logs/lockdown-sb_on_lockshim_locked.log
echo >&2
echo "demo: what the probe found (PROBE check result detail):" >&2
grep -E '^PROBE ' "$log" | awk '{ printf "  %-34s %-10s %s\n", $2, $3, $4 }'
echo "demo: logs in $BOOT_LOGS/sb_vendor_kernel_boots.log and $log" >&2
