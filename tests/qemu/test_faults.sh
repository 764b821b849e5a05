#!/usr/bin/env bash
# make check's sample of make faults (tests/qemu/faults.sh --sample): the
# fault build, built here if needed (make faults-build), and boots in which
# one call fails: the file reads, LoadImage and the allocations of the
# kernel's tables (which must refuse the boot) of a normal boot, every
# variable write, file read and LoadImage of an enrollment and one of its
# allocations, the reads that keep a revoked kernel out, and two power cuts
# during the MOK manager's MokList write. About three minutes;
# one TAP line per part and the summary line.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
if ! make -s -j"${LOCKSHIM_JOBS:-2}" faults-build >build/faults-build.log 2>&1; then
	tail -n 5 build/faults-build.log >&2
	echo "not ok - faults_build (make faults-build)"
	exit 1
fi
exec tests/qemu/faults.sh --sample "$@"
