#!/usr/bin/env python3
"""Write a UEFI Shell `dmpstore -l` file that sets variables; read an OVMF
VARS file back.

    mkdmpstore.py OUT SPEC [SPEC ...]
    mkdmpstore.py --list VARS.fd
    mkdmpstore.py --check VARS.fd SPEC [SPEC ...]
    mkdmpstore.py --set VARS.fd NAME:GUID:ATTRS=FILE [...]
    mkdmpstore.py --dump VARS.fd NAME GUID

SPEC is NAME=FILE or NAME:GUID:ATTRS=FILE.

NAME=FILE: NAME is PK, KEK, db or dbx (its GUID is the standard one for that
name); FILE is a signed payload (EFI_VARIABLE_AUTHENTICATION_2 + signature
list, e.g. from sign-efi-sig-list), written with attributes
NV|BS|RT|TIME_BASED_AUTHENTICATED_WRITE_ACCESS (0x27).

NAME:GUID:ATTRS=FILE: any variable; GUID in the usual 8-4-4-4-12 form, ATTRS
a number (0x3 = NV|BS, 0x7 = NV|BS|RT; 0x27 for an authenticated one, whose
FILE then starts with EFI_VARIABLE_AUTHENTICATION_2), FILE the data as is
(not empty: writing no data deletes a variable). E.g.
    MokList:605dab50-e046-4300-abb6-3dd810dd8b23:0x3=build/pki/mok.esl

--set writes plain variables (no time-based authentication) into VARS.fd
offline, as the firmware's variable driver would: the live copy of each is
marked deleted and the new one appended after the last record. For what
root does from the OS (efibootmgr -o, say) where a test needs the store as
it would be after that, not a boot spent on it.

Writing: records are written in the order given; put PK last (writing PK ends
setup mode, after which the Shell cannot start and plain variables could no
longer be written in the same pass). Each record, as the Shell's dmpstore
reads it: u32 NameSize, u32 DataSize, UCS-2 name with NUL, GUID, u32
Attributes, Data, u32 CRC32 of everything before it in the record.

--list prints the live variables of an OVMF VARS file (the authenticated
variable store at the start of the flash image), one a line:
    NAME GUID ATTRS(hex) DATASIZE SHA256(data)

--dump writes the data of the live variable NAME (vendor GUID) of an OVMF
VARS file to stdout as it is (exit status 1 when it is not there), for a
test that reads what the firmware or lockshim wrote (a Boot#### option:
mkloadoption.py --read).

--check verifies that each SPEC is live in VARS.fd with exactly those
attributes and that data: FILE's bytes, or for a time-authenticated variable
(attribute 0x20) FILE's bytes after the EFI_VARIABLE_AUTHENTICATION_2 header
(what the firmware stores) when FILE starts with one, so that either the
.auth payload or the bare signature list can be given. Prints one line per SPEC; exit status 1 if any
does not match.
"""
import hashlib
import os
import struct
import sys
import uuid
import zlib

GLOBAL = uuid.UUID("8be4df61-93ca-11d2-aa0d-00e098032b8c")  # EFI_GLOBAL_VARIABLE
IMAGE_SECURITY = uuid.UUID("d719b2cb-3d3a-4596-a3bc-dad00e67656f")  # db, dbx
GUIDS = {"PK": GLOBAL, "KEK": GLOBAL, "db": IMAGE_SECURITY, "dbx": IMAGE_SECURITY}
ATTRS = 0x27
TIME_BASED_AUTH = 0x20

# OVMF's VARS flash: an EFI_FIRMWARE_VOLUME_HEADER then a VARIABLE_STORE_HEADER
# for authenticated variables, then AUTHENTICATED_VARIABLE_HEADER records.
AUTH_VARIABLE_STORE = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
VAR_START_ID = 0x55AA
VAR_ADDED = 0x3F
VAR_IN_DELETED_TRANSITION = 0xFE
VAR_DELETED = 0xFD
AUTH_VAR_HEADER = struct.Struct("<HBBIQ16sIII16s")  # 60 bytes


def die(msg):
    sys.exit(f"mkdmpstore.py: {msg}")


