#!/usr/bin/env bash
# make check's sample of make faults (tests/qemu/faults.sh, where each walk
# and what it fails is described), one scenario per walk: boots of the
# fault build (build/faults/, built by make check) in which one call fails.
#
#   faults_release_has_no_fault_code  the release images carry no fault
#                          code, the fault images do
#   faults_normal_boot_sample   every ReadFile and LoadImage of a normal
#                          boot, and the runtime AllocatePages of the
#                          kernel's tables (which must refuse the boot)
#   faults_revoked_kernel_sample  the first read of SecureBoot, dbx and
#                          MokListX when the kernel is in dbx: refused
#   faults_db_ignored_sample    the first read of MokDBState: the db-signed
#                          kernel refused
#   faults_enrollment_sample    every ReadFile and LoadImage of an
#                          enrollment by the MOK manager, every SetVariable
#                          of the manager, lockshim's SbatLevel update and
#                          first runtime mirror, and one allocation amid them
#   faults_power_cut_sample     2 power cuts during the manager's MokList
#                          write, each followed by a boot that must reach
#                          the kernel, verified, with the old or the new
#                          MokList
# A sample that matches no call, or misses one it must hold, fails.

# shellcheck source=tests/qemu/faults.sh
. "$(dirname "${BASH_SOURCE[0]}")/faults.sh" # cds to the repository

SCENARIOS=(
	faults_release_has_no_fault_code
	faults_normal_boot_sample
	faults_revoked_kernel_sample
	faults_db_ignored_sample
	faults_enrollment_sample
	faults_power_cut_sample
)

SAMPLE=1
FAULTS_CUTS=${FAULTS_CUTS:-2}

faults_sample_prepare() {
	if [[ ! -s build/faults/lockshimx64.efi || ! -s build/faults/mmx64.efi ]]; then
		PREP_ERROR="no fault build in build/faults (make faults-build)"
		return 0
	fi
	faults_prepare_logged
}

faults_release_has_no_fault_code() { release_has_no_fault_code; }
faults_normal_boot_sample() { walk normal "${FUNCNAME[0]}"; }
faults_revoked_kernel_sample() { walk revoked "${FUNCNAME[0]}"; }
faults_db_ignored_sample() { walk db_ignored "${FUNCNAME[0]}"; }
faults_enrollment_sample() { walk enrollment "${FUNCNAME[0]}"; }
faults_power_cut_sample() { power_cut; }

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main faults_sample_prepare "$@"
fi
