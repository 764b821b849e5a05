#!/usr/bin/env python3
"""Generate the differential kexec corpus (tests/qemu/kexec_corpus.sh):
images that differ only in their signatures and sections, and the deny
lists and SbatLevel that judge them.

    mkkexeccorpus.py OUT --raw BZIMAGE.RAW --sbat CSV --pki DIR --lockshim CLI [--keys DIR]

OUT/images/NAME.efi  one image per case (CASES below): BZIMAGE.RAW with a
                     .sbat (lockshim add-sbat; a version string of its own,
                     so every image has its own digest, unless it has none),
                     signed as the case says (osslsigncode -h ALG, or sbsign)
OUT/cases            NAME, whether it is in the sample (1/0), what it is
OUT/dbx.esl          the firmware dbx entries (vars.sh --dbx-esl puts them
                     first, before build/pki/revoked.esl)
OUT/mokx.esl         MokListX: lockshim exports it as the table's denials
OUT/level.csv        SbatLevel (NV|BS, dated after lockshim's automatic
                     level, so lockshim keeps it): linux.lockshim,5
OUT/keys/ (--keys)   the signers made here (once: kept, so that the lists, and
                     the VARS holding them, are the same every run; images
                     signed with osslsigncode -time are too): an intermediate CA under the
                     test vendor CA (build/pki/vendor, a CA), leaves under it,
                     one leaf for each certificate denial (a denial of a
                     signer's certificate refuses all it signs), an
                     intermediate per list to deny, a CA not under vendor

Every deny-entry type lockshim applies is in both lists, each naming its
own image or signer: image digests (SHA-1/224/256/384/512), the signer's
certificate (X509), its TBSCertificate digest (X509_SHA256/384/512), its
RSA-2048 modulus (RSA2048), the signature value (RSA2048_SHA256/SHA1).
"""
import argparse
import calendar
import os
import time
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MKESL = os.path.join(HERE, "..", "cli", "mkesl.py")
OWNER = "4c6f636b-5368-696d-5465-737450726f6f"
# osslsigncode -time (the signed signingTime attribute): an hour after the
# newest signer's notBefore (sign_time()), the same every run with the same
# keys. The kernel refuses a signature made outside its signer's validity
# (pkcs7_verify_sig_chain), lockshim ignores time: the case time_before_validity.
BEFORE_VALIDITY = "1500000000"  # 2017-07-14
LEVEL = "sbat,1,2099010100\nshim,4\ngrub,5\nlinux.lockshim,5\n"
LISTS = ("dbx", "mokx")
DIGESTS = ("sha1", "sha224", "sha256", "sha384", "sha512")
CERT_DENIALS = ("x509", "x509_sha256", "x509_sha384", "x509_sha512", "rsa2048")

# ---- the cases ---------------------------------------------------------------
#
# A case: name -> dict(sign=[steps], sbat=SBAT, deny=[(list, kind)], sample=bool)
#   steps, in order, each adding a signature to the image so far:
#     ("ossl", SIGNER, ALG)         osslsigncode sign -h ALG (a new image signature)
#     ("nest", SIGNER, ALG)         osslsigncode sign -nest (a signature nested in the first)
#     ("sbsign", SIGNER)            sbsign (SHA-256; appends a WIN_CERTIFICATE when signed)
#   SIGNER: vendor, mok, rogue (build/pki), or a key made here (KEYS below)
#   SBAT: "gen:N" (linux.lockshim generation N), "none" (no .sbat),
#         "csv:TEXT" (this .sbat text), "malformed" (generation "x", which
#         add-sbat would refuse: written over a 9 after it), default gen:5
#   deny: (LIST, KIND[, SIGNER]): an entry in dbx or MokListX naming this
#         image (digests, signature values: its first signature's) or a
#         certificate (X509*, RSA2048): SIGNER's, or the first signer's
#   extra: "trail8" (8 zero bytes after the certificate table),
#          "trailjunk" (13 bytes of junk after it), "before" (osslsigncode
#          -time BEFORE_VALIDITY)
CASES = {}


