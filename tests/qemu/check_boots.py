#!/usr/bin/env python3
"""Hold `lockshim check --json`'s predictions against a real boot.

    check_boots.py PREDICTION.json BOOT.log OPTION [OPTION ...]

BOOT.log is a clean serial log (tests/qemu/lib.sh) of one firmware boot in
which the firmware tried each OPTION (Boot0001, ...) in the order given.
An OPTION may also be ENTRY=DESCRIPTION: the prediction's entry ENTRY
("removable") against the option the firmware loads by that description
(OVMF's own "UEFI Misc Device" for a disk's removable path).
The log is cut at each "BdsDxe: loading BootNNNN" line; for each OPTION
its part must show what PREDICTION.json's entry for it says:

  - the first stage: allowed means the firmware started it (lockshim's
    banner follows); refused means it did not;
  - every later image of the chain: lockshim's records (verdict=...
    image=... reason=... [list=...] [entry=...], src/core/verdict_reason.h)
    are the chain's steps, one for one and in order, with the same
    verdict, image, reason, list and entry: a step the boot did not record
    and a record the prediction leaves out (the kernel, say) both differ;
    an image predicted missing, lockshim's "cannot read IMAGE: Not Found";
  - "boots": true means the kernel started (its "Linux version" line) and
    the firmware did not get a failure back; false means neither.

Prints one line per option and what differs; exit status 1 when any
prediction differs from its boot (or is missing), 2 on bad arguments.
"""
import json
import re
import sys

LOADING = re.compile(r'^BdsDxe: loading (Boot[0-9A-F]{4}) "([^"]*)"')
FAILED = re.compile(r'^BdsDxe: failed to (start|load) (Boot[0-9A-F]{4}) .*: (.*)$')
BANNER = re.compile(r'^lockshim [0-9]')
KERNEL = re.compile(r'^(\[ *[0-9.]+\] )?Linux version [0-9]')
RECORD = re.compile(r'^lockshim: (verdict=.*)$')
FIELD = re.compile(r'([a-z]+)=("(?:[^"\\]|\\.)*"|\S+)')


def unquote(value):
    """A record value as verdict_reason.h quotes it, unquoted."""
    if not value.startswith('"'):
        return value
    out, body, i = [], value[1:-1], 0
    while i < len(body):
        c = body[i]
        if c == '\\' and i + 1 < len(body):
            if body[i + 1] == 'x' and i + 3 < len(body):
                out.append(chr(int(body[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append(body[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def parse_record(text):
    return {k: unquote(v) for k, v in FIELD.findall(text)}


def parts(log_lines):
    """{option: [lines of the log from its loading line to the next]}"""
    out, current = {}, None
    for line in log_lines:
        m = LOADING.match(line)
        if m:
            current = m.group(1)
            out.setdefault(current, [])
            out.setdefault(m.group(2), out[current])
        if current:
            out[current].append(line)
    return out


def what_the_boot_did(lines):
    started = any(BANNER.match(l) for l in lines)
    failed = [m.group(3) for m in map(FAILED.match, lines) if m]
    records = [parse_record(m.group(1)) for m in map(RECORD.match, lines) if m]
    kernel = any(KERNEL.match(l) for l in lines)
    return started, failed, records, kernel


def compare(entry, lines):
    """The differences between @entry's prediction and the boot's @lines."""
    started, failed, records, kernel = what_the_boot_did(lines)
    diffs = []
    chain = entry.get("chain", [])
    if not chain:
        return ["the prediction has no chain"]
    first, rest = chain[0], chain[1:]
    if (first["verdict"] == "allowed") != started:
        diffs.append(f"first stage {first['image']}: predicted {first['verdict']}, "
                     f"the firmware {'started' if started else 'did not start'} it")
    recorded = iter(records)
    for step in rest:
        if step["reason"] == "missing":
            if f"lockshim: cannot read {step['image']}: Not Found" not in lines:
                diffs.append(f"{step['image']} ({step.get('role', '')}): predicted missing, "
                             "but lockshim did not say it cannot find it")
            continue
        want = {"verdict": step["verdict"], "image": step["image"], "reason": step["reason"],
                # null in the prediction (docs/json.md), left out of the record
                "list": step.get("list") or "", "entry": step.get("entry") or ""}
        got = next(recorded, None)
        if got is None:
            diffs.append(f"{step['image']} ({step.get('role', '')}): predicted {step['verdict']} "
                         f"reason={step['reason']}, but the boot has no record of it")
            continue
        have = {k: got.get(k, "") for k in want}
        if have != want:
            diffs.append(f"{step['image']}: predicted {want}, the boot recorded {have}")
    for got in recorded:
        diffs.append(f"the boot recorded {got.get('verdict', '?')} {got.get('image', '?')} "
                     f"reason={got.get('reason', '?')}, a step the prediction leaves out")
    booted = kernel and not failed
    if entry["boots"] != booted:
        how = "the kernel started" if booted else \
            f"no kernel started{' (the firmware: ' + failed[0] + ')' if failed else ''}"
        diffs.append(f"predicted boots={str(entry['boots']).lower()}, {how}")
    return diffs


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            prediction = json.load(f)
        with open(argv[2], errors="replace") as f:
            log = f.read().splitlines()
    except (OSError, ValueError) as e:
        print(f"check_boots.py: {e}", file=sys.stderr)
        return 2
    entries = {e["option"]: e for e in prediction.get("entries", [])}
    tried = parts(log)
    bad = 0
    for arg in argv[3:]:
        name, _, option = arg.partition("=")
        option = option or name
        entry = entries.get(name)
        if entry is None:
            print(f"FAIL {option}: {argv[1]} predicts nothing for it", file=sys.stderr)
            bad += 1
            continue
        if option not in tried:
            print(f"FAIL {option}: the firmware never tried it in {argv[2]}", file=sys.stderr)
            bad += 1
            continue
        diffs = compare(entry, tried[option])
        said = f"{option} boots={str(entry['boots']).lower()}: " + \
            "; ".join(f"{s['image']} {s['verdict']} {s['reason']}" for s in entry["chain"])
        if diffs:
            bad += 1
            print(f"FAIL {said}", file=sys.stderr)
            for d in diffs:
                print(f"  {d}", file=sys.stderr)
        else:
            print(f"# held: {said}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
