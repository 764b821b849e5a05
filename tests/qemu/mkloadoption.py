#!/usr/bin/env python3
# Write an EFI_LOAD_OPTION (the data of a Boot#### variable), as efibootmgr
# does, for the QEMU tests; or read one back:
#
#   mkloadoption.py OUT DESCRIPTION '\EFI\path\loader.efi' [OPTIONAL_DATA]
#   mkloadoption.py --read FILE
#
# The device path is the short form, a lone file path node: the firmware
# finds the file on whichever file system holds it. OPTIONAL_DATA is stored
# as a NUL-terminated UCS-2 string (efibootmgr --unicode), which is what
# lockshim reads as its load options.
#
# --read prints FILE's fields, one a line, for a test to compare:
#   attributes 0x1
#   description Debian
#   node HD(1,GPT,0c4e5a1d-...,0x800,0x8000)   (one line per device path node;
#   node File(\EFI\debian\lockshimx64.efi)      others as Node(TYPE,SUBTYPE,HEX))
#   data vmlinuz.efi console=ttyS0\0            (UCS-2 as text, \0 for a NUL;
#   data-hex 7600...                             "none" when there is none)
import struct
import sys
import uuid


def ucs2(text):
    return (text + "\0").encode("utf-16-le")


def describe_node(ntype, subtype, body):
    if (ntype, subtype) == (4, 1) and len(body) == 38:
        part, start, size = struct.unpack_from("<IQQ", body, 0)
        sig, mbr_type, sig_type = body[20:36], body[36], body[37]
        if sig_type == 2:
            return (f"HD({part},{'GPT' if mbr_type == 2 else f'MBR{mbr_type}'},"
                    f"{uuid.UUID(bytes_le=bytes(sig))},{start:#x},{size:#x})")
    if (ntype, subtype) == (4, 4):
        return f"File({body.decode('utf-16-le', 'replace')})".replace("\0", "")
    return f"Node({ntype:#x},{subtype:#x},{body.hex()})"


def read(path):
    data = open(path, "rb").read()
    if len(data) < 6:
        sys.exit(f"mkloadoption.py: {path}: shorter than a load option")
    attrs, dp_len = struct.unpack_from("<IH", data, 0)
    at = 6
    while True:
        if at + 2 > len(data):
            sys.exit(f"mkloadoption.py: {path}: description without its NUL")
        if data[at:at + 2] == b"\0\0":
            break
        at += 2
    description = data[6:at].decode("utf-16-le", "replace")
    at += 2
    dp, rest = data[at:at + dp_len], data[at + dp_len:]
    if len(dp) != dp_len:
        sys.exit(f"mkloadoption.py: {path}: device path past the end")
    print(f"attributes {attrs:#x}")
    print(f"description {description}")
    off = 0
    while off + 4 <= len(dp):
        ntype, subtype, nlen = struct.unpack_from("<BBH", dp, off)
        if nlen < 4 or off + nlen > len(dp):
            sys.exit(f"mkloadoption.py: {path}: bad device path node at {off}")
        if (ntype, subtype) == (0x7F, 0xFF):
            break
        print(f"node {describe_node(ntype, subtype, dp[off + 4:off + nlen])}")
        off += nlen
    if rest:
        print("data " + rest.decode("utf-16-le", "replace").replace("\0", "\\0"))
        print(f"data-hex {rest.hex()}")
    else:
        print("data none")


def main(argv):
    if len(argv) == 3 and argv[1] == "--read":
        read(argv[2])
        return
    if len(argv) not in (4, 5):
        sys.exit("usage: mkloadoption.py OUT DESCRIPTION PATH [OPTIONAL_DATA] | --read FILE")
    out, description, path = argv[1:4]
    optional = ucs2(argv[4]) if len(argv) == 5 else b""
    name = ucs2(path)
    file_node = struct.pack("<BBH", 4, 4, 4 + len(name)) + name  # MEDIA_FILEPATH_DP
    end_node = struct.pack("<BBH", 0x7F, 0xFF, 4)
    device_path = file_node + end_node
    load_option = (struct.pack("<IH", 1, len(device_path))  # LOAD_OPTION_ACTIVE
                   + ucs2(description) + device_path + optional)
    with open(out, "wb") as f:
        f.write(load_option)


if __name__ == "__main__":
    main(sys.argv)
