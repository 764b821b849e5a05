#!/usr/bin/env python3
"""Put a FAT image in a GPT disk as its one partition, an ESP, for the QEMU
tests whose guest or firmware needs a partition (LoaderDevicePartUUID):

    mkgpt.py OUT FAT.img PARTUUID

OUT: a protective MBR, the GPT header and entry array, the partition
(type EFI System, unique GUID PARTUUID, from LBA 2048), then the backup
entries and header, as the UEFI specification (5.3) lays them out. No
partitioning tool or loop device: mtools formats FAT.img (make_esp).
"""
import struct
import sys
import uuid
import zlib

SECTOR = 512
FIRST = 2048  # 1 MiB, where partitioning tools start
ENTRIES = 128
ENTRY_SIZE = 128
ENTRY_SECTORS = ENTRIES * ENTRY_SIZE // SECTOR
ESP_TYPE = uuid.UUID("c12a7328-f81f-11d2-ba4b-00a0c93ec93b")
DISK_GUID = uuid.UUID("6c6f636b-7368-696d-2074-657374646b00")  # fixed: same bytes every run


def header(current, backup, entries_lba, last_usable, entries_crc):
    fields = [b"EFI PART", 0x00010000, 92, 0, 0, current, backup, 34, last_usable,
              DISK_GUID.bytes_le, entries_lba, ENTRIES, ENTRY_SIZE, entries_crc]
    fmt = "<8sIIIIQQQQ16sQIII"
    raw = struct.pack(fmt, *fields)
    fields[3] = zlib.crc32(raw) & 0xFFFFFFFF
    return struct.pack(fmt, *fields).ljust(SECTOR, b"\0")


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: mkgpt.py OUT FAT.img PARTUUID")
    out, fat_path, part = argv[1:]
    fat = open(fat_path, "rb").read()
    if not fat or len(fat) % SECTOR:
        sys.exit(f"mkgpt.py: {fat_path}: not a whole number of sectors")
    part_guid = uuid.UUID(part)
    last = FIRST + len(fat) // SECTOR - 1
    total = last + 1 + ENTRY_SECTORS + 1
    name = "ESP".encode("utf-16-le").ljust(72, b"\0")
    entry = ESP_TYPE.bytes_le + part_guid.bytes_le + struct.pack("<QQQ", FIRST, last, 0) + name
    entries = entry.ljust(ENTRIES * ENTRY_SIZE, b"\0")
    crc = zlib.crc32(entries) & 0xFFFFFFFF
    backup_lba = total - 1
    last_usable = backup_lba - ENTRY_SECTORS - 1
    # protective MBR: one partition of type 0xEE over the disk
    mbr = bytearray(SECTOR)
    mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\x00\x02\x00", 0xEE, b"\xff\xff\xff", 1,
                               min(total - 1, 0xFFFFFFFF))
    mbr[510:512] = b"\x55\xaa"
    with open(out, "wb") as f:
        f.write(mbr)
        f.write(header(1, backup_lba, 2, last_usable, crc))
        f.write(entries)
        f.write(bytes((FIRST - 2 - ENTRY_SECTORS) * SECTOR))
        f.write(fat)
        f.write(entries)
        f.write(header(backup_lba, 1, backup_lba - ENTRY_SECTORS, last_usable, crc))


if __name__ == "__main__":
    main(sys.argv)
