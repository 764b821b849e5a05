#!/usr/bin/env python3
"""The watcher of one QEMU run (tests/qemu/lib.sh run_qemu):

    watch_serial.py RAW FIFO STOPPED PID GRACE [--stop ERE]... [--send-on ERE TEXT]...
                    [--answer-chars PASSWORD]

While process PID lives, it reads what QEMU wrote to RAW (the serial
console as it came), cleaned as lib.sh's clean_serial cleans it, and
  - answers each "Enter password character N" with the Nth character of
    PASSWORD (--answer-chars);
  - writes TEXT (printf %b escapes) to FIFO, QEMU's serial input, once, the
    first time ERE shows (--send-on);
  - on the first ERE of --stop that shows on a whole line (its newline
    written: a stop never cuts the line it matched), writes that ERE to
    STOPPED, lets QEMU run GRACE seconds more (for what it says next) and
    sends PID SIGTERM.
EREs are matched line by line, as grep -E does (with Python's re: the
patterns the tests use mean the same in both).

QEMU_SERIAL_TIMES=1 in the environment (where the time of a boot goes):
each whole line is also written to RAW.times after the CPU seconds the
guest had used when it was seen (PID's children's, i.e. QEMU's: they hold
on a busy machine) and the wall seconds since the watcher started.

One process for the whole run: the shell loop it replaces forked a sed and
a grep a pattern five times a second while the console grew, CPU the other
guest beside this one could have used.
"""
import os
import re
import signal
import sys
import time

POLL = 0.05

ESCAPE_TO_NEWLINE = re.compile(rb"\x1b\[[0-9;]*[Hf]")
ESCAPES = [re.compile(p) for p in (rb"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]",
                                   rb"\x1b[()][A-Za-z0-9]", rb"\x1b[=>78cDEHM]", rb"\x1b")]
TRAILING_CR = re.compile(rb"\r+\Z")


def clean_lines(raw):
    """The lines of clean_serial's result, each line of RAW through its sed
    expressions in turn (escapes out, carriage returns as line breaks), runs
    of empty lines squeezed to one (cat -s)."""
    out = []
    for line in raw.split(b"\n"):
        line = ESCAPE_TO_NEWLINE.sub(b"\n", line)
        for pattern in ESCAPES:
            line = pattern.sub(b"", line)
        line = TRAILING_CR.sub(b"", line).replace(b"\r", b"\n")
        for piece in line.split(b"\n"):
            if piece or not out or out[-1]:
                out.append(piece)
    return out


PRINTF_B = re.compile(r"\\(\\|a|b|e|E|f|n|r|t|v|0[0-7]{0,3}|x[0-9A-Fa-f]{1,2})")
SIMPLE = {"\\": "\\", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
          "r": "\r", "t": "\t", "v": "\v"}


def printf_b(text):
    """TEXT as printf %b writes it."""
    def one(m):
        s = m.group(1)
        if s in SIMPLE:
            return SIMPLE[s]
        if s[0] == "0":
            return chr(int(s[1:] or "0", 8))
        return chr(int(s[1:], 16))
    return PRINTF_B.sub(one, text).encode("latin-1")


def qemu_cpu(pid):
    """The CPU seconds (user + system) of PID's children (timeout's QEMU)."""
    total = 0.0
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = f.read().split()
        for kid in kids:
            with open(f"/proc/{kid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        pass
    return total


def main(argv):
    raw_path, fifo, stopped, pid, grace = argv[1:6]
    pid, grace = int(pid), float(grace)
    stops, sends, answer = [], [], None
    args = argv[6:]
    while args:
        if args[0] == "--stop":
            stops.append(args[1])
            args = args[2:]
        elif args[0] == "--send-on":
            sends.append([args[1], printf_b(args[2]), False])
            args = args[3:]
        elif args[0] == "--answer-chars":
            answer = args[1]
            args = args[2:]
        else:
            sys.exit(f"watch_serial.py: unknown option {args[0]}")
    stop_res = [(p, re.compile(p.encode())) for p in stops]
    send_res = [(re.compile(s[0].encode()), s) for s in sends]
    asked_re = re.compile(rb"Enter password character ([0-9]+)")
    answered = 0
    asked_whole = []  # the N of each prompt on a whole line, in order
    done = 0  # RAW up to here is whole lines, each matched once already
    seen = -1
    times = None
    if os.environ.get("QEMU_SERIAL_TIMES"):
        times = open(raw_path + ".times", "w")
        t0 = time.monotonic()
    with open(fifo, "wb", buffering=0) as serial_in:
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return 0
            try:
                size = os.stat(raw_path).st_size
            except FileNotFoundError:
                size = 0
            if size == seen:
                time.sleep(POLL)
                continue
            seen = size
            # Only what came since the last whole line: a console of a
            # kernel's boot is matched in one pass, not once per poll.
            with open(raw_path, "rb") as f:
                f.seek(done)
                new = f.read()
            # prompts end without a newline; a stop waits for the line's end:
            # a newline, or a cursor move (the firmware's dialogs draw their
            # lines with those, and clean_lines ends a line there too)
            cut = new.rfind(b"\n") + 1
            for m in ESCAPE_TO_NEWLINE.finditer(new, cut):
                cut = m.start()
            whole = clean_lines(new[:cut])
            tail = clean_lines(new[cut:])
            done += cut
            if times and whole:
                stamp = f"{qemu_cpu(pid):7.2f} {time.monotonic() - t0:7.2f} "
                times.write("".join(stamp + line.decode("latin-1") + "\n" for line in whole))
                times.flush()
            asked_whole += [m.group(1) for line in whole for m in asked_re.finditer(line)]
            if answer is not None:
                asked = asked_whole + [m.group(1) for line in tail for m in asked_re.finditer(line)]
                while answered < len(asked):
                    n = int(asked[answered])
                    serial_in.write(answer[n - 1:n].encode("latin-1"))
                    answered += 1
            for pattern, send in send_res:
                if not send[2] and any(pattern.search(line) for line in whole + tail):
                    serial_in.write(send[1])
                    send[2] = True
            for source, pattern in stop_res:
                if any(pattern.search(line) for line in whole):
                    # run_qemu kills this watcher once QEMU is gone: the
                    # file appears whole or not at all, never empty
                    with open(stopped + ".tmp", "w") as f:
                        f.write(source)
                    os.replace(stopped + ".tmp", stopped)
                    time.sleep(grace)
                    try:
                        os.kill(pid, signal.SIGTERM)
                    except ProcessLookupError:
                        pass
                    return 0
            time.sleep(POLL)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
