#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Mark a PE32+ image as NX-compatible, after checking that it is:

    pe-nx-compat.py IMAGE.efi

Firmware that enforces no-execute memory (the UEFI memory attributes
protocol, Microsoft's requirements for signing since 2022) maps each
section with its own attributes and trusts IMAGE_DLLCHARACTERISTICS_NX_COMPAT
to say the image can live with that. So the flag is set only when it is
true: a 4 KiB SectionAlignment, every section starting on a page of its
own, and no section both writable and executable. Otherwise the image is
left alone, the reason printed, and the exit status is 1 (the Makefile then
removes the image: that link fails). objcopy has no option for the flag;
rhboot/shim and systemd-boot set it the same way, after the link.
(Relocations patch writable sections only: check-efi-relocs.sh.)
"""
import struct
import sys

NX_COMPAT = 0x0100
SCN_MEM_EXECUTE = 0x20000000
SCN_MEM_WRITE = 0x80000000
PAGE = 4096


def problems_and_flag_offset(image):
    """The reasons IMAGE cannot be NX_COMPAT, and where its
    DllCharacteristics field is."""
    if len(image) < 0x40 or image[:2] != b"MZ":
        return ["not a PE image (no MZ header)"], None
    (pe,) = struct.unpack_from("<I", image, 0x3C)
    if pe > len(image) - 24 or image[pe:pe + 4] != b"PE\0\0":
        return ["not a PE image (no PE signature)"], None
    sections, opt_size = struct.unpack_from("<H12xH", image, pe + 6)
    opt = pe + 24
    table = opt + opt_size
    if opt_size < 72:
        return ["no optional header (not an executable image)"], None
    if table + 40 * sections > len(image):
        return ["section table past the end of the file"], None
    if struct.unpack_from("<H", image, opt)[0] != 0x20B:
        return ["not PE32+"], None
    problems = []
    (alignment,) = struct.unpack_from("<I", image, opt + 32)
    if alignment != PAGE:
        problems.append(f"SectionAlignment is {alignment:#x}, not {PAGE:#x}")
    for i in range(sections):
        at = table + 40 * i
        name = image[at:at + 8].rstrip(b"\0").decode("ascii", "replace")
        (address,) = struct.unpack_from("<I", image, at + 12)
        (flags,) = struct.unpack_from("<I", image, at + 36)
        if address % PAGE:
            problems.append(f"section {name} starts at {address:#x}, inside a page")
        if flags & SCN_MEM_WRITE and flags & SCN_MEM_EXECUTE:
            problems.append(f"section {name} is both writable and executable")
    return problems, opt + 70


def main(argv):
    if len(argv) != 2:
        print("usage: pe-nx-compat.py IMAGE.efi", file=sys.stderr)
        return 2
    path = argv[1]
    with open(path, "rb") as f:
        image = bytearray(f.read())
    problems, flag_at = problems_and_flag_offset(image)
    if problems:
        for p in problems:
            print(f"{path}: cannot be NX-compatible: {p}", file=sys.stderr)
        return 1
    (flags,) = struct.unpack_from("<H", image, flag_at)
    struct.pack_into("<H", image, flag_at, flags | NX_COMPAT)
    with open(path, "r+b") as f:
        f.write(image)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
