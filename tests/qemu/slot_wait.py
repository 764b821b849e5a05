#!/usr/bin/env python3
"""A QEMU slot for run_qemu (tests/qemu/lib.sh _qemu_slot_open):

    slot_wait.py SECONDS FD...

Each FD is a slot's lock file, opened by the calling shell and inherited
here. Takes flock(2) on the first FD that is free, waiting up to SECONDS
for one to be, and prints that FD; prints nothing and exits 1 when none
was free in time. The lock belongs to the open file, which the shell
holds: it stays the shell's after this process ends.

One process for the whole wait: the shell loop it replaces started a
flock for each slot and a sleep twenty times a second, while the third
scenario of a run (tests/qemu/run) waited for one of two busy slots most
of the run, on the CPU the two guests needed.
"""
import fcntl
import sys
import time

POLL = 0.02  # soon: a slot left free is a core left idle


def main(argv):
    deadline = time.monotonic() + float(argv[1])
    fds = [int(fd) for fd in argv[2:]]
    while True:
        for fd in fds:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            print(fd)
            return 0
        if time.monotonic() >= deadline:
            return 1
        time.sleep(POLL)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
