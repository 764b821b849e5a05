#!/usr/bin/env python3
"""Check the mokutil vectors in this directory against the layouts that
lockshim's MOK request parser implements, and (re)write README.md.

    verify.py [DIR]                  check every case (DIR: this directory)
    verify.py --write-readme [DIR]   check, then write DIR/README.md

Each case directory holds what tests/qemu/mokutil_vectors.sh stored: the
variables (<Name>.bin, data as the firmware keeps it), `attributes`
(`<Name> <attributes> <size>` a line), case.json (variant, password, hash
file) and steps.sh / mokutil.txt (what ran and what mokutil printed).

Password hashes are checked with an SHA-512-crypt written out below from
Drepper's specification (the raw 64-byte digest, no base64 involved), and
against the crypt string of the hash file where the case used one, decoded
with crypt's own base64 permutation; glibc's crypt(3), where Python still has
the module, is a third opinion. Exit status 1 if anything does not match.
"""
import hashlib
import json
import os
import struct
import sys
import uuid
import warnings

SHIM = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23")
CERT_X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
CERT_SHA256 = uuid.UUID("c1c41626-504c-4092-aca9-41f936934328")
ATTRS = 0x7  # NV | BS | RT: every request mokutil writes

B64 = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
# SHA-512-crypt's base64: 21 groups of three digest bytes, each group written
# as 4 characters (least significant 6 bits first) of
# (byte[a] << 16) | (byte[b] << 8) | byte[c]; then byte 63 alone in 2.
PERM512 = [(0, 21, 42), (22, 43, 1), (44, 2, 23), (3, 24, 45), (25, 46, 4),
           (47, 5, 26), (6, 27, 48), (28, 49, 7), (50, 8, 29), (9, 30, 51),
           (31, 52, 10), (53, 11, 32), (12, 33, 54), (34, 55, 13),
           (56, 14, 35), (15, 36, 57), (37, 58, 16), (59, 17, 38),
           (18, 39, 60), (40, 61, 19), (62, 20, 41)]

AUTH_SIZE = 172   # {u16 method, u64 iterations, u16 salt size, salt[32], hash[128]}
TOGGLE_SIZE = 40  # {u32 state, u32 password length, u16 password[16]}


