#!/usr/bin/env bash
# Regenerate fuzz_sbat's seed corpus (committed test data):
#
#   tests/fuzz/make-sbat-corpus.sh
#
# writes tests/fuzz/corpus/fuzz_sbat/ (all but the regress-* files there,
# which fuzzing found). tests/fuzz/make-corpus.sh runs it too. Needs python3.
#
# A seed is what fuzz_sbat.c reads: a flags byte (bit 0 Secure Boot on, bits
# 1-3 the stored variable's attributes: 0 absent, 1 NV|BS, 2 NV|BS|RT, 3 NV,
# 4 NV|BS|RT|AT, 5-7 NV|BS; bit 4: the stored size is given as 4 GiB more
# than it is), the SbatPolicy byte, then up to four parts
# separated by 0xfe: an image's .sbat, the automatic and the latest level, the
# stored SbatLevel. A few seeds are raw .sbatlevel payloads instead (the
# whole input also goes to sbat_levels_parse).
set -euo pipefail

cd "$(dirname "$0")/../.."
out=tests/fuzz/corpus/fuzz_sbat
command -v python3 >/dev/null || { echo "make-sbat-corpus: python3 not found" >&2; exit 1; }
mkdir -p "$out"
find "$out" -type f ! -name 'regress-*' -delete

python3 - "$out" <<'PY'
import struct, sys

out = sys.argv[1]

def put(name, data):
    with open("%s/%s" % (out, name), "wb") as f:
        f.write(data)

SB, ABSENT, NVBS, NVBSRT, NV, NVBSRTAT, HUGE = 1, 0 << 1, 1 << 1, 2 << 1, 3 << 1, 4 << 1, 0x10
NONE, LATEST, AUTOMATIC, RESET = 0, 1, 2, 3

def seed(flags, policy, *parts):
    return bytes([flags, policy]) + b"\xfe".join(parts)

HEADER = b"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
shim = HEADER + (b"shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"
                 b"shim.debian,1,Debian,shim,16.1-1,https://tracker.debian.org/pkg/shim\n")
grub = HEADER + (b"grub,5,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n"
                 b"grub.debian,5,Debian,grub2,2.12-1,https://tracker.debian.org/pkg/grub2\n"
                 b"grub.peimage,2,Canonical,grub2,2.12,https://salsa.debian.org/grub-team/grub\n")
grub3 = HEADER + b"grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n"
linux = HEADER + (b"linux,1,The Linux Kernel Organization,linux,6.12,https://www.kernel.org/\n"
                  b"linux.lockshim,1,lockshim developers,linux-lockshim,6.12,https://lockshim.invalid/\n")
lockshim = HEADER + b"lockshim,2,lockshim developers,lockshim,0.1,https://lockshim.invalid/\n"
lockshim_previous = lockshim.replace(b"lockshim,2,", b"lockshim,1,")

original = b"sbat,1,2021030218\n"
shim158 = b"sbat,1,2023012900\nshim,2\ngrub,3\ngrub.debian,4\n"
shim16 = b"sbat,1,2024010900\nshim,4\ngrub,3\ngrub.debian,4\n"
debian = b"sbat,1,2025021800\nshim,4\ngrub,5\n"          # Debian's shim 16.1
latest = b"sbat,1,2026120600\nshim,4\ngrub,5\nlockshim,2\n"   # certs/sbat-level-latest.csv
newer = b"sbat,1,2027010100\nshim,5\ngrub,6\nlockshim,3\n"

# well-formed: every decision of sbat_level_update
put("shim-debian-first-boot", seed(SB | ABSENT, NONE, shim, debian, latest, b""))
put("grub-older-stored", seed(SB | NVBS, NONE, grub, debian, latest, shim16))
put("grub-equal-stored", seed(SB | NVBS, NONE, grub, debian, latest, debian))
put("grub3-revoked", seed(SB | NVBS, NONE, grub3, debian, latest, newer))
put("linux-newer-stored", seed(SB | NVBS, AUTOMATIC, linux, debian, latest, newer))
put("lockshim-latest", seed(SB | NVBS, LATEST, lockshim, debian, latest, shim158))
put("latest-stored-newer", seed(SB | NVBS, LATEST, lockshim, debian, latest, newer))
put("lockshim-previous-latest", seed(SB | NVBS, LATEST, lockshim_previous, debian, latest, debian))
put("runtime-visible", seed(SB | NVBSRT, NONE, shim, debian, latest, newer))
put("nv-only", seed(NV, NONE, shim, debian, latest, newer))
put("nv-bs-rt-at", seed(SB | NVBSRTAT, LATEST, grub, debian, latest, debian))
put("reset-secure-boot-on", seed(SB | NVBS, RESET, shim, debian, latest, newer))
put("reset-secure-boot-off", seed(NVBS, RESET, shim, debian, latest, newer))
put("reset-off-runtime", seed(NVBSRT, RESET, shim, debian, latest, newer))
put("reset-off-absent", seed(ABSENT, RESET, shim, debian, latest, b""))
put("policy-unknown", seed(SB | NVBS, 9, grub, debian, latest, shim16))
put("policy-255", seed(NVBS, 255, grub, shim158, shim16, original))
put("original-stored", seed(SB | NVBS, NONE, lockshim, shim158, shim16, original))
put("stored-malformed", seed(SB | NVBS, NONE, shim, debian, latest, b"garbage"))
put("stored-padded", seed(SB | NVBS, NONE, shim, debian, latest, newer + b"\0" * 16))
put("stored-huge-size", seed(SB | NVBS | HUGE, NONE, shim, debian, latest, newer))
put("stored-nul-junk", seed(SB | NVBS, NONE, shim, debian, latest, newer + b"\0junk"))
put("crlf", seed(SB | NVBS, NONE, grub.replace(b"\n", b"\r\n"), debian.replace(b"\n", b"\r\n"),
                 latest, shim16.replace(b"\n", b"\r\n")))
