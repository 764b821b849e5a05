#!/usr/bin/env bash
# make in this tree, one at a time: the QEMU scenarios' preparation runs
# beside the CLI tests, and several of both ask make for a variant of
# build/'s objects (or another target over them). Two makes bringing the
# same object up to date at once write the same files: CI saw one link's
# build/lockshimx64.so.tmp renamed away under the other's check.
#
#   tests/make-locked.sh MAKE-ARGS...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/build"
exec flock "$root/build/.make.lock" make -C "$root" "$@"
