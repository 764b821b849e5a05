#!/usr/bin/env python3
# Write an EFI_LOAD_OPTION (the data of a Boot#### variable), as efibootmgr
# does, for the QEMU tests:
#
#   mkloadoption.py OUT DESCRIPTION '\EFI\path\loader.efi' [OPTIONAL_DATA]
#
# The device path is the short form, a lone file path node: the firmware
# finds the file on whichever file system holds it. OPTIONAL_DATA is stored
# as a NUL-terminated UCS-2 string (efibootmgr --unicode), which is what
# lockshim reads as its load options.
import struct
import sys


def ucs2(text):
    return (text + "\0").encode("utf-16-le")


def main(argv):
    if len(argv) not in (4, 5):
        sys.exit("usage: mkloadoption.py OUT DESCRIPTION PATH [OPTIONAL_DATA]")
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