def record(name, guid, attrs, data):
    uname = (name + "\0").encode("utf-16-le")
    body = struct.pack("<II", len(uname), len(data)) + uname + guid.bytes_le
    body += struct.pack("<I", attrs) + data
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def parse_spec(spec):
    """SPEC -> (name, guid, attrs, path)."""
    head, sep, path = spec.partition("=")
    if not sep or not path:
        die(f"bad argument {spec!r} (want PK|KEK|db|dbx=FILE or NAME:GUID:ATTRS=FILE)")
    if ":" not in head:
        if head not in GUIDS:
            die(f"bad argument {spec!r} (want PK|KEK|db|dbx=FILE or NAME:GUID:ATTRS=FILE)")
        return head, GUIDS[head], ATTRS, path
    parts = head.split(":")
    if len(parts) != 3 or not parts[0]:
        die(f"bad argument {spec!r} (want NAME:GUID:ATTRS=FILE)")
    name, g, a = parts
    try:
        guid = uuid.UUID(g)
    except ValueError:
        die(f"bad GUID {g!r} in {spec!r}")
    try:
        attrs = int(a, 0)
    except ValueError:
        die(f"bad attributes {a!r} in {spec!r}")
    if not 0 < attrs <= 0xFFFFFFFF:
        die(f"bad attributes {a!r} in {spec!r}")
    return name, guid, attrs, path