def case(name, sign, sbat="gen:5", deny=(), sample=False, extra=None):
    assert name not in CASES and len(name) <= 40
    CASES[name] = dict(sign=sign, sbat=sbat, deny=list(deny), sample=sample, extra=extra)


# Keys made here: name -> (issuer, extensions section)
KEYS = {"inter": ("vendor", "inter"), "leaf": ("inter", "leaf"), "leaf_noeku": ("inter", "noeku"),
        "rogueca_inter": ("rogue", "inter"), "rogueca_leaf": ("rogueca_inter", "leaf"),
        "nestleaf_dbx": ("inter", "leaf"), "nestleaf_mokx": ("inter", "leaf")}
for lst in LISTS:
    KEYS[f"inter_{lst}"] = ("vendor", "inter")
    KEYS[f"leaf_inter_{lst}"] = (f"inter_{lst}", "leaf")
    for kind in CERT_DENIALS:
        KEYS[f"leaf_{lst}_{kind}"] = ("inter", "leaf")

# Digest algorithms of the Authenticode signature, by signer.
for signer in ("vendor", "mok", "leaf", "rogue"):
    for alg in ("sha1", "sha256", "sha384", "sha512"):
        case(f"alg_{signer}_{alg}", [("ossl", signer, alg)],
             sample=(signer, alg) in {("vendor", "sha1"), ("vendor", "sha384"), ("leaf", "sha256")})
case("alg_vendor_md5", [("ossl", "vendor", "md5")])
case("alg_vendor_sbsign", [("sbsign", "vendor")], sample=True)
case("alg_mok_sbsign", [("sbsign", "mok")])
case("alg_unsigned", [], sample=True)
case("alg_unsigned_nosbat", [], sbat="none")

# SBAT against the level (linux.lockshim,5), for several signers and algorithms.
SBAT_KINDS = {
    "current": "gen:5", "above": "gen:6", "below": "gen:4", "none": "none",
    "oldest": "gen:1",
    "nocomponent": "csv:sbat,1,SBAT Version,sbat,1,"
                   "https://github.com/rhboot/shim/blob/main/SBAT.md\n",
    "malformed": "malformed",
}
for kind, spec in SBAT_KINDS.items():
    for signer, alg in (("vendor", "sbsign"), ("vendor", "sha384"), ("leaf", "sha256"),
                        ("mok", "sha512")):
        step = ("sbsign", signer) if alg == "sbsign" else ("ossl", signer, alg)
        case(f"sbat_{kind}_{signer}_{alg}", [step], sbat=spec,
             sample=(kind, signer, alg) in {("none", "vendor", "sbsign"),
                                            ("below", "vendor", "sbsign")})

# Image digests of every algorithm in each list, on SHA-256 and SHA-384 signatures.
for lst in LISTS:
    for d in DIGESTS:
        for alg in ("sha256", "sha384"):
            case(f"deny_{lst}_{d}_sig{alg}", [("ossl", "vendor", alg)], deny=[(lst, d)],
                 sample=alg == "sha256" and (lst, d) in {("dbx", "sha1"), ("dbx", "sha256"),
                                                          ("mokx", "sha256")})
    # Certificate denials: a leaf of its own under the intermediate, two images each.
    for kind in CERT_DENIALS:
        for alg in ("sha256", "sha512"):
            case(f"deny_{lst}_{kind}_sig{alg}", [("ossl", f"leaf_{lst}_{kind}", alg)],
                 deny=[(lst, kind)], sample=alg == "sha256" and (lst, kind) == ("dbx", "x509"))
    # The intermediate denied (X509): its leaf's images.
    case(f"deny_{lst}_inter_x509", [("ossl", f"leaf_inter_{lst}", "sha256")],
         deny=[(lst, "x509", f"inter_{lst}")])
    # Signature values: RSA2048_SHA256 of a SHA-256 signature, RSA2048_SHA1 of
    # a SHA-1 one and of a SHA-256 one.
    case(f"deny_{lst}_rsa2048_sha256", [("ossl", "vendor", "sha256")],
         deny=[(lst, "rsa2048_sha256")])
    case(f"deny_{lst}_rsa2048_sha1_sigsha1", [("ossl", "vendor", "sha1")],
         deny=[(lst, "rsa2048_sha1")])
    case(f"deny_{lst}_rsa2048_sha1_sigsha256", [("ossl", "vendor", "sha256")],
         deny=[(lst, "rsa2048_sha1")])

