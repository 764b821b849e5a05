#!/usr/bin/env python3
"""The TPM 2.0 event log (crypto-agile, TCG PC Client PFP) for test_measured_boot.sh.

  tpm_log.py events LOG          one line per event: PCR TYPE SHA256 EVENT-DATA (hex)
  tpm_log.py replay LOG          one line per PCR touched: PCR SHA256 (the log replayed)
  tpm_log.py yaml-pcrs YAML      the sha256 PCRs of tpm2_eventlog's replay: PCR SHA256
  tpm_log.py variable-data NAME GUID OWNER FILE
                                 the UEFI_VARIABLE_DATA shim logs for an authority:
                                 FILE (DER or digest) owned by OWNER, in hex
  tpm_log.py x509-esl DER OUT    DER as one X509 signature list owned by shim's GUID
  tpm_log.py sha256-esl HEX OUT  a SHA-256 digest as one signature list, likewise
"""
import hashlib
import struct
import sys
import uuid

SHIM = "605dab50-e046-4300-abb6-3dd810dd8b23"
X509 = "a5c059a1-94e4-4aa7-87b5-ab155c2bf072"
SHA256 = "c1c41626-504c-4092-aca9-41f936934328"
EV_NO_ACTION = 3


def guid(text):
    return uuid.UUID(text).bytes_le


def events(data):
    # TCG_PCR_EVENT with the Spec ID event: the digest sizes
    pcr, etype = struct.unpack_from("<II", data, 0)
    size = struct.unpack_from("<I", data, 28)[0]
    spec = data[32:32 + size]
    if etype != EV_NO_ACTION or not spec.startswith(b"Spec ID Event03"):
        sys.exit("not a crypto-agile TCG log")
    n = struct.unpack_from("<I", spec, 24)[0]
    sizes = {}
    for i in range(n):
        alg, dsize = struct.unpack_from("<HH", spec, 28 + 4 * i)
        sizes[alg] = dsize
    at = 32 + size
    while at + 12 <= len(data):
        pcr, etype, count = struct.unpack_from("<III", data, at)
        if pcr == 0 and etype == 0:
            break
        at += 12
        digests = {}
        for _ in range(count):
            alg = struct.unpack_from("<H", data, at)[0]
            digests[alg] = data[at + 2:at + 2 + sizes[alg]]
            at += 2 + sizes[alg]
        esize = struct.unpack_from("<I", data, at)[0]
        yield pcr, etype, digests.get(0x000b), data[at + 4:at + 4 + esize]
        at += 4 + esize


def esl(type_guid, entry):
    return (guid(type_guid) + struct.pack("<III", 28 + 16 + len(entry), 0, 16 + len(entry))
            + guid(SHIM) + entry)


def main(argv):
    cmd = argv[1]
    if cmd == "events":
        for pcr, etype, sha256, event in events(open(argv[2], "rb").read()):
            print(pcr, "0x%08x" % etype, sha256.hex() if sha256 else "-", event.hex() or "-")
    elif cmd == "replay":
        pcrs = {}
        for pcr, etype, sha256, _ in events(open(argv[2], "rb").read()):
            if etype == EV_NO_ACTION:
                continue
            pcrs[pcr] = hashlib.sha256(pcrs.get(pcr, bytes(32)) + sha256).digest()
        for pcr in sorted(pcrs):
            print(pcr, pcrs[pcr].hex())
    elif cmd == "yaml-pcrs":
        import yaml
        doc = yaml.safe_load(open(argv[2]))
        for pcr, value in sorted(doc["pcrs"]["sha256"].items()):
            print(pcr, "%064x" % value if isinstance(value, int) else value.lower().removeprefix("0x"))
    elif cmd == "variable-data":
        name, var_guid, owner, path = argv[2:6]
        data = guid(owner) + open(path, "rb").read()
        print((guid(var_guid) + struct.pack("<QQ", len(name), len(data)) + name.encode("utf-16-le")
               + data).hex())
    elif cmd == "x509-esl":
        open(argv[3], "wb").write(esl(X509, open(argv[2], "rb").read()))
    elif cmd == "sha256-esl":
        open(argv[3], "wb").write(esl(SHA256, bytes.fromhex(argv[2])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
