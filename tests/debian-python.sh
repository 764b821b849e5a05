# shellcheck shell=bash
# Sourced by tests/run.sh and tests/qemu/run, from the repository's root:
# every python3 the tests then run, by name or through a
# `#!/usr/bin/env python3` line, is Debian's /usr/bin/python3 (the one
# scripts/bootstrap.sh installs), not another python3 earlier in PATH. A
# pyenv shim there ran its bash scripts before each call: 0.12 s of CPU
# against 0.013 s, and on a busy machine half a second of wall, in each of
# the many hundred calls of make check (the serial watcher of every boot,
# every mkdmpstore.py). build/debian-python/ holds that one link.
if [[ -x /usr/bin/python3 ]] &&
	! [[ $(command -v python3) -ef /usr/bin/python3 ]]; then
	if ! [[ build/debian-python/python3 -ef /usr/bin/python3 ]]; then
		mkdir -p build/debian-python && ln -sfn /usr/bin/python3 build/debian-python/python3
	fi
	export PATH=$PWD/build/debian-python:$PATH
fi
