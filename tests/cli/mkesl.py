#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Write the EFI_SIGNATURE_LISTs tests/cli/test_policy.sh needs that efitools
does not make, and print certificate TBS digests:

  mkesl.py X509_SHA256|X509_SHA384|X509_SHA512 OUT CERT.der...
      one list of the digests of each certificate's tbsCertificate, each
      followed by a 16-byte EFI_TIME
  mkesl.py SHA1|SHA224|SHA256|SHA384|SHA512|RSA2048|RSA2048_SHA256|RSA2048_SHA1 OUT HEX...
      one list of the given digests, RSA-2048 moduli or signature values
  mkesl.py UNKNOWN OUT HEX...
      one list of a type nobody defines (GUID UNKNOWN below), the given entries
  mkesl.py malformed OUT KIND [CERT.der]
      one broken list of the kind named (the kinds: malformed() below)
  mkesl.py tbs-hex - ALG CERT.der
      print the ALG digest of the certificate's tbsCertificate in hex
  mkesl.py signature-values - IMAGE
      print the signature value (encryptedDigest) of each SignerInfo of the
      PE image's signatures in hex, one a line: each signature, then the
      signatures nested in it

Every entry's owner is OWNER, the owner test_policy.sh gives efitools.
"""
import hashlib
import struct
import sys
import uuid

GUIDS = {
    "X509": "a5c059a1-94e4-4aa7-87b5-ab155c2bf072",
    "SHA256": "c1c41626-504c-4092-aca9-41f936934328",
    "SHA384": "ff3e5307-9fd0-48c9-85f1-8ad56c701e01",
    "SHA512": "093e0fae-a6c4-4f50-9f1b-d41e2b89c19a",
    "SHA1": "826ca512-cf10-4ac9-b187-be01496631bd",
    "SHA224": "0b6e5233-a65c-44c9-9407-d9ab83bfc8bd",
    "RSA2048": "3c5766e8-269c-4e34-aa14-ed776e85b3b6",
    "RSA2048_SHA256": "e2b36190-879b-4a3d-ad8d-f2e7bba32784",
    "RSA2048_SHA1": "67f8444f-8743-48f1-a328-1eaab8736080",
    "UNKNOWN": "4c6f636b-5368-696d-556e-6b6e6f776e21",
    "X509_SHA256": "3bd2a492-96c0-4079-b420-fcf98ef103ed",
    "X509_SHA384": "7076876e-80c2-4ee6-aad2-28b349a6865b",
    "X509_SHA512": "446dbf63-2502-4cda-bcfa-2465d2b0fe9d",
}
OWNER = uuid.UUID("4c6f636b-5368-696d-5465-737450726f6f").bytes_le
# EFI_TIME 2024-01-02 03:04:05 (any time: the policy ignores it)
EFI_TIME = struct.pack("<HBBBBBBIhBB", 2024, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0)
assert len(EFI_TIME) == 16


def esl(kind, entries, list_size=None, sig_size=None, header=b""):
    """One EFI_SIGNATURE_LIST; list_size/sig_size override the true values."""
    if sig_size is None:
        sig_size = 16 + (len(entries[0]) if entries else 32)
    body = b"".join(OWNER + e for e in entries)
    if list_size is None:
        list_size = 28 + len(header) + len(body)
    return (uuid.UUID(GUIDS[kind]).bytes_le
            + struct.pack("<III", list_size & 0xFFFFFFFF, len(header), sig_size & 0xFFFFFFFF)
            + header + body)


def der_element(data, pos):
    """(start, end) of the DER element at pos, header included."""
    length = data[pos + 1]
    hdr = 2
    if length & 0x80:
        n = length & 0x7F
        length = int.from_bytes(data[pos + 2:pos + 2 + n], "big")
        hdr += n
    return pos, pos + hdr + length


def tbs(cert_der):
    # Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature }
    _, _ = der_element(cert_der, 0)
    inner = 2 + (cert_der[1] & 0x7F if cert_der[1] & 0x80 else 0)
    start, end = der_element(cert_der, inner)
    assert cert_der[start] == 0x30
    return cert_der[start:end]


def der_children(data, start, end):
    """(tag, value start, value end) of each DER element in data[start:end];
    stops at bytes that are not DER (the content of a constructed element
    that holds something else, as a SHA-1 signature's can)."""
    pos = start
    while pos + 2 <= end:
        tag, length, hdr = data[pos], data[pos + 1], 2
        if length & 0x80:
            n = length & 0x7F
            length = int.from_bytes(data[pos + 2:pos + 2 + n], "big")
            hdr += n
        if pos + hdr + length > end:
            return
        yield tag, pos + hdr, pos + hdr + length
        pos += hdr + length


def signer_values(data, start, end, out):
    """Append the encryptedDigest of every SignerInfo inside data[start:end]:
    SEQUENCE { INTEGER, SEQUENCE, SEQUENCE, [0] attributes OPTIONAL,
    SEQUENCE, OCTET STRING, [1] attributes OPTIONAL }, nested ones after."""
    kids = list(der_children(data, start, end))
    tags = [k[0] for k in kids]
    i = 4 if tags[3:4] == [0xA0] else 3
    if tags[:3] == [0x02, 0x30, 0x30] and tags[i:i + 2] == [0x30, 0x04]:
        _, s, e = kids[i + 1]
        out.append(data[s:e])
    for tag, s, e in kids:
        if tag & 0x20:  # constructed: look inside
            signer_values(data, s, e, out)


def signature_values(image):
    """The SignerInfos' signature values of a PE image's certificate table."""
    pe = struct.unpack_from("<I", image, 0x3C)[0]
    opt = pe + 24
    dirs = opt + (96 if struct.unpack_from("<H", image, opt)[0] == 0x10B else 112)
    offset, size = struct.unpack_from("<II", image, dirs + 4 * 8)
    out, pos = [], offset
    while pos + 8 <= offset + size:
        length = struct.unpack_from("<I", image, pos)[0]
        signer_values(image, pos + 8, pos + length, out)
        pos += (length + 7) // 8 * 8
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def malformed(kind, cert):
    """A list broken as KIND says; cert is the certificate the X509 kinds spoil."""
    h = bytes(range(32))
    return {
        "zero-list-size": esl("SHA256", [h], list_size=0),
        "sig-size-8": esl("SHA256", [h[:0]] * 4, sig_size=8, list_size=28 + 4 * 16),
        "sig-size-0": esl("SHA256", [h], sig_size=0),
        "not-multiple": esl("SHA256", [h, h], list_size=28 + 2 * 48 - 5),
        "past-end": esl("SHA256", [h, h], list_size=28 + 3 * 48),
        "huge-list-size": esl("SHA256", [h], list_size=0xFFFFFFFF),
        "huge-list-size-aligned": esl("SHA256", [h], list_size=28 + 48 * ((0xFFFFFFFF - 28) // 48)),
        "huge-sig-size": esl("SHA256", [h], sig_size=0xFFFFFFF0),
        # 28 + header size wraps to 0 in 32 bits
        "huge-header-size": esl("SHA256", [h])[:20] + struct.pack("<I", 0xFFFFFFE4) + esl("SHA256", [h])[24:],
        "truncated-header": esl("SHA256", [h])[:20],
        "truncated-cert": esl("X509", [cert[:len(cert) // 2]]),
        "cert-trailing-garbage": esl("X509", [cert + b"\0\0\0\0"]),
        "cert-not-der": esl("X509", [b"\x30\x82\x01\x00" + b"\xff" * 252]),
        "sha256-sig-size-36": esl("SHA256", [h[:20]], sig_size=16 + 20),
        "x509-sha256-no-time": esl("X509_SHA256", [h], sig_size=16 + 32),
    }[kind]


def main(argv):
    cmd, out = argv[1], argv[2]
    args = argv[3:]
    if cmd in ("X509_SHA256", "X509_SHA384", "X509_SHA512"):
        alg = cmd[5:].lower()
        data = esl(cmd, [hashlib.new(alg, tbs(read(a))).digest() + EFI_TIME for a in args])
    elif cmd in ("SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "RSA2048", "RSA2048_SHA256",
                 "RSA2048_SHA1", "UNKNOWN"):
        data = esl(cmd, [bytes.fromhex(a) for a in args])
    elif cmd == "tbs-hex":
        print(hashlib.new(args[0], tbs(read(args[1]))).hexdigest())
        return
    elif cmd == "signature-values":
        for value in signature_values(read(args[0])):
            print(value.hex())
        return
    elif cmd == "malformed":
        data = malformed(args[0], read(args[1]) if len(args) > 1 else b"")
    else:
        sys.exit("mkesl.py: unknown command " + cmd)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv)
