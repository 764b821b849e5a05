#!/usr/bin/env bash
# The differential kexec corpus, its sample (tests/qemu/kexec_corpus.sh
# says what is compared and how; `make kexec-corpus` runs every image):
#
#   tests/qemu/test_lockdown_kexec_corpus.sh [SCENARIO...]
#
#   sb_on_kexec_corpus_sample_agrees  SB on, lockshim with a dbx, MokListX and
#                           SbatLevel holding every deny-entry type: the
#                           kernel's kexec_file_load verdict on each image of
#                           the sample is lockshim's (`build/lockshim verify`,
#                           same lists, .sbat required), or a difference that
#                           tests/qemu/kexec-corpus.differences lists
#
# Prints `ok - NAME (T s, QEMU Q s)` / `not ok - NAME`; logs
# build/qemu/logs/lockdown-NAME.log, the table $LD_WORK/NAME.corpus.

# shellcheck source=tests/qemu/kexec_corpus.sh
KC_SET=sample
. "$(dirname "${BASH_SOURCE[0]}")/kexec_corpus.sh" # cds to the repository

SCENARIOS=(sb_on_kexec_corpus_sample_agrees)

sb_on_kexec_corpus_sample_agrees() { kexec_corpus_boot "${FUNCNAME[0]}"; }

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main kexec_corpus_prepare "$@"
fi
