#!/usr/bin/env bash
# lib/efi's host tests (lib/efi/efi.mk), in make check:
#   libefi-relocate-test  the packed-relocation (DT_RELR) relocator the
#                         loader uses gives the same image as gnu-efi's
#   libefi-cpu-test       the CPU-feature masking: AVX state only with
#                         CR4.OSXSAVE and XCR0, SHA-NI and SSSE3 always;
#                         RDRAND detected as the kernel sees it, and drawn
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

failed=0
for t in libefi-relocate-test libefi-cpu-test; do
	if out=$(tests/make-locked.sh -s "$t" 2>&1); then
		echo "ok - $t"
	else
		echo "not ok - $t"
		tail -n 20 <<<"$out" | sed 's/^/# /'
		failed=1
	fi
done
exit $failed
