#!/usr/bin/env python3
"""Cut the power of a QEMU guest in the middle of a flash write.

    power_cut.py TRACE PIDFILE WRITES RECORD

TRACE is QEMU's stderr with -trace enable=pflash_data_write (one line per
write to the flash, unbuffered); once it holds WRITES such lines, the QEMU
whose pid is in PIDFILE gets SIGKILL: no shutdown, nothing flushed, as a
power cut. RECORD receives how many writes had been made when the guest
died (the count reaches past WRITES by what the guest did while this
looked). Gives up, killing nothing, when QEMU ends first.
"""
import os
import signal
import sys
import time

trace, pidfile, writes, record = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
MARK = b"pflash_data_write"


def count():
    try:
        with open(trace, "rb") as f:
            return f.read().count(MARK)
    except FileNotFoundError:
        return 0


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


pid = None
while pid is None:
    try:
        pid = int(open(pidfile).read().strip() or "x")
    except (FileNotFoundError, ValueError):
        time.sleep(0.05)
seen, tail = 0, b""
while not os.path.exists(trace):
    time.sleep(0.01)
with open(trace, "rb") as f:
    while alive(pid):
        chunk = f.read()
        if not chunk:
            time.sleep(0.0005)
            continue
        buf = tail + chunk  # a line cut between two reads is counted once
        seen += buf.count(MARK)
        tail = buf[-(len(MARK) - 1):]
        if seen >= writes:
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 5  # a zombie until timeout(1) reaps it
            while alive(pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            with open(record, "w") as out:
                out.write(f"{count()}\n")
            sys.exit(0)
sys.exit(1)