put("blank-lines", seed(SB | NVBS, NONE, b"\n\n" + grub + b"\r\n\n", b"\n" + debian + b"\n\n",
                        latest, b"\r\n" + shim16))
put("section-padded", seed(SB | ABSENT, NONE, grub + b"\0" * 400, debian, latest, b""))
put("sbat-header-2", seed(SB | ABSENT, NONE, shim, b"sbat,2,2030010100\n", latest, b""))
put("generation-limits", seed(SB | NVBS, NONE,
                              HEADER + b"grub,4294967295,a,b,c,d\nshim,0,a,b,c,d\n",
                              b"sbat,1,0\ngrub,4294967295\nshim,0000000001\n",
                              b"sbat,1,9999999999999999999\n", b"sbat,1,18446744073709551615\n"))
put("same-text-both-kinds", seed(SB | NVBS, NONE, b"sbat,1,2025021800,x,y,z\ngrub,3,a,b,c,d\n",
                                 debian, latest, debian))
put("duplicates", seed(SB | NVBS, NONE, HEADER + b"grub,9,a,b,c,d\ngrub,2,a,b,c,d\n",
                       b"sbat,1,2025030100\ngrub,3\ngrub,6\n", latest, b""))
many = b"sbat,1,2025021800\n" + b"".join(b"c%d,1\n" % i for i in range(1, 512))
put("512-records", seed(SB | NVBS, NONE, HEADER + b"".join(b"c%d,2,a,b,c,d\n" % i for i in range(1, 512)),
                        many, latest, many))

# malformed text, one defect each
bad = {
    "no-header": b"shim,4\ngrub,5\n",
    "header-second": b"shim,4,2025021800\nsbat,1,2025021800\n",
    "header-2-fields": b"sbat,1\n",
    "record-1-field": b"sbat,1,2025021800\nshim\n",
    "section-5-fields": HEADER + b"grub,5,a,b,c\n",
    "empty-name": b"sbat,1,2025021800\n,5\n",
    "generation-x": b"sbat,1,2025021800\ngrub,x\n",
    "generation-negative": b"sbat,1,2025021800\ngrub,-1\n",
    "generation-empty": b"sbat,1,2025021800\ngrub,\n",
    "generation-11-digits": b"sbat,1,2025021800\ngrub,00000000001\n",
    "generation-2pow32": b"sbat,1,2025021800\ngrub,4294967296\n",
    "datestamp-text": b"sbat,1,2025-02-18\n",
    "datestamp-20-digits": b"sbat,1,18446744073709551616\n",
    "nul-then-text": b"sbat,1,2025021800\n\0grub,9\n",
    "lone-cr": b"sbat,1,2025021800\ngrub,5\rshim,4\n",
    "control-byte": b"sbat,1,2025021800\ngr\x01ub,5\n",
    "tab": b"sbat,1,2025021800\ngr\tub,5\n",
    "del": b"sbat,1,2025021800\ngr\x7fub,5\n",
    "utf8": b"sbat,1,2025021800\ngr\xc3\xbcb,5\n",
    "long-field": b"sbat,1,2025021800\n" + b"n" * 257 + b",1\n",
    "long-line": b"sbat,1,2025021800\ngrub,1," + b",".join([b"u" * 200] * 5) + b"\n",
    "empty": b"",
    "only-nuls": b"\0" * 64,
}
for name, text in bad.items():
    put("bad-" + name, seed(SB | NVBS, NONE, text, text, latest, text))
put("bad-513-records", seed(SB | NVBS, NONE, shim, many + b"c512,1\n", latest, many + b"c512,1\n"))

# raw .sbatlevel payloads (flags 0, policy 0 from the format field)
def payload(fmt, automatic, latest_level, a_off=None, l_off=None):
    a = automatic + b"\0"
    l = latest_level + b"\0"
    if a_off is None:
        a_off = 8
    if l_off is None:
        l_off = 8 + len(a)
    return struct.pack("<III", fmt, a_off, l_off) + a + l

put("payload-lockshim", payload(0, debian, latest))
put("payload-shim-16", payload(0, shim16, debian))
put("payload-same-offset", payload(0, debian, latest, l_off=8))
put("payload-format-1", payload(1, debian, latest))
put("payload-offset-huge", payload(0, debian, latest, a_off=0xfffffffc))
put("payload-offset-max", payload(0, debian, latest, l_off=0xffffffff))
put("payload-offset-end", payload(0, debian, latest, l_off=8 + len(debian) + 1 + len(latest) + 1))
put("payload-no-nul", payload(0, debian, latest)[:-1])
put("payload-bad-level", payload(0, b"shim,4\n", latest))
put("payload-short", b"\0" * 11)
PY
find "$out" -type f | wc -l | sed 's/^/make-sbat-corpus: seeds: /'