def read_data(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        die(f"{path}: {e.strerror}")
    if not data:
        die(f"{path} is empty")
    return data


def auth2_payload(data, path):
    """The variable data after an EFI_VARIABLE_AUTHENTICATION_2 header, or
    @data itself when it does not start with one (a bare signature list)."""
    if len(data) < 16 + 8:
        return data
    # EFI_TIME, then WIN_CERTIFICATE {u32 dwLength, u16 wRevision 0x0200,
    # u16 wCertificateType WIN_CERT_TYPE_EFI_GUID 0x0EF1}. A signature list
    # has its u32 SignatureHeaderSize, in practice 0, in that place.
    length, revision, cert_type = struct.unpack_from("<IHH", data, 16)
    if (revision, cert_type) != (0x0200, 0x0EF1):
        return data
    if length < 8 or 16 + length > len(data):
        die(f"{path}: bad WIN_CERTIFICATE length {length}")
    return data[16 + length:]


def read_file(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        die(f"{path}: {e.strerror}")


def walk_store(fd, path):
    """The records of the variable store in the VARS image @fd:
    ([(offset, state, name, guid, attrs, data)], the offset after the last
    record, the end of the store)."""
    if len(fd) < 0x48 or fd[0x28:0x2C] != b"_FVH":
        die(f"{path}: not a firmware volume")
    (fv_header_len,) = struct.unpack_from("<H", fd, 0x30)
    store = fv_header_len
    if uuid.UUID(bytes_le=fd[store:store + 16]) != AUTH_VARIABLE_STORE:
        die(f"{path}: no authenticated variable store after the FV header")
    (store_size,) = struct.unpack_from("<I", fd, store + 16)
    if store + store_size > len(fd):
        # a file cut short is not an empty store
        die(f"{path}: cut short: its variable store ends at {store + store_size:#x}, "
            f"the file at {len(fd):#x}")
    end = store + store_size
    off = store + 28  # sizeof(VARIABLE_STORE_HEADER)
    records = []
    while off + AUTH_VAR_HEADER.size <= end:
        (start, state, _, attrs, _, _, _, name_size, data_size,
         guid) = AUTH_VAR_HEADER.unpack_from(fd, off)
        if start != VAR_START_ID:
            break
        name_off = off + AUTH_VAR_HEADER.size
        data_off = name_off + name_size
        nxt = data_off + data_size
        if nxt > end:
            die(f"{path}: variable at {off:#x} runs past the store")
        name = fd[name_off:data_off].decode("utf-16-le", "replace").rstrip("\0")
        records.append((off, state, name, uuid.UUID(bytes_le=guid), attrs, fd[data_off:nxt]))
        off = (nxt + 3) & ~3
    return records, off, end


def read_store(path):
    """The live variables of an OVMF VARS file: [(name, guid, attrs, data)]."""
    records, _, _ = walk_store(read_file(path), path)
    out = [(name, guid, attrs, data, state == VAR_ADDED)
           for _, state, name, guid, attrs, data in records
           if state in (VAR_ADDED, VAR_ADDED & VAR_IN_DELETED_TRANSITION)]
    # A write cut short between adding the new copy and deleting the old one
    # leaves both: the firmware reads the added copy, as here (edk2's
    # FindVariable); the one in deleted transition counts only alone.
    added = {(name, guid) for name, guid, _, _, is_added in out if is_added}
    return [(name, guid, attrs, data) for name, guid, attrs, data, is_added in out
            if is_added or (name, guid) not in added]


def cmd_write(out, specs):
    blob = b""
    names = []
    for spec in specs:
        name, guid, attrs, path = parse_spec(spec)
        blob += record(name, guid, attrs, read_data(path))
        names.append((name, guid))
    if (("PK", GLOBAL) in names and names[-1] != ("PK", GLOBAL)):
        die("PK must come last")
    with open(out, "wb") as f:
        f.write(blob)


def cmd_set(path, specs):
    fd = bytearray(read_file(path))
    for spec in specs:
        name, guid, attrs, fpath = parse_spec(spec)
        if attrs & TIME_BASED_AUTH or ":" not in spec.partition("=")[0]:
            die(f"--set {spec!r}: only plain variables (NAME:GUID:ATTRS, no time-based authentication)")
        data = read_data(fpath)
        records, free, end = walk_store(bytes(fd), path)
        uname = (name + "\0").encode("utf-16-le")
        new = AUTH_VAR_HEADER.pack(VAR_START_ID, VAR_ADDED, 0, attrs, 0, bytes(16), 0,
                                   len(uname), len(data), guid.bytes_le) + uname + data
        if free + len(new) > end or fd[free:free + len(new)] != b"\xff" * len(new):
            die(f"{path}: no free space for {name} (the firmware would reclaim first)")
        # as the firmware orders it: the new copy first, then the old one deleted
        fd[free:free + len(new)] = new
        for off, state, rname, rguid, _, _ in records:
            if (rname, rguid) == (name, guid) and state in (VAR_ADDED, VAR_ADDED & VAR_IN_DELETED_TRANSITION):
                fd[off + 2] = state & VAR_DELETED
    with open(path + ".tmp", "wb") as f:
        f.write(fd)
    os.replace(path + ".tmp", path)


def cmd_list(path):
    for name, guid, attrs, data in read_store(path):
        print(f"{name} {guid} {attrs:#x} {len(data)} {hashlib.sha256(data).hexdigest()}")


def cmd_dump(path, name, guid):
    want = uuid.UUID(guid)
    for vname, vguid, _, data in read_store(path):
        if (vname, vguid) == (name, want):
            sys.stdout.buffer.write(data)
            return
    sys.exit(f"mkdmpstore.py: {path}: no variable {name} {guid}")


def cmd_check(path, specs):
    live = {}
    for name, guid, attrs, data in read_store(path):
        live[(name, guid)] = (attrs, data)
    bad = 0
    for spec in specs:
        name, guid, attrs, fpath = parse_spec(spec)
        want = read_data(fpath)
        if attrs & TIME_BASED_AUTH:
            want = auth2_payload(want, fpath)
        have = live.get((name, guid))
        if have is None:
            print(f"MISSING {name} {guid}")
            bad += 1
        elif have[0] != attrs:
            print(f"BAD {name} {guid}: attributes {have[0]:#x}, want {attrs:#x}")
            bad += 1
        elif have[1] != want:
            print(f"BAD {name} {guid}: {len(have[1])} bytes of data differ from "
                  f"the {len(want)} wanted ({fpath})")
            bad += 1
        else:
            print(f"OK {name} {guid} {attrs:#x} {len(want)}")
    sys.exit(1 if bad else 0)


def main(argv):
    usage = ("usage: mkdmpstore.py OUT SPEC [SPEC ...] | --list VARS.fd | "
             "--check VARS.fd SPEC [SPEC ...] | --set VARS.fd SPEC [SPEC ...] | "
             "--dump VARS.fd NAME GUID")
    if len(argv) == 3 and argv[1] == "--list":
        cmd_list(argv[2])
    elif len(argv) >= 4 and argv[1] == "--check":
        cmd_check(argv[2], argv[3:])
    elif len(argv) == 5 and argv[1] == "--dump":
        cmd_dump(argv[2], argv[3], argv[4])
    elif len(argv) >= 4 and argv[1] == "--set":
        cmd_set(argv[2], argv[3:])
    elif len(argv) >= 3 and not argv[1].startswith("--"):
        cmd_write(argv[1], argv[2:])
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(sys.argv)