def sha512_crypt_raw(password: bytes, salt: bytes, rounds: int) -> bytes:
    """SHA-512-crypt (Drepper, "Unix crypt using SHA-256 and SHA-512"):
    the final 64-byte digest C, before the base64 step."""
    salt = salt[:16]
    rounds = min(max(rounds, 1000), 999999999)
    h = hashlib.sha512
    b = h(password + salt + password).digest()
    a = h(password + salt)
    n = len(password)
    while n > 64:
        a.update(b)
        n -= 64
    a.update(b[:n])
    n = len(password)
    while n:
        a.update(b if n & 1 else password)
        n >>= 1
    a = a.digest()
    dp = h(password * len(password)).digest()
    p = (dp * (len(password) // 64 + 1))[:len(password)]
    ds = h(salt * (16 + a[0])).digest()
    s = (ds * (len(salt) // 64 + 1))[:len(salt)]
    c = a
    for i in range(rounds):
        d = h()
        d.update(p if i & 1 else c)
        if i % 3:
            d.update(s)
        if i % 7:
            d.update(p)
        d.update(c if i & 1 else p)
        c = d.digest()
    return c


def crypt_b64_encode(raw: bytes) -> str:
    out = []
    for i, j, k in PERM512:
        w = (raw[i] << 16) | (raw[j] << 8) | raw[k]
        out += [B64[(w >> (6 * n)) & 63] for n in range(4)]
    out += [B64[(raw[63] >> (6 * n)) & 63] for n in range(2)]
    return "".join(out)


def crypt_b64_decode(text: str) -> bytes:
    if len(text) != 86 or any(ch not in B64 for ch in text):
        raise ValueError(f"not an SHA-512-crypt hash: {text!r}")
    raw = bytearray(64)
    for g, (i, j, k) in enumerate(PERM512):
        w = sum(B64.index(text[4 * g + n]) << (6 * n) for n in range(4))
        raw[i], raw[j], raw[k] = (w >> 16) & 255, (w >> 8) & 255, w & 255
    raw[63] = B64.index(text[84]) | (B64.index(text[85]) << 6)
    return bytes(raw)


def parse_crypt(s: str):
    """'$6$[rounds=N$]salt$hash' -> (rounds or None, salt, hash text)."""
    if not s.startswith("$6$"):
        raise ValueError(f"not $6$: {s!r}")
    parts = s[3:].split("$")
    rounds = None
    if parts[0].startswith("rounds="):
        rounds = int(parts[0][7:])
        parts = parts[1:]
    salt, text = parts
    return rounds, salt, text


def glibc_crypt(password: str, setting: str):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import crypt  # removed in Python 3.13
    except ImportError:
        return None
    return crypt.crypt(password, setting)


# ---- the cases: which variables each must hold, and what they mean ----------

X509 = ("siglist", CERT_X509)
SHA256 = ("siglist", CERT_SHA256)
AUTH = ("auth",)
EXPECT = {
    "import_hashfile": {"MokNew": X509, "MokAuth": AUTH},
    "import_hashfile_rounds": {"MokNew": X509, "MokAuth": AUTH},
    "import_stdin": {"MokNew": X509, "MokAuth": AUTH},
    "import_hash": {"MokNew": SHA256, "MokAuth": AUTH},
    "mokx_import": {"MokXNew": X509, "MokXAuth": AUTH},
    "reset": {"MokAuth": AUTH},
    "password_stdin": {"MokPW": AUTH},
    "password_hashfile": {"MokPW": AUTH},
    "clear_password": {"MokPW": ("zero-auth",)},
    "disable_validation": {"MokSB": ("toggle", 0)},
    "enable_validation": {"MokSB": ("toggle", 1)},
    "ignore_db": {"MokDB": ("toggle", 0)},
    "misc": {"MokTimeout": ("bytes", struct.pack("<i", 5)),
             "SHIM_VERBOSE": ("bytes", b"\x01"),
             "SbatPolicy": ("bytes", b"\x01"),
             "MokListTrustedNew": ("toggle", 0),
             "MokDB": ("toggle", 1)},
    "delete_hashfile": {"MokDel": X509, "MokDelAuth": AUTH},
}
COMMANDS = {
    "import_hashfile": "mokutil --import mok.der --hash-file H",
    "import_hashfile_rounds": "mokutil --import mok.der --hash-file H (rounds=10000)",
    "import_stdin": "mokutil --import mok.der (password twice on stdin)",
    "import_hash": "mokutil --import-hash SHA256 --hash-file H",
    "mokx_import": "mokutil --mokx --import mok.der --hash-file H",
    "reset": "mokutil --reset --hash-file H",
    "password_stdin": "mokutil --password (password twice on stdin)",
    "password_hashfile": "mokutil --password --hash-file H",
    "clear_password": "mokutil --clear-password",
    "disable_validation": "mokutil --disable-validation (stdin)",
    "enable_validation": "mokutil --enable-validation (stdin)",
    "ignore_db": "mokutil --ignore-db (stdin)",
    "delete_hashfile": "mokutil --delete mok.der --hash-file H (MokList holds mok.der)",
}
MISC_COMMANDS = {
    "MokTimeout": "mokutil --timeout 5",
    "SHIM_VERBOSE": "mokutil --set-verbosity true",
    "SbatPolicy": "mokutil --set-sbat-policy latest",
    "MokListTrustedNew": "mokutil --trust-mok (stdin)",
    "MokDB": "mokutil --use-db (stdin)",
}


class Checker:
    def __init__(self, top):
        self.top = top
        self.bad = 0
        self.lines = []
        self.rows = []
        self.mok = open(os.path.join(top, "mok.der"), "rb").read()

    def fail(self, msg):
        self.bad += 1
        print(f"FAIL {msg}")

    def note(self, msg):
        self.lines.append(msg)
        print(f"  {msg}")

    def check_siglist(self, where, data, sigtype, info):
        off, n = 0, 0
        want = self.mok if sigtype == CERT_X509 else bytes.fromhex(info["sha256"])
        while off < len(data):
            if len(data) - off < 28:
                return self.fail(f"{where}: {len(data) - off} stray bytes at {off}")
            t = uuid.UUID(bytes_le=data[off:off + 16])
            lsize, hsize, ssize = struct.unpack_from("<III", data, off + 16)
            if t != sigtype:
                return self.fail(f"{where}: list {n} type {t}, want {sigtype}")
            if hsize != 0 or lsize != 28 + ssize or ssize != 16 + len(want):
                return self.fail(f"{where}: list {n} sizes list={lsize} header={hsize} sig={ssize}")
            owner = uuid.UUID(bytes_le=data[off + 28:off + 44])
            if owner != SHIM:
                return self.fail(f"{where}: owner {owner}, want the shim GUID")
            if data[off + 44:off + lsize] != want:
                return self.fail(f"{where}: signature data is not the expected "
                                 f"{'certificate' if sigtype == CERT_X509 else 'hash'}")
            off += lsize
            n += 1
        if n != 1:
            return self.fail(f"{where}: {n} signature lists, want 1")
        self.note(f"{where}: one EFI_SIGNATURE_LIST, {'X509' if sigtype == CERT_X509 else 'SHA256'}, "
                  f"ListSize {len(data)}, HeaderSize 0, SignatureSize {len(data) - 28}, owner shim GUID")

    def check_auth(self, where, data, info):
        if len(data) != AUTH_SIZE:
            return self.fail(f"{where}: {len(data)} bytes, want {AUTH_SIZE}")
        method, iters, ssize = struct.unpack_from("<HQH", data, 0)
        salt, hsh = data[12:44], data[44:172]
        pw = info["password"].encode()
        if method != 4:
            return self.fail(f"{where}: method {method}, want 4 (SHA-512)")
        if not 1 <= ssize <= 16:
            return self.fail(f"{where}: salt size {ssize}")
        salt_text = salt[:ssize]
        if any(chr(ch) not in B64 for ch in salt_text) or any(salt[ssize:]):
            return self.fail(f"{where}: salt {salt!r} not crypt characters then zeros")
        if any(hsh[64:]):
            return self.fail(f"{where}: hash[64..127] not zero")
        digest = hsh[:64]
        mine = sha512_crypt_raw(pw, salt_text, iters)
        if mine != digest:
            return self.fail(f"{where}: SHA-512-crypt(password, salt, {iters}) != hash[0..63]")
        rounds_part = "" if iters == 5000 else f"rounds={iters}$"
        setting = f"$6${rounds_part}{salt_text.decode()}$"
        string = setting + crypt_b64_encode(digest)
        if info.get("hash_file"):
            r, s, text = parse_crypt(info["hash_file"])
            if (r or 5000) != iters or s[:16] != salt_text.decode():
                return self.fail(f"{where}: salt/rounds differ from the hash file {info['hash_file']}")
            if crypt_b64_decode(text) != digest:
                return self.fail(f"{where}: the hash file's base64, decoded, != hash[0..63]")
            if info["hash_file"] != string:
                return self.fail(f"{where}: re-encoded {string} != hash file {info['hash_file']}")
        g = glibc_crypt(info["password"], setting)
        if g is not None and g != string:
            return self.fail(f"{where}: glibc crypt gives {g}, stored bytes encode to {string}")
        self.note(f"{where}: method 4, iterations {iters}, salt {ssize} chars "
                  f"{salt_text.decode()!r}, hash[0..63] = raw SHA-512-crypt digest of "
                  f"{info['password']!r} (= {string[:24]}...), hash[64..127] zero")

    def check_toggle(self, where, data, info, state):
        if len(data) != TOGGLE_SIZE:
            return self.fail(f"{where}: {len(data)} bytes, want {TOGGLE_SIZE}")
        st, plen = struct.unpack_from("<II", data, 0)
        pw = info["password"]
        if st != state:
            return self.fail(f"{where}: state {st}, want {state}")
        if plen != len(pw) or not 8 <= plen <= 16:
            return self.fail(f"{where}: password length {plen}, want {len(pw)}")
        # mokutil converts the password with room for a NUL in the 16-character
        # array: a 16-character password keeps only its first 15 characters,
        # the 16th becomes NUL, while the length field still says 16.
        kept = min(plen, 15)
        got = data[8:8 + 2 * kept].decode("utf-16-le")
        if got != pw[:kept]:
            return self.fail(f"{where}: password {got!r}, want {pw[:kept]!r}")
        if data[8 + 2 * kept:10 + 2 * kept] != b"\0\0":
            return self.fail(f"{where}: no NUL after character {kept}")
        tail = data[10 + 2 * kept:]
        if plen < 16:
            self.note(f"{where}: state {st}, length {plen}, password UCS-2 {pw!r} in clear, "
                      f"then NUL, then {len(tail)} unspecified bytes ({tail.hex()})")
        else:
            self.note(f"{where}: state {st}, length 16, but only the first 15 characters "
                      f"{pw[:15]!r} are stored: character 16 ({pw[15]!r}) is replaced by NUL")

    def check_case(self, case):
        d = os.path.join(self.top, case)
        info = json.load(open(os.path.join(d, "case.json")))
        rows = {}
        for line in open(os.path.join(d, "attributes")):
            name, attrs, size = line.split()
            rows[name] = (attrs, size)
        want = EXPECT[case]
        if set(rows) != set(want):
            return self.fail(f"{case}: variables {sorted(rows)}, want {sorted(want)}")
        print(f"{case}:")
        for name, spec in want.items():
            attrs, size = rows[name]
            data = open(os.path.join(d, name + ".bin"), "rb").read()
            where = f"{case}/{name}"
            if int(attrs, 0) != ATTRS:
                self.fail(f"{where}: attributes {attrs}, want {ATTRS:#x}")
            if int(size) != len(data):
                self.fail(f"{where}: attributes file says {size} bytes, file has {len(data)}")
            kind = spec[0]
            if kind == "siglist":
                self.check_siglist(where, data, spec[1], info)
            elif kind == "auth":
                self.check_auth(where, data, info)
            elif kind == "zero-auth":
                if data != bytes(AUTH_SIZE):
                    self.fail(f"{where}: not {AUTH_SIZE} zero bytes")
                else:
                    self.note(f"{where}: {AUTH_SIZE} zero bytes (clear the MOK password)")
            elif kind == "toggle":
                self.check_toggle(where, data, info, spec[1])
            elif kind == "bytes":
                if data != spec[1]:
                    self.fail(f"{where}: {data.hex()}, want {spec[1].hex()}")
                else:
                    self.note(f"{where}: {data.hex()}")
            cmd = MISC_COMMANDS[name] if case == "misc" else COMMANDS[case]
            self.rows.append((case, cmd, info, name, len(data), attrs, kind))


def reproducible(case, kind, info):
    if kind == "toggle" and len(info["password"]) < 16:
        return "no: bytes after the password's NUL unspecified"
    if kind == "auth" and not info.get("hash_file"):
        return "no: salt drawn by mokutil"
    return "yes"


def write_readme(top, ck):
    cases = sorted({r[0] for r in ck.rows}, key=list(EXPECT).index)
    table = ["| case | command | password | variable | size | attributes | byte-identical on a re-run |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for case, cmd, info, name, size, attrs, kind in ck.rows:
        pw = info["password"] if kind != "bytes" else None
        table.append(f"| {case} | `{cmd}` | {'`' + pw + '`' if pw else '-'} | {name} | {size} "
                     f"| {attrs} | {reproducible(case, kind, info)} |")
    hashes = []
    for case in cases:
        info = json.load(open(os.path.join(top, case, "case.json")))
        if info.get("hash_file"):
            hashes.append(f"| {case} | `{info['password']}` | `{info['hash_file']}` |")
    text = README.format(table="\n".join(table), hashes="\n".join(hashes),
                         checks="\n".join("- " + l for l in ck.lines))
    open(os.path.join(top, "README.md"), "w").write(text)


README = """\
# MOK request vectors from the real mokutil

Produced by `tests/qemu/mokutil_vectors.sh` (see its header): Debian's
mokutil 0.6.0 runs in a QEMU guest (Debian's 6.1 kernel, efivarfs, the
initramfs of `tests/initramfs/mokutil-guest.sh`) booted through lockshim
under Secure Boot; each case is one boot on a fresh copy of an OVMF VARS
store, read back offline afterwards. Every file `<case>/<Name>.bin` is the
data of the variable `<Name>` (vendor GUID 605dab50-e046-4300-abb6-3dd810dd8b23,
the shim GUID) exactly as the firmware stored it; `<case>/attributes` lists
`<Name> <attributes> <size>`; `<case>/steps.sh` is what the guest ran (the
`step` helper prints and runs a command), `<case>/mokutil.txt` what mokutil
printed, `<case>/case.json` the password and hash file. `mok.der` is the
certificate every request names (a test certificate; no private key here).
`verify.py` checks all of it (`python3 tests/vectors/mokutil/verify.py`) and
writes this file (`--write-readme`).

Re-run: `tests/qemu/mokutil_vectors.sh` (all cases: about 15-25 s a case
under TCG, 4.5 minutes in all; QEMU runs take lib.sh's lock) or `tests/qemu/mokutil_vectors.sh CASE...`.
Variants: `base` (PK/KEK/db/dbx of the test PKI, Boot0000 -> lockshim, no
MokList) for every case but `delete_hashfile`, which runs on `enrolled`
(MokList, NV|BS, holding `mok.der`: mokutil only asks to delete a key that
lockshim's MokListRT shows).

## Vectors

{table}

Hash files (`--hash-file`, one line, made on the host with
`openssl passwd -6 -salt SALT PASSWORD`, the rounds case with python3's
`crypt.crypt(PW, "$6$rounds=10000$short8ch$")`):

| case | password | hash file |
| --- | --- | --- |
{hashes}

Passwords typed on standard input: `typed-in-pw-3` (import_stdin),
`firmware-pw-4` (password_stdin), `Sb8to16chars` (disable_validation,
ignore_db, misc: --trust-mok and --use-db), `sixteen-chars-16`
(enable_validation). The guest pipes them as `printf '%s\\n%s\\n' PW PW |
mokutil ...` (see steps.sh).

## Layouts (what the parser implements)

All integers little-endian, structures packed.

**Key lists** (MokNew, MokDel, MokXNew): a sequence of
EFI_SIGNATURE_LIST, one per key or hash: `{{GUID SignatureType, u32
SignatureListSize, u32 SignatureHeaderSize = 0, u32 SignatureSize}}` then one
EFI_SIGNATURE_DATA `{{GUID SignatureOwner = shim GUID, data}}`. A certificate:
type EFI_CERT_X509_GUID (a5c059a1-94e4-4aa7-87b5-ab155c2bf072), data the DER,
SignatureSize = 16 + DER length, ListSize = 28 + SignatureSize. A hash
(`--import-hash`): type EFI_CERT_SHA256_GUID
(c1c41626-504c-4092-aca9-41f936934328), SignatureSize 48, ListSize 76.
(Per mokutil's source, not exercised here: several keys give several lists,
and keys added to a pending request go before the old ones.)

**Password hash** (MokAuth, MokDelAuth, MokXAuth, MokPW), 172 bytes:

| offset | size | field | seen |
| --- | --- | --- | --- |
| 0 | 2 | method | 4 = SHA-512-crypt (mokutil's enum: 0 DES, 1 BSDI DES, 2 MD5, 3 SHA-256, 4 SHA-512, 5 Blowfish) |
| 2 | 8 | iteration count | 5000 (crypt's default), or N from `rounds=N$` in a hash file |
| 10 | 2 | salt size | number of salt characters, at most 16 (mokutil's own salts vary in length from run to run: 8 to 16 characters seen; the hash files here: 8, 9, 10, 11, 16) |
| 12 | 32 | salt | the salt as its crypt TEXT (characters `./0-9A-Za-z`, not decoded), zero-padded |
| 44 | 128 | hash | bytes 0..63: the raw 64-byte SHA-512-crypt digest; 64..127 zero |

The hash is **the raw digest, not base64**: it is the final 64-byte
SHA-512 value C of the SHA-512-crypt algorithm (Drepper's "Unix crypt using
SHA-256 and SHA-512": A, B, DP/P, DS/S, then `iterations` rounds producing
C) computed over the password bytes, the salt text (`salt[0..salt_size-1]`,
the ASCII characters as they appear in `$6$salt$`) and the iteration count.
The 86 characters after the last `$` of the crypt string are C written in
crypt's own base64 (alphabet `./0-9A-Za-z`, 21 groups of 3 bytes in the
permuted order (0,21,42), (22,43,1), (44,2,23), ... (62,20,41), each
24-bit group emitted least significant 6 bits first, then byte 63 alone in
two characters); mokutil decodes that text back into C when it reads a hash
file, and when it makes the hash itself (password on stdin) it runs crypt(3)
with a salt of its own and decodes the result the same way. So to check a
password, compute SHA-512-crypt(password, salt text, iterations) and compare
the 64 bytes with hash[0..63]; no base64 is needed at all. The password bytes
are what was typed (ASCII in every vector; MokManager, reading UCS-2 from the
console, has to narrow each character to one byte). A `rounds=` value
changes only the iteration count field; the crypt string's text is not kept.
`--clear-password` writes MokPW as 172 zero bytes (method 0, no salt, no
hash): "remove the password". Method 0 is also mokutil's number for DES
crypt, so recognise the all-zero form before looking at the method.

**Toggle with a clear-text password** (MokSB, MokDB, MokListTrustedNew), 40 bytes:

| offset | size | field |
| --- | --- | --- |
| 0 | 4 | state: MokSB 0 = `--disable-validation`, 1 = `--enable-validation`; MokDB 0 = `--ignore-db`, 1 = `--use-db`; MokListTrustedNew 0 = `--trust-mok` |
| 4 | 4 | password length in characters, 8..16 |
| 8 | 32 | the password in UCS-2, NOT hashed; if shorter than 16 characters a NUL character follows it, and the bytes after that NUL are whatever was in mokutil's buffer (0xff in these runs): never compare them |

A 16-character password (accepted by mokutil) is stored TRUNCATED: the
length field says 16 but the array holds the first 15 characters and a NUL
(`enable_validation`: `sixteen-chars-16` is stored as `sixteen-chars-1`
+ U+0000). mokutil converts with room for a terminator in the 16-character
array. A checker that compares character N of what the user types with
password[N-1] for N up to the length field can therefore never accept
character 16 of such a request (one that asks for random positions, as
MokManager does, fails whenever position 16 comes up); the parser must
decide what to do with it (treat position 16 as unknown, or refuse such a
request).

**Small settings** (`misc`): MokTimeout 4 bytes (int32, `--timeout 5` ->
`05 00 00 00`), SHIM_VERBOSE 1 byte (`--set-verbosity true` -> 01),
SbatPolicy 1 byte (`--set-sbat-policy latest` -> 01).

Attributes: every variable mokutil writes carries 0x7 (NV|BS|RT). (The
MokList that MokManager itself writes carries 0x3; per the lab notes shim
refuses a MokList with RT.)

## What mokutil needs and does (seen in these boots)

- It reads the current state through efivarfs before writing: `--import`
  of a key that lockshim's MokListRT already shows prints `SKIP: ... is
  already enrolled` and writes nothing (exit 0; `delete_hashfile/mokutil.txt`);
  a key already in MokNew gives `SKIP: ... is already in the enrollment
  request`. `--delete` of a key that MokListRT does not show prints
  `SKIP: ... is not in MokList` and writes nothing (exit 0): a delete vector
  needs the key enrolled, hence the `enrolled` variant (MokList 0x3 seeded
  offline; lockshim mirrors it into the volatile MokListRT, attributes 0x6
  BS|RT: 1688 bytes = the vendor certificate's list (847 bytes, all that
  MokListRT holds on the `base` variant) followed by MokList's 841). Per
  mokutil's source, `--import` also skips keys found in PK, KEK or db.
- `--test-key` exits 1 when the key is enrolled or pending, 0 with `is not
  enrolled`. `--version` prints `0.6.0` and exits 255.
- `--reset` writes MokAuth alone (and deletes any MokNew): a MokAuth without
  MokNew is a request to reset the MOK list.
- `--clear-password` writes MokPW as 172 zero bytes; `--password` writes a
  normal 172-byte hash. Both `--password` forms work non-interactively.
- `--trust-mok` writes MokListTrustedNew with state 0 (the same 40-byte
  toggle layout and clear-text password as MokSB).
- Nothing mokutil writes is volatile; lockshim's own mirror (MokListRT)
  is the only shim-GUID variable efivarfs shows that the flash does not keep.
- Each boot also changes OVMF's own variables (Boot0001-0003, BootOrder,
  Key0000/0001, MTC): the firmware's boot manager, not mokutil or lockshim.

`provenance.txt` records the mokutil, busybox, OVMF and QEMU package
versions, the kernel, the lockshim commit and the key's SHA-256 of the run
that produced these files.

## What verify.py found

{checks}
"""


def main(argv):
    args = argv[1:]
    write = False
    if args and args[0] == "--write-readme":
        write = True
        args = args[1:]
    top = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    ck = Checker(top)
    # Self-test of the SHA-512-crypt above against glibc, where available.
    g = glibc_crypt("pw", "$6$rounds=1234$abc$")
    if g is not None:
        r, s, text = parse_crypt(g)
        if crypt_b64_decode(text) != sha512_crypt_raw(b"pw", b"abc", 1234):
            ck.fail("self-test: SHA-512-crypt implementation disagrees with glibc")
    present = [c for c in EXPECT if os.path.isdir(os.path.join(top, c))]
    for c in EXPECT:
        if c not in present:
            ck.fail(f"{c}: case directory missing")
    for c in present:
        ck.check_case(c)
    if write:
        write_readme(top, ck)
    print(f"{len(present)} cases, {len(ck.rows)} variables, {ck.bad} failures")
    return 1 if ck.bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
