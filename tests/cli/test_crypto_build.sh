#!/usr/bin/env bash
# The UEFI libcrypto's host tests (lib/crypto/crypto.mk), in make check:
#   crypto-relocate-test  the packed-relocation (DT_RELR) relocator the
#                         loader uses gives the same image as gnu-efi's
#   crypto-cpu-test       the CPU-feature masking: AVX state only with
#                         CR4.OSXSAVE and XCR0, SHA-NI and SSSE3 always
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

failed=0
for t in crypto-relocate-test crypto-cpu-test; do
	if out=$(make -s "$t" 2>&1); then
		echo "ok - $t"
	else
		echo "not ok - $t"
		tail -n 20 <<<"$out" | sed 's/^/# /'
		failed=1
	fi
done
exit $failed
