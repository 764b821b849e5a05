#!/usr/bin/env python3
"""Split kexec images into the parts the probe puts back together:

    split-kexec.py PARTS BASE NAME=IMAGE...

PARTS/body is BASE past its first 4 KiB (where signing patches the PE
headers); each IMAGE must hold those bytes at that offset (signing and
adding a section only append), and becomes PARTS/NAME.head (its first
4 KiB) and PARTS/NAME.tail (what follows the body: sections, padding,
certificate table). Refused unless head + body + tail gives IMAGE's bytes.
Many images of one kernel then cost the initramfs one body.
"""
import sys

HEAD = 4096


def main():
    parts, base = sys.argv[1], sys.argv[2]
    body = open(base, "rb").read()[HEAD:]
    with open(f"{parts}/body", "wb") as f:
        f.write(body)
    for arg in sys.argv[3:]:
        name, path = arg.split("=", 1)
        image = open(path, "rb").read()
        end = HEAD + len(body)
        if image[HEAD:end] != body:
            sys.exit(f"split-kexec: {path} differs from {base} past its first {HEAD} bytes")
        head, tail = image[:HEAD], image[end:]
        if head + body + tail != image:
            sys.exit(f"split-kexec: {path} is not its parts")
        with open(f"{parts}/{name}.head", "wb") as f:
            f.write(head)
        with open(f"{parts}/{name}.tail", "wb") as f:
            f.write(tail)


if __name__ == "__main__":
    main()
