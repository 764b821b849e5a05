#!/usr/bin/env python3
"""Write a UEFI Shell `dmpstore -l` file that sets authenticated variables.

    mkdmpstore.py OUT NAME=FILE [NAME=FILE ...]

NAME is PK, KEK, db or dbx (its GUID is the standard one for that name);
FILE is a signed payload (EFI_VARIABLE_AUTHENTICATION_2 + signature list,
e.g. from sign-efi-sig-list). Records are written in the order given; put PK
last (writing PK ends setup mode). Each record, as the Shell's dmpstore reads
it: u32 NameSize, u32 DataSize, UCS-2 name with NUL, GUID, u32 Attributes,
Data, u32 CRC32 of everything before it in the record. Attributes are
NV|BS|RT|TIME_BASED_AUTHENTICATED_WRITE_ACCESS (0x27).
"""
import struct
import sys
import uuid
import zlib

GLOBAL = uuid.UUID("8be4df61-93ca-11d2-aa0d-00e098032b8c")  # EFI_GLOBAL_VARIABLE
IMAGE_SECURITY = uuid.UUID("d719b2cb-3d3a-4596-a3bc-dad00e67656f")  # db, dbx
GUIDS = {"PK": GLOBAL, "KEK": GLOBAL, "db": IMAGE_SECURITY, "dbx": IMAGE_SECURITY}
ATTRS = 0x27


def record(name, guid, attrs, data):
    uname = (name + "\0").encode("utf-16-le")
    body = struct.pack("<II", len(uname), len(data)) + uname + guid.bytes_le
    body += struct.pack("<I", attrs) + data
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: mkdmpstore.py OUT NAME=FILE [NAME=FILE ...]")
    out, specs = argv[1], argv[2:]
    blob = b""
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or name not in GUIDS:
            sys.exit(f"mkdmpstore.py: bad argument {spec!r} (want PK|KEK|db|dbx=FILE)")
        with open(path, "rb") as f:
            data = f.read()
        if not data:
            sys.exit(f"mkdmpstore.py: {path} is empty")
        blob += record(name, GUIDS[name], ATTRS, data)
    if specs[-1].partition("=")[0] != "PK" and any(s.startswith("PK=") for s in specs):
        sys.exit("mkdmpstore.py: PK must come last")
    with open(out, "wb") as f:
        f.write(blob)


if __name__ == "__main__":
    main(sys.argv)
