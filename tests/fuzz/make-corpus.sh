#!/usr/bin/env bash
# Regenerate the fuzzers' seed corpus and the certificate they trust:
#
#   tests/fuzz/make-corpus.sh
#
# writes tests/fuzz/corpus/{fuzz_pe,fuzz_verify,fuzz_esl}/ (all but the
# regress-* files there, which fuzzing found) and tests/fuzz/fuzz_cert.h,
# then runs tests/fuzz/make-sbat-corpus.sh (corpus/fuzz_sbat/, no keys).
# All are committed test data; run this only to change them. Every key is
# made here, used to sign the seeds and deleted: no private key is ever
# written under tests/. A rerun makes new keys, so
# all signed seeds and fuzz_cert.h change together (they must: fuzz_verify
# trusts the vendor certificate that signed its seeds).
#
# Needs openssl, python3, sbsign/sbattach (sbsigntool), cert-to-efi-sig-list
# and hash-to-efi-sig-list (efitools); osslsigncode, when present, adds
# SHA-384 and SHA-512 signed seeds and ones with nested signatures.
#
# The PKI:   vendor (self-signed CA, trusted by fuzz_verify)
#              +- intermediate (CA) -- leaf      chain.efi (leaf + --addcert intermediate)
#              +- revoked-signer                 revoked-cert.efi (its TBS digest is in dbx)
#            rogue (self-signed, trusted nowhere)
set -euo pipefail

