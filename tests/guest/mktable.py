#!/usr/bin/env python3
"""Build a lockshim lockdown table (include/lockshim_table.h) for the kernel
tests, valid or broken on purpose.

    mktable.py OUT [--locked | --unlocked] [--trusted FILE]... [--denied FILE]...
               [--sbat-level FILE | --no-sbat-level] [--break WHAT] [--total-size N]

FILE is an EFI_SIGNATURE_LIST file (cert-to-efi-sig-list output, e.g.
build/pki/vendor.esl); the trusted files are concatenated into the
trusted-keys area, the denied ones into the denied area.

--sbat-level FILE  the SbatLevel area: FILE's bytes (SbatLevel CSV text);
              default certs/sbat-level-automatic.csv, the level lockshim
              applies when no SbatLevel variable asks for more (/dev/null:
              none, as --no-sbat-level)
--no-sbat-level    an empty SbatLevel area (a locked kernel then refuses
              every kexec image)

--locked      flags = LOCKED | SBAT_REQUIRED, lock_reason = SECURE_BOOT,
              SecureBoot=1 (default): what lockshim writes under Secure Boot
--unlocked    flags = 0, lock_reason = NONE, SecureBoot=0

--break WHAT  make the table invalid in exactly one way, everything else
              (the digest included) kept consistent:
                digest       one bit of the digest flipped
                magic        "LOCKSHIN"
                version      version 2 (before SBAT_REQUIRED; same layout)
                header-size  header_size 96
                trusted-area the trusted-keys area runs 1 byte past total_size
                sbat-area    the SbatLevel area runs 1 byte past total_size
                flags        an unknown flag (bit 7)
                lock-reason  LOCKED with lock_reason NONE
                reserved     reserved1 = 1
--total-size N  write N into total_size (the file keeps its real length and
              the digest covers the real bytes): for a table that claims to
              run past its memory.
"""
import argparse
import hashlib
import os
import struct
import sys

HEADER = struct.Struct("<8sHHIIIBBBBIIIIIII32s")
assert HEADER.size == 88
DEFAULT_LEVEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "certs",
                             "sbat-level-automatic.csv")
MAGIC = b"LOCKSHIM"
DIGEST_OFF = HEADER.size - 32
BREAKS = ("digest", "magic", "version", "header-size", "trusted-area", "sbat-area", "flags",
          "lock-reason", "reserved")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--locked", dest="locked", action="store_true", default=True)
    g.add_argument("--unlocked", dest="locked", action="store_false")
    ap.add_argument("--trusted", action="append", default=[])
    ap.add_argument("--denied", action="append", default=[])
    lv = ap.add_mutually_exclusive_group()
    lv.add_argument("--sbat-level", default=DEFAULT_LEVEL)
    lv.add_argument("--no-sbat-level", action="store_true")
    ap.add_argument("--break", dest="brk", choices=BREAKS)
    ap.add_argument("--total-size", type=int)
    a = ap.parse_args()

    def cat(files):
        data = b""
        for f in files:
            with open(f, "rb") as fh:
                data += fh.read()
        return data

    trusted, denied = cat(a.trusted), cat(a.denied)
    level = b"" if a.no_sbat_level else cat([a.sbat_level])
    magic, version, header_size = MAGIC, 3, HEADER.size
    flags, reason = (1 | 2, 1) if a.locked else (0, 0)
    secure_boot = 1 if a.locked else 0
    reserved1 = 0
    t_off, t_size = HEADER.size, len(trusted)
    d_off, d_size = t_off + t_size, len(denied)
    s_off, s_size = d_off + d_size, len(level)
    total = s_off + s_size

    if a.brk == "magic":
        magic = b"LOCKSHIN"
    elif a.brk == "version":
        version = 2
    elif a.brk == "header-size":
        header_size = 96
    elif a.brk == "trusted-area":
        t_size = total - t_off + 1
    elif a.brk == "sbat-area":
        s_size = total - s_off + 1
    elif a.brk == "flags":
        flags |= 0x80
    elif a.brk == "lock-reason":
        flags, reason = 1, 0
    elif a.brk == "reserved":
        reserved1 = 1

    total_field = a.total_size if a.total_size is not None else total

    def pack(digest):
        return HEADER.pack(magic, version, header_size, total_field, flags, reason,
                           secure_boot, 0, 0xFF, 0, t_off, t_size, d_off, d_size,
                           s_off, s_size, reserved1, digest)

    body = pack(b"\0" * 32) + trusted + denied + level
    digest = hashlib.sha256(body).digest()
    if a.brk == "digest":
        digest = bytes([digest[0] ^ 1]) + digest[1:]
    table = pack(digest) + trusted + denied + level
    assert len(table) == total
    with open(a.out, "wb") as fh:
        fh.write(table)


if __name__ == "__main__":
    sys.exit(main())
