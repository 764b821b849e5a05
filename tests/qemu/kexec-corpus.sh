#!/usr/bin/env bash
# The whole differential kexec corpus in one locked boot (`make
# kexec-corpus`; tests/qemu/kexec_corpus.sh says what is compared):
#
#   tests/qemu/kexec-corpus.sh [--write-differences]
#
# Prints the table (image, lockshim's answer, the kernel's with its errno,
# equal or not), the count, the differences and the time; exits 1 when a
# difference is not in tests/qemu/kexec-corpus.differences or a listed one
# is gone. --write-differences rewrites that file from this run instead
# (after a kernel change: review its diff). Run it under
# `flock /tmp/lockshim-heavy.lock` on a shared machine.
# shellcheck source=tests/qemu/kexec_corpus.sh
KC_SET=full
. "$(dirname "${BASH_SOURCE[0]}")/kexec_corpus.sh" # cds to the repository
set -uo pipefail

case ${1:-} in
--write-differences) export KEXEC_CORPUS_WRITE=1 ;;
'') ;;
*) echo "usage: tests/qemu/kexec-corpus.sh [--write-differences]" >&2; exit 2 ;;
esac
t0=$SECONDS
kexec_corpus_prepare
[[ -z $PREP_ERROR ]] || { echo "kexec-corpus: $PREP_ERROR" >&2; exit 1; }
run_scenario sb_on_kexec_corpus_full_agrees
rc=$?
echo "# kexec corpus: $(( SECONDS - t0 ))s with the preparation" >&2
exit $rc