cd "$(dirname "$0")/../.."
out=tests/fuzz
for tool in openssl python3 sbsign sbattach cert-to-efi-sig-list hash-to-efi-sig-list; do
	command -v "$tool" >/dev/null || { echo "make-corpus: $tool not found" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
owner=4c6f636b-5368-696d-4675-7a7a53656564 # any fixed GUID

# ---- keys and certificates ---------------------------------------------------
cd "$work"
ca_ext='basicConstraints=critical,CA:true
keyUsage=critical,keyCertSign,cRLSign,digitalSignature
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid'
leaf_ext='basicConstraints=critical,CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=codeSigning
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid'

selfsigned() { # NAME CN
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=$2/" \
		-keyout "$1.key" -out "$1.crt" 2>/dev/null
}
issued() { # NAME CN ISSUER EXTENSIONS
	openssl req -new -newkey rsa:2048 -nodes -sha256 -subj "/CN=$2/" \
		-keyout "$1.key" -out "$1.csr" 2>/dev/null
	openssl x509 -req -in "$1.csr" -CA "$3.crt" -CAkey "$3.key" -set_serial "0x$(openssl rand -hex 8)" \
		-days 3650 -sha256 -extfile <(printf '%s\n' "$4") -out "$1.crt" 2>/dev/null
}
selfsigned vendor "lockshim fuzz vendor"
selfsigned rogue "lockshim fuzz rogue"
issued intermediate "lockshim fuzz intermediate" vendor "$ca_ext"
issued leaf "lockshim fuzz leaf" intermediate "$leaf_ext"
issued revoked-signer "lockshim fuzz revoked signer" vendor "$leaf_ext"
for c in vendor rogue intermediate leaf revoked-signer; do
	openssl x509 -in "$c.crt" -outform DER -out "$c.der"
done

# ---- PE images and hand-made signature lists (python3) -----------------------
cat > seeds.py <<'PY'
import hashlib, struct, sys, uuid

def put(name, data):
    with open(name, "wb") as f:
        f.write(data)

# ---------- PE32+ x86_64, laid out like tests/unit/test_pe.c's valid_image ----------
def pe(sections, trailing=b"", n_dirs=16, cert=None, entry=0x1000):
    """sections: (name, data, raw) with raw=False for an uninitialised (.bss) section."""
    LFANEW, HEADERS, OPT_SIZE = 0x80, 0x200, 240
    COFF = LFANEW + 4
    OPT = COFF + 20
    SECT = OPT + OPT_SIZE
    img = bytearray(HEADERS)
    struct.pack_into("<H", img, 0, 0x5a4d)
    struct.pack_into("<I", img, 0x3c, LFANEW)
    struct.pack_into("<I", img, LFANEW, 0x4550)
    struct.pack_into("<HHIIIHH", img, COFF, 0x8664, len(sections), 0, 0, 0, OPT_SIZE, 0x2022)
    struct.pack_into("<H", img, OPT, 0x20b)
    struct.pack_into("<I", img, OPT + 16, entry)
    struct.pack_into("<II", img, OPT + 32, 0x1000, 0x200)  # section, file alignment
    struct.pack_into("<H", img, OPT + 68, 10)              # EFI application
    struct.pack_into("<I", img, OPT + 108, n_dirs)
    raw_at, va, body = HEADERS, 0x1000, bytearray()
    for i, (name, data, raw) in enumerate(sections):
        raw_size = (len(data) + 0x1ff) & ~0x1ff if raw else 0
        struct.pack_into("<8sIIII", img, SECT + 40 * i, name, len(data), va, raw_size,
                         raw_at if raw else 0)
        struct.pack_into("<I", img, SECT + 40 * i + 36,
                         0x60000020 if name == b".text" else 0xc0000040)
        if raw:
            body += data + bytes(raw_size - len(data))
            raw_at += raw_size
        va += (len(data) + 0xfff) & ~0xfff
    struct.pack_into("<I", img, OPT + 56, va)              # SizeOfImage
    struct.pack_into("<I", img, OPT + 60, HEADERS)         # SizeOfHeaders
    img += body + trailing
    if cert is not None:
        img += bytes(-len(img) % 8)
        struct.pack_into("<II", img, OPT + 112 + 4 * 8, len(img), len(cert))
        img += cert
    return bytes(img)

text = b"\x48\x31\xc0\xc3" + bytes(range(256)) * 2
data = b"lockshim fuzz seed image\0" * 8
sbat = (b"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
        b"lockshim,1,lockshim,lockshim,1,https://example.invalid/lockshim\n")
sec = [(b".text", text, True), (b".data", data, True), (b".sbat", sbat, True)]

put("unsigned.efi", pe(sec))
put("revoked-image.efi", pe([(b".text", text[::-1], True), (b".data", data, True)]))
put("other.efi", pe([(b".text", b"\xc3" * 32, True)]))
put("trailing.efi", pe(sec, trailing=b"\xcc" * 200))
put("bss.efi", pe([(b".text", text, True), (b".bss", bytes(0x3000), False), (b".data", data, True)]))
put("nosecdir.efi", pe(sec, n_dirs=4))
# a second .sbat after the first, which the fuzz level revokes (lockshim 0): never allowed
sbat_old = sbat.replace(b"lockshim,1,", b"lockshim,0,")
put("two-sbat.efi", pe([(b".text", text, True), (b".sbat", sbat, True), (b".sbat", sbat_old, True)]))
# test_pe.c's valid_image: two zeroed sections and one entry of garbage DER
put("garbage-cert.efi", pe([(b".text", bytes(0x200), True), (b".data", bytes(0x200), True)],
                           cert=struct.pack("<IHH", 0x18, 0x200, 2) + b"\x30" * 16))

# ---------- EFI_SIGNATURE_LIST ----------
G = {k: uuid.UUID(v).bytes_le for k, v in {
    "x509": "a5c059a1-94e4-4aa7-87b5-ab155c2bf072",
    "sha256": "c1c41626-504c-4092-aca9-41f936934328",
    "sha384": "ff3e5307-9fd0-48c9-85f1-8ad56c701e01",
    "sha512": "093e0fae-a6c4-4f50-9f1b-d41e2b89c19a",
    "x509_sha256": "3bd2a492-96c0-4079-b420-fcf98ef103ed",
    "x509_sha384": "7076876e-80c2-4ee6-aad2-28b349a6865b",
    "x509_sha512": "446dbf63-2502-4cda-bcfa-2465d2b0fe9d",
    "rsa2048": "3c5766e8-269c-4e34-aa14-ed776e85b3b6",
    "sha1": "826ca512-cf10-4ac9-b187-be01496631bd",
    "sha224": "0b6e5233-a65c-44c9-9407-d9ab83bfc8bd",
    "rsa2048_sha256": "e2b36190-879b-4a3d-ad8d-f2e7bba32784",
    "rsa2048_sha1": "67f8444f-8743-48f1-a328-1eaab8736080",
    # defined by UEFI, but names no image or signer: lockshim skips it as unknown
    "external": "452e8ced-dfff-4b8c-ae01-5118862e682c",
    "unknown": "4c6f636b-5368-696d-556e-6b6e6f776e21",
}.items()}
OWNER = uuid.UUID(sys.argv[1]).bytes_le

def esl(kind, entries, sig_size=None, list_size=None, header=b""):
    """One list; entries are the SignatureData of each entry (owner added here)."""
    if sig_size is None:
        sig_size = 16 + (len(entries[0]) if entries else 32)
    body = b"".join(OWNER + e for e in entries)
    if list_size is None:
        list_size = 28 + len(header) + len(body)
    return G[kind] + struct.pack("<III", list_size, len(header), sig_size) + header + body

def der_tbs(der):
    """The TBSCertificate (first element of the Certificate SEQUENCE), header included."""
    def element(buf, i):
        n = buf[i + 1]
        if n < 0x80:
            return i + 2 + n, i + 2
        k = n & 0x7f
        length = int.from_bytes(buf[i + 2:i + 2 + k], "big")
        return i + 2 + k + length, i + 2 + k
    _, inner = element(der, 0)
    end, _ = element(der, inner)
    return der[inner:end]

certs = {c: open(c + ".der", "rb").read() for c in
         ("vendor", "rogue", "intermediate", "leaf", "revoked-signer")}
efi_time = struct.pack("<HBBBBBBIhBB", 2024, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0)
tbs = {h: (lambda c, h=h: hashlib.new(h, der_tbs(certs[c])).digest())
       for h in ("sha256", "sha384", "sha512")}
d = lambda h, s: hashlib.new(h, s).digest()

e = "esl/"
put(e + "x509-sha256.esl", esl("x509_sha256", [tbs["sha256"]("rogue") + efi_time,
                                               tbs["sha256"]("intermediate") + efi_time]))
put(e + "x509-sha384.esl", esl("x509_sha384", [tbs["sha384"]("rogue") + efi_time]))
put(e + "x509-sha512.esl", esl("x509_sha512", [tbs["sha512"]("rogue") + efi_time]))
put(e + "sha384.esl", esl("sha384", [d("sha384", b"a"), d("sha384", b"b")]))
put(e + "sha512.esl", esl("sha512", [d("sha512", b"a")]))
put(e + "empty-list.esl", esl("sha256", [], sig_size=48))
put(e + "unknown-then-sha256.esl",
    esl("rsa2048", [bytes(range(256))]) + esl("sha1", [d("sha1", b"x")]) +
    esl("sha256", [d("sha256", b"after unknown")]))
put(e + "x509-two-entries.esl", esl("x509", [certs["vendor"], certs["vendor"]]))
good = esl("sha256", [d("sha256", b"good")])
put(e + "sha224-rsa2048-signatures.esl",
    esl("sha224", [d("sha224", b"x"), d("sha224", b"y")]) +
    esl("rsa2048_sha256", [bytes(range(255, -1, -1))]) + esl("rsa2048_sha1", [bytes(256)]))
put(e + "unknown-types.esl",
    esl("external", [b"\0"]) + esl("unknown", [b"abc", b"def"]) +
    esl("unknown", [], sig_size=20) + good)
# malformed, most followed by a good list (is the walk resynchronised or stopped?)
put(e + "bad-empty.esl", b"")
put(e + "bad-truncated-header.esl", good[:20])
put(e + "bad-truncated-entry.esl", good[:-1])
put(e + "bad-list-size-past-end.esl", esl("sha256", [d("sha256", b"1")], list_size=4096))
put(e + "bad-list-size-huge.esl", esl("sha256", [d("sha256", b"1")], list_size=0xffffffff) + good)
put(e + "bad-list-size-small.esl", esl("sha256", [d("sha256", b"1")], list_size=27) + good)
put(e + "bad-sig-size-zero.esl", esl("sha256", [d("sha256", b"1")], sig_size=0) + good)
put(e + "bad-sig-size-below-owner.esl", esl("sha256", [b""], sig_size=8) + good)
put(e + "bad-sig-size-not-multiple.esl",
    esl("sha256", [d("sha256", b"1"), d("sha256", b"2")], sig_size=40) + good)
put(e + "bad-sha256-wrong-size.esl", esl("sha256", [d("sha1", b"1")]) + good)
put(e + "bad-sha1-wrong-size.esl", esl("sha1", [d("sha224", b"1")]) + good)
put(e + "bad-rsa2048-wrong-size.esl", esl("rsa2048", [bytes(255)]) + good)
put(e + "bad-x509-sha256-no-time.esl", esl("x509_sha256", [tbs["sha256"]("rogue")]) + good)
put(e + "bad-header-size.esl", esl("sha256", [d("sha256", b"1")], header=bytes(8)) + good)
put(e + "bad-header-size-huge.esl",
    G["sha256"] + struct.pack("<III", 28 + 48, 0xfffffff0, 48) + OWNER + d("sha256", b"1") + good)
put(e + "bad-x509-trailing-byte.esl", esl("x509", [certs["rogue"] + b"\0"]) + good)
put(e + "bad-x509-truncated.esl", esl("x509", [certs["rogue"][:-1]]) + good)
put(e + "bad-x509-two-certs.esl", esl("x509", [certs["rogue"] + certs["vendor"]]) + good)
put(e + "bad-x509-not-der.esl", esl("x509", [b"\x30\x82\x01\x00" + bytes(12)]) + good)

# fuzz_verify's deny list: image digests and one certificate
put("dbx-x509.esl", esl("x509_sha256", [tbs["sha256"]("revoked-signer") + efi_time]))
put("dbx-extra.esl", esl("sha256", [d("sha256", b"lockshim fuzz: not any image")]))
PY
mkdir -p esl
python3 seeds.py "$owner"

# ---- signed images -----------------------------------------------------------
sign() { # KEY-NAME IN OUT [sbsign options]
	local key=$1 in=$2 o=$3; shift 3
	sbsign --key "$key.key" --cert "$key.crt" "$@" --output "$o" "$in" >/dev/null 2>&1
}
sign vendor unsigned.efi vendor.efi
sign rogue unsigned.efi rogue.efi
sign vendor unsigned.efi vendor.p7 --detached
cp rogue.efi rogue-then-vendor.efi
sbattach --attach vendor.p7 rogue-then-vendor.efi >/dev/null 2>&1
sign leaf unsigned.efi chain.efi --addcert intermediate.crt
sign revoked-signer unsigned.efi revoked-cert.efi
sign vendor revoked-image.efi revoked.efi
sign vendor trailing.efi trailing-signed.efi
sign vendor bss.efi bss-signed.efi
sign vendor two-sbat.efi two-sbat-signed.efi
cp vendor.efi tampered.efi
printf '\x90' | dd of=tampered.efi bs=1 seek=$((0x200 + 2)) conv=notrunc status=none
if command -v osslsigncode >/dev/null; then
	for h in sha384 sha512; do
		osslsigncode sign -h "$h" -certs vendor.crt -key vendor.key \
			-in unsigned.efi -out "vendor-$h.efi" >/dev/null
	done
	# nested signatures (an unauthenticated attribute of the first signer)
	osslsigncode sign -nest -h sha384 -certs vendor.crt -key vendor.key \
		-in rogue.efi -out nested-vendor-in-rogue.efi >/dev/null
	osslsigncode sign -nest -certs revoked-signer.crt -key revoked-signer.key \
		-in vendor.efi -out nested-revoked-in-vendor.efi >/dev/null
else
	echo "make-corpus: osslsigncode not found: no SHA-384/512 or nested signed seeds" >&2
fi

# ---- signature lists from efitools -------------------------------------------
cert-to-efi-sig-list -g "$owner" vendor.crt esl/vendor-x509.esl >/dev/null
cert-to-efi-sig-list -g "$owner" rogue.crt rogue-x509.esl >/dev/null
hash-to-efi-sig-list unsigned.efi other.efi esl/sha256.esl >/dev/null
cat esl/vendor-x509.esl rogue-x509.esl esl/sha256.esl esl/x509-sha256.esl > esl/db-mixed.esl
# dbx for fuzz_verify: revoked.efi's digest and other.efi's, a made-up one, revoked-signer
hash-to-efi-sig-list revoked-image.efi other.efi dbx-images.esl >/dev/null
cat dbx-images.esl dbx-extra.esl dbx-x509.esl > dbx.esl
cp dbx.esl esl/dbx.esl

# ---- write the corpus and the header -----------------------------------------
cd - >/dev/null
# regress-* files are kept: inputs fuzzing found that once crashed or leaked
mkdir -p "$out/corpus/fuzz_pe" "$out/corpus/fuzz_verify" "$out/corpus/fuzz_esl"
find "$out/corpus/fuzz_pe" "$out/corpus/fuzz_verify" "$out/corpus/fuzz_esl" -type f ! -name 'regress-*' -delete
for f in unsigned vendor rogue rogue-then-vendor chain revoked revoked-cert tampered \
	 trailing-signed bss-signed two-sbat-signed nosecdir garbage-cert vendor-sha384 vendor-sha512 \
	 nested-vendor-in-rogue nested-revoked-in-vendor; do
	[[ -f $work/$f.efi ]] || continue
	install -m 644 "$work/$f.efi" "$out/corpus/fuzz_pe/$f.efi"
	install -m 644 "$work/$f.efi" "$out/corpus/fuzz_verify/$f.efi"
done
head -c 1000 "$work/vendor.efi" > "$out/corpus/fuzz_pe/truncated.efi"
cp "$out/corpus/fuzz_pe/truncated.efi" "$out/corpus/fuzz_verify/"
install -m 644 "$work"/esl/*.esl "$out/corpus/fuzz_esl/"

python3 - "$work/vendor.der" "$work/dbx.esl" > "$out/fuzz_cert.h" <<'PY'
import sys
def array(name, path):
    b = open(path, "rb").read()
    rows = ["\t" + " ".join("0x%02x," % x for x in b[i:i + 12]) for i in range(0, len(b), 12)]
    return "static const uint8_t %s[%d] = {\n%s\n};\n" % (name, len(b), "\n".join(rows))
print("""/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Generated by tests/fuzz/make-corpus.sh: do not edit. The trust lists of
 * fuzz_verify's policy. The private key of the vendor certificate was
 * deleted after signing the seeds in tests/fuzz/corpus/.
 */
#ifndef LOCKSHIM_FUZZ_CERT_H
#define LOCKSHIM_FUZZ_CERT_H

#include <stdint.h>

/* vendor: a self-signed RSA-2048 certificate, "CN=lockshim fuzz vendor" (DER) */
%s
/*
 * dbx: EFI_SIGNATURE_LISTs: SHA-256 of revoked.efi's and another image,
 * one unrelated SHA-256, and the X509_SHA256 of "lockshim fuzz revoked signer"
 */
%s
#endif""" % (array("fuzz_vendor_cert", sys.argv[1]), array("fuzz_dbx_esl", sys.argv[2])))
PY

tests/fuzz/make-sbat-corpus.sh
du -b "$out/corpus"/* | sed 's/^/make-corpus: /'