# Signer chains.
# signed by the leaf, without the intermediate in the signature (make_image)
case("chain_leaf_no_intermediate", [("ossl", "leaf", "sha256")])
case("chain_leaf_noeku", [("ossl", "leaf_noeku", "sha256")])
case("chain_rogue_ca", [("ossl", "rogueca_leaf", "sha256")])
case("chain_inter_signs", [("ossl", "inter", "sha256")])

# Nested signatures and several certificate-table entries.
NESTS = {
    "nest_vendor_in_rogue": [("ossl", "rogue", "sha256"), ("nest", "vendor", "sha256")],
    "nest_rogue_in_vendor": [("ossl", "vendor", "sha256"), ("nest", "rogue", "sha256")],
    "nest_sha256_in_sha1": [("ossl", "vendor", "sha1"), ("nest", "vendor", "sha256")],
    "nest_sha1_in_sha256": [("ossl", "vendor", "sha256"), ("nest", "vendor", "sha1")],
    "nest_sha512_in_sha384": [("ossl", "mok", "sha384"), ("nest", "vendor", "sha512")],
    "nest_leaf_in_vendor": [("ossl", "vendor", "sha256"), ("nest", "leaf", "sha384")],
    "nest_dbx_leaf_in_vendor": [("ossl", "vendor", "sha256"), ("nest", "nestleaf_dbx", "sha256")],
    "nest_mokx_leaf_in_vendor": [("ossl", "vendor", "sha256"), ("nest", "nestleaf_mokx", "sha256")],
    "nest_vendor_in_dbx_leaf": [("ossl", "nestleaf_dbx", "sha256"), ("nest", "vendor", "sha256")],
    "nest_vendor_in_unsigned_md5": [("ossl", "rogue", "md5"), ("nest", "vendor", "sha256")],
    "wincert_vendor_then_rogue": [("sbsign", "vendor"), ("sbsign", "rogue")],
    "wincert_rogue_then_vendor": [("sbsign", "rogue"), ("sbsign", "vendor")],
    "wincert_vendor_then_mok": [("sbsign", "vendor"), ("sbsign", "mok")],
}
for name, steps in NESTS.items():
    deny = [("dbx", "x509", "nestleaf_dbx")] if "dbx_leaf" in name else \
        [("mokx", "x509", "nestleaf_mokx")] if "mokx_leaf" in name else []
    case(name, steps, deny=deny,
         sample=name in ("nest_rogue_in_vendor", "wincert_rogue_then_vendor"))

# Signed (signingTime) before the signer's certificate was valid.
case("time_before_validity", [("ossl", "vendor", "sha256")], extra="before")

# Bytes after the certificate table.
case("trail_zero8", [("sbsign", "vendor")], extra="trail8")
case("trail_junk13", [("sbsign", "vendor")], extra="trailjunk")


# ---- making them -----------------------------------------------------------------

