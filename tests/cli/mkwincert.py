#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Append a bad WIN_CERTIFICATE entry to a signed image's certificate table,
for tests/cli/test_policy.sh:

  mkwincert.py OUT IN MODE CERT.der

OUT is IN (a signed PE32+ image whose certificate table ends the file) with
one more entry after its first, of the kind MODE names:

  garbage          bytes that are not DER
  truncated-pkcs7  the first half of the first entry's PKCS#7
  x509-type        CERT.der as a WIN_CERT_TYPE_X509 entry
  bad-revision     the first entry's PKCS#7 with wRevision 0x100
  overlong         the first entry's PKCS#7 with dwLength 4096 bytes too long
  header-only      a bare 8-byte header
"""
import struct
import sys


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main(argv):
    out, args = argv[1], argv[2:]
    img = bytearray(read(args[0]))
    mode = args[1]
    pe = struct.unpack_from("<I", img, 0x3C)[0]
    opt = pe + 24
    assert struct.unpack_from("<H", img, opt)[0] == 0x20B, "not PE32+"
    sec = opt + 112 + 4 * 8
    off, size = struct.unpack_from("<II", img, sec)
    assert off + size == len(img), "certificate table is not at the end"
    first_len = struct.unpack_from("<I", img, off)[0]
    first = bytes(img[off + 8:off + first_len])
    payload, rev, typ, length = {
        "garbage": (bytes(range(7, 255)) * 2, 0x200, 2, None),
        "truncated-pkcs7": (first[:len(first) // 2], 0x200, 2, None),
        "x509-type": (read(args[2]), 0x200, 1, None),
        "bad-revision": (first, 0x100, 2, None),
        "overlong": (first, 0x200, 2, 8 + len(first) + 4096),
        "header-only": (b"", 0x200, 2, 8),
    }[mode]
    if length is None:
        length = 8 + len(payload)
    entry = struct.pack("<IHH", length, rev, typ) + payload
    entry += b"\0" * (-len(entry) % 8)
    img += entry
    struct.pack_into("<II", img, sec, off, size + len(entry))
    with open(out, "wb") as f:
        f.write(bytes(img))


if __name__ == "__main__":
    main(sys.argv)
