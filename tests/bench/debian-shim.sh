#!/usr/bin/env bash
# rhboot/shim as Debian builds it (shim-unsigned: shimx64.efi and mmx64.efi,
# unsigned), for `make bench` to compare against, without installing it:
#
#   tests/bench/debian-shim.sh       prints the directory holding both files
#
# Fetched and cached by tests/qemu/debian-package.sh.
set -euo pipefail
exec "$(dirname "$0")/../qemu/debian-package.sh" shim-unsigned \
	usr/lib/shim/shimx64.efi usr/lib/shim/mmx64.efi