def run(*cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode:
        sys.exit(f"mkkexeccorpus: {' '.join(cmd)}: {r.stderr.decode(errors='replace').strip()}")
    return r.stdout.decode()


EXT = os.path.join(HERE, "..", "cli", "ca-ext.cnf")  # the extensions sections


def make_keys(a, keys):
    """The keys of KEYS in keys/ (made once, whole or not at all), and each signer's chain file."""
    if not os.path.exists(f"{keys}/.complete"):
        final, keys = keys, f"{keys}.tmp{os.getpid()}"
        os.makedirs(keys)
        run("cp", EXT, f"{keys}/ext.cnf")
        new_keys(a, keys)
        open(f"{keys}/.complete", "w").close()
        run("rm", "-rf", final)
        os.rename(keys, final)
        keys = final
    return signer_files(a, keys)


def where(a, keys, name):
    return f"{a.pki}/{name}" if name in ("vendor", "mok", "rogue") else f"{keys}/{name}"


def new_keys(a, keys):
    for name, (issuer, ext) in KEYS.items():  # issuers come first in KEYS
        run("openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj",
            f"/CN=lockshim kexec corpus {name}", "-keyout", f"{keys}/{name}.key",
            "-out", f"{keys}/{name}.csr")
        run("openssl", "x509", "-req", "-sha256", "-days", "3650", "-in", f"{keys}/{name}.csr",
            "-CA", f"{where(a, keys, issuer)}.crt", "-CAkey", f"{where(a, keys, issuer)}.key",
            "-set_serial", "0x" + os.urandom(8).hex(), "-extfile", f"{keys}/ext.cnf",
            "-extensions", ext,
            "-out", f"{keys}/{name}.crt")


def signer_files(a, keys):
    """name -> (key, the chain osslsigncode -certs gets, certificate)."""
    # What osslsigncode -certs gets: the signer and the intermediates up to (not with) the root.
    signers = {}
    for name in ("vendor", "mok", "rogue", *KEYS):
        chain, n = [], name
        while True:
            chain.append(f"{where(a, keys, n)}.crt")
            if n not in KEYS or KEYS[n][0] not in KEYS:
                break
            n = KEYS[n][0]
        with open(f"{a.out}/tmp/{name}.chain.pem", "w") as f:
            for c in chain:
                f.write(open(c).read())
        signers[name] = (f"{where(a, keys, name)}.key", f"{a.out}/tmp/{name}.chain.pem",
                         f"{where(a, keys, name)}.crt")
    return signers


def sbat_text(a, spec, name):
    if spec.startswith("csv:"):
        return spec[4:]
    gen = 9 if spec == "malformed" else int(spec[4:])
    base = open(a.sbat).read()
    lines = []
    for line in base.splitlines():
        f = line.split(",")
        if f[0] == "linux.lockshim":
            f[1], f[4] = str(gen), f"6.12-{name}"
        lines.append(",".join(f))
    return "\n".join(lines) + "\n"


def sign_time(signers):
    """An hour after the newest notBefore of the signers' certificates."""
    newest = 0
    for _, _, crt in signers.values():
        date = run("openssl", "x509", "-noout", "-startdate", "-in", crt).strip().split("=", 1)[1]
        newest = max(newest, calendar.timegm(time.strptime(date, "%b %d %H:%M:%S %Y %Z")))
    return str(newest + 3600)


def make_image(a, out, name, c, signers, when):
    img = f"{out}/images/{name}.efi"
    tmp = f"{out}/tmp"
    os.makedirs(tmp, exist_ok=True)
    cur = f"{tmp}/{name}.0.efi"
    if c["sbat"] == "none":
        run("cp", a.raw, cur)
    else:
        with open(f"{tmp}/{name}.sbat.csv", "w") as f:
            f.write(sbat_text(a, c["sbat"], name))
        run(a.lockshim, "add-sbat", f"{tmp}/{name}.sbat.csv", a.raw, cur)
        if c["sbat"] == "malformed":
            data = open(cur, "rb").read()
            assert data.count(b"\nlinux.lockshim,9,") == 1
            with open(cur, "wb") as f:
                f.write(data.replace(b"\nlinux.lockshim,9,", b"\nlinux.lockshim,x,"))
    for i, step in enumerate(c["sign"], 1):
        nxt = f"{tmp}/{name}.{i}.efi"
        key, chain, crt = signers[step[1]]
        if name == "chain_leaf_no_intermediate":
            chain = crt
        if step[0] == "sbsign":
            run("sbsign", "--key", key, "--cert", crt, "--output", nxt, cur)
        else:
            run("osslsigncode", "sign", *(["-nest"] if step[0] == "nest" else []), "-h", step[2],
                "-time", BEFORE_VALIDITY if c["extra"] == "before" else when,
                "-certs", chain, "-key", key, "-in", cur, "-out", nxt)
        os.remove(cur)
        cur = nxt
    if c["extra"] in ("trail8", "trailjunk"):
        with open(cur, "ab") as f:
            f.write(bytes(8) if c["extra"] == "trail8" else b"lockshim-junk")
    os.replace(cur, img)
    return img


def denial(a, lst, kind, img, crt):
    """One EFI_SIGNATURE_LIST naming IMG (digests, signature values) or certificate CRT."""
    esl = f"{a.out}/tmp/{os.path.basename(img)}.{lst}.{kind}.esl"
    if kind in DIGESTS:
        digest = run(a.lockshim, "hash", "--alg", kind, img).split()[0]
        run(sys.executable, MKESL, kind.upper(), esl, digest)
    elif kind in ("rsa2048_sha256", "rsa2048_sha1"):
        value = run(sys.executable, MKESL, "signature-values", "-", img).split()[0]
        run(sys.executable, MKESL, kind.upper(), esl, value)
    elif kind == "x509":
        run("cert-to-efi-sig-list", "-g", OWNER, crt, esl)
    elif kind == "rsa2048":
        modulus = run("openssl", "x509", "-noout", "-modulus", "-in", crt).strip().split("=")[1]
        run(sys.executable, MKESL, "RSA2048", esl, modulus)
    else:
        der = f"{esl}.der"
        run("openssl", "x509", "-in", crt, "-outform", "DER", "-out", der)
        run(sys.executable, MKESL, kind.upper(), esl, der)
    return open(esl, "rb").read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--raw", required=True)
    ap.add_argument("--sbat", required=True)
    ap.add_argument("--pki", required=True)
    ap.add_argument("--lockshim", required=True)
    ap.add_argument("--keys", help="where the keys made here are kept (default OUT/keys)")
    ap.add_argument("--list", action="store_true", help="print the cases and make nothing")
    a = ap.parse_args()
    if a.list:
        for name, c in CASES.items():
            print(name, int(c["sample"]))
        return
    out = a.out
    keys = a.keys or f"{out}/keys"
    for d in ("images", "tmp"):
        run("rm", "-rf", f"{out}/{d}")
        os.makedirs(f"{out}/{d}")
    signers = make_keys(a, keys)
    when = sign_time(signers)
    lists = {lst: b"" for lst in LISTS}
    with open(f"{out}/cases", "w") as index:
        for name, c in CASES.items():
            img = make_image(a, out, name, c, signers, when)
            for lst, kind, *who in c["deny"]:
                signer = who[0] if who else c["sign"][0][1]
                lists[lst] += denial(a, lst, kind, img, signers[signer][2])
            steps = " ".join(":".join(s) for s in c["sign"]) or "unsigned"
            what = f"{steps} sbat={c['sbat'].split(chr(10))[0][:24]}"
            if c["deny"]:
                what += " deny=" + ",".join(":".join(d) for d in c["deny"])
            if c["extra"]:
                what += f" {c['extra']}"
            index.write(f"{name}\t{int(c['sample'])}\t{what}\n")
    for lst, data in lists.items():
        with open(f"{out}/{lst}.esl", "wb") as f:
            f.write(data)
    with open(f"{out}/level.csv", "w") as f:
        f.write(LEVEL)
    run("rm", "-rf", f"{out}/tmp")
    print(f"{len(CASES)} images, {sum(c['sample'] for c in CASES.values())} in the sample")


if __name__ == "__main__":
    main()
