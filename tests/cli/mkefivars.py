#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Write the files of an efivarfs copy for tests/cli/test_check.sh: one file
NAME-GUID per variable, 4 bytes of little-endian attributes, then the data.

  mkefivars.py var DIR NAME GUID ATTRS FILE       the data from FILE
  mkefivars.py byte DIR NAME GUID ATTRS VALUE     one byte
  mkefivars.py order DIR NUM...                   BootOrder (hex option numbers)
  mkefivars.py option DIR NUM DESC PATH [OPTS] [--partuuid GUID] [--inactive] [--app]
      Boot#### (NUM hex): an HD() node when --partuuid, a file path node
      (PATH, '\\' separators), the end node, then OPTS as UCS-2 load options
  mkefivars.py auth OUT ESL       ESL as a signed update: an
      EFI_VARIABLE_AUTHENTICATION_2 header (a dummy PKCS#7 blob) then ESL
  mkefivars.py eventlog OUT HEX   a crypto-agile TPM event log (SHA-256 bank) in
      which the firmware measured a separator into PCR 7, then the first boot
      application (digest HEX) into PCR 4
"""
import hashlib
import struct
import sys
import uuid

GLOBAL = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
PKCS7 = "4aafd29d-68df-49ee-8aa9-347d375665a7"


def write_var(d, name, guid, attrs, data):
    with open(f"{d}/{name}-{guid}", "wb") as f:
        f.write(struct.pack("<I", attrs) + data)


def node(t, s, body):
    return struct.pack("<BBH", t, s, 4 + len(body)) + body


def option(args):
    d, num, desc, path = args[:4]
    rest = args[4:]
    opts, part, attrs = None, None, 1
    while rest:
        a = rest.pop(0)
        if a == "--partuuid":
            part = rest.pop(0)
        elif a == "--inactive":
            attrs = 0
        elif a == "--app":
            attrs |= 0x100  # LOAD_OPTION_CATEGORY_APP, as OVMF's UiApp
        else:
            opts = a
    dp = b""
    if part:
        dp += node(4, 1, struct.pack("<IQQ", 1, 2048, 100000) + uuid.UUID(part).bytes_le + b"\x02\x02")
    dp += node(4, 4, (path + "\0").encode("utf-16-le"))
    dp += node(0x7F, 0xFF, b"")
    data = struct.pack("<IH", attrs, len(dp)) + (desc + "\0").encode("utf-16-le") + dp
    if opts is not None:
        data += (opts + "\0").encode("utf-16-le")
    write_var(d, "Boot%04X" % int(num, 16), GLOBAL, 7, data)


def main(argv):
    cmd = argv[1]
    if cmd == "var":
        d, name, guid, attrs, path = argv[2:7]
        write_var(d, name, guid, int(attrs, 0), open(path, "rb").read())
    elif cmd == "byte":
        d, name, guid, attrs, value = argv[2:7]
        write_var(d, name, guid, int(attrs, 0), bytes([int(value, 0)]))
    elif cmd == "order":
        d = argv[2]
        write_var(d, "BootOrder", GLOBAL, 7, b"".join(struct.pack("<H", int(n, 16)) for n in argv[3:]))
    elif cmd == "option":
        option(argv[2:])
    elif cmd == "auth":
        out, esl = argv[2:4]
        cert = b"\x30\x03\x02\x01\x01"  # not checked by lockshim: the firmware checks it against KEK
        wincert = struct.pack("<IHH", 24 + len(cert), 0x0200, 0x0EF1) + uuid.UUID(PKCS7).bytes_le + cert
        time = struct.pack("<HBBBBBBIhBB", 2026, 12, 5, 0, 0, 0, 0, 0, 0, 0, 0)
        with open(out, "wb") as f:
            f.write(time + wincert + open(esl, "rb").read())
    elif cmd == "eventlog":
        out, app = argv[2], bytes.fromhex(argv[3])
        spec = (b"Spec ID Event03\0" + struct.pack("<IBBBBI", 0, 0, 2, 0, 2, 1)
                + struct.pack("<HH", 0x000B, 32) + b"\0")
        log = struct.pack("<II", 0, 3) + bytes(20) + struct.pack("<I", len(spec)) + spec

        def event2(pcr, etype, digest, data):
            return (struct.pack("<IIIH", pcr, etype, 1, 0x000B) + digest
                    + struct.pack("<I", len(data)) + data)
        sep = b"\0\0\0\0"
        log += event2(7, 4, hashlib.sha256(sep).digest(), sep)
        log += event2(4, 0x80000003, app, bytes(32))
        open(out, "wb").write(log)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
