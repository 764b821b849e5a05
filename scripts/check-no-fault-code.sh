#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# check-no-fault-code.sh IMAGE...
#
# Fails, naming each one, if an image carries the fault-injection code of
# src/efi/efi_fault.c (built only with -DLOCKSHIM_FAULT_INJECTION, into
# build/faults): its console line "fault: failing call" in UTF-16, the
# marker tests/qemu/faults.sh's faults_release_has_no_fault_code looks for.
# The Makefile runs it after objcopy makes a release image and removes the
# image when it fails.
exec python3 - "$@" <<'PY'
import sys

marker = "fault: failing call".encode("utf-16-le")
bad = 0
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        if marker in f.read():
            print(f"{path}: carries the fault-injection code (efi_fault.c, "
                  "-DLOCKSHIM_FAULT_INJECTION): not a release image", file=sys.stderr)
            bad = 1
sys.exit(bad)
PY
