#!/usr/bin/env bash
# `lockshim pcr --predict` on the host: the PCR 4, 7 and 14 values worked
# out here independently (Python's hashlib over the records shim 16.1
# logs: tests/qemu/tpm_log.py builds them) must be what lockshim predicts;
# a refused image, an unusable event log and bad arguments must fail.
# tests/qemu/test_measured_boot.sh checks the prediction against a TPM.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
work=$BUILD/cli-pcr
tpm_log=tests/qemu/tpm_log.py
shim_guid=605dab50-e046-4300-abb6-3dd810dd8b23

[[ -x $cli && -f $BUILD/lockshimx64.efi ]] || { not_ok "pcr: $cli or lockshimx64.efi missing (run make)"; exit 1; }
tests/pki.sh "$pki" || { not_ok "pcr: tests/pki.sh failed"; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# lockshim's own binary carries .sbat: signed by the vendor key and by rogue
scripts/sign.sh --key "$pki/vendor.key" --cert "$pki/vendor.crt" --output "$work/vendor.efi" \
	"$BUILD/lockshimx64.efi" >/dev/null &&
	scripts/sign.sh --key "$pki/rogue.key" --cert "$pki/rogue.crt" --output "$work/rogue.efi" \
		"$BUILD/lockshimx64.efi" >/dev/null || { not_ok "pcr: signing failed"; exit 1; }
python3 "$tpm_log" x509-esl "$pki/vendor.der" "$work/vendor.esl" &&
	python3 "$tpm_log" x509-esl "$pki/mok.der" "$work/mok-shim.esl" &&
	python3 "$tpm_log" sha256-esl "$(printf '0%.0s' {1..64})" "$work/dummy.esl" || exit 1

# expected IMAGE_DIGEST SBAT_LEVEL_FILE MOKLIST_FILE...: "4 X", "7 X", "14 X"
# from zero; the first MOKLIST_FILE is the vendor certificate's list, MokListX
# the empty lists' dummy ($work/dummy.esl)
expected() {
	python3 - "$@" <<'PY'
import hashlib, struct, sys, uuid
image_digest, level, dummy = bytes.fromhex(sys.argv[1]), open(sys.argv[2], "rb").read(), sys.argv[3]
moklist = sys.argv[4:]
shim = uuid.UUID("605dab50-e046-4300-abb6-3dd810dd8b23").bytes_le
def extend(pcr, digest): return hashlib.sha256(pcr + digest).digest()
def var(name, data): return shim + struct.pack("<QQ", len(name), len(data)) + name.encode("utf-16-le") + data
sha = lambda b: hashlib.sha256(b).digest()
vendor = open(moklist[0], "rb").read()
der = vendor[28 + 16:]
p4 = extend(bytes(32), image_digest)
p7 = extend(extend(bytes(32), sha(var("SbatLevel", level))), sha(var("MokListRT", shim + der)))
mok = b"".join(open(f, "rb").read() for f in moklist)
p14 = bytes(32)
for d in (mok, open(dummy, "rb").read(), b"\x01"):
    p14 = extend(p14, sha(d))
print("4", p4.hex()); print("7", p7.hex()); print("14", p14.hex())
PY
}

digest=$("$cli" hash "$work/vendor.efi")
want=$(expected "$digest" certs/sbat-level-automatic.csv "$work/dummy.esl" "$work/vendor.esl")
run_cli pcr --predict --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
[[ $rc -eq 0 && $out == "$want" ]] && ok "pcr: vendor-signed image, from zero: PCR 4, 7, 14 as shim's records give" ||
	not_ok "pcr: vendor-signed image (exit $rc: $out; expected: $want)"

want14=$(expected "$digest" certs/sbat-level-automatic.csv "$work/dummy.esl" "$work/vendor.esl" \
	"$work/mok-shim.esl" | awk '$1 == 14')
run_cli pcr --predict --vendor-cert "$pki/vendor.der" --mok "$pki/mok.der" "$work/vendor.efi"
[[ $rc -eq 0 && $(awk '$1 == 14' <<<"$out") == "$want14" ]] &&
	ok "pcr: --mok CERT counts as mokutil enrolls it (owner SHIM_LOCK) in PCR 14's MokList" ||
	not_ok "pcr: --mok CERT (exit $rc: $out; expected: $want14)"

objcopy --remove-section .sbat "$BUILD/lockshimx64.efi" "$work/nosbat-unsigned.efi" &&
	scripts/sign.sh --key "$pki/vendor.key" --cert "$pki/vendor.crt" --output "$work/nosbat.efi" \
		"$work/nosbat-unsigned.efi" >/dev/null || { not_ok "pcr: an image without .sbat"; exit 1; }
expect 1 'no .sbat' "pcr: an image lockshim starts needs .sbat" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" "$work/nosbat.efi"
expect 0 '^4 [0-9a-f]{64}' "pcr: --shim-lock: an image a second stage asks about may lack .sbat" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" "$work/vendor.efi" --shim-lock "$work/nosbat.efi"
expect 1 'would be refused' "pcr: a rogue-signed image is refused, nothing predicted" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" "$work/rogue.efi"
# SHIM_LOCK's Verify measures before it decides (shim 16.1): a refused
# attempt, then the image lockshim starts, leaves both in PCR 4, and only
# the allowed one's authority in PCR 7.
rogue_digest=$("$cli" hash "$work/rogue.efi")
want=$(python3 - "$rogue_digest" "$digest" <<'PY'
import hashlib, sys
p4 = bytes(32)
for d in sys.argv[1:]:
    p4 = hashlib.sha256(p4 + bytes.fromhex(d)).digest()
print("4", p4.hex())
PY
)
run_cli pcr --predict --vendor-cert "$pki/vendor.der" --shim-lock "$work/rogue.efi" "$work/vendor.efi"
want7=$(expected "$digest" certs/sbat-level-automatic.csv "$work/dummy.esl" "$work/vendor.esl" | awk '$1 == 7')
[[ $rc -eq 0 && $(awk '$1 == 4' <<<"$out") == "$want" && $(awk '$1 == 7' <<<"$out") == "$want7" ]] &&
	ok "pcr: --shim-lock: a refused image is measured into PCR 4 before the verdict, as shim's Verify does" ||
	not_ok "pcr: --shim-lock refused then allowed (exit $rc: $out; expected: $want, $want7)"
# The deny lists decide by every type there, as for verify: an image whose
# SHA-1 digest is in dbx, one whose signer's RSA-2048 key is in MokListX.
python3 tests/cli/mkesl.py SHA1 "$work/vendor-sha1.esl" "$("$cli" hash --alg sha1 "$work/vendor.efi")" &&
	python3 tests/cli/mkesl.py RSA2048 "$work/vendor-rsa.esl" \
		"$(openssl x509 -noout -modulus -in "$pki/vendor.crt" | sed 's/^Modulus=//')" || exit 1
expect 1 'would be refused: image SHA-1 digest is in dbx' "pcr: an image whose SHA-1 digest is in --dbx is refused" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" --dbx "$work/vendor-sha1.esl" "$work/vendor.efi"
expect 1 'would be refused: certificate /CN=lockshim test vendor RSA-2048 key is in MokListX' \
	"pcr: an image whose signer's RSA-2048 key is in --mokx is refused" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" --mokx "$work/vendor-rsa.esl" "$work/vendor.efi"
expect 2 'usage' "pcr: without --predict: usage" -- pcr --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
expect 2 'usage' "pcr: no image: usage" -- pcr --predict --vendor-cert "$pki/vendor.der"
expect 2 'usage' "pcr: a second vendor certificate: usage" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
head -c 2000 tests/fuzz/corpus/fuzz_tcg_log/vendor-kernel.bin >"$work/short.log"
head -c 300 tests/fuzz/corpus/fuzz_tcg_log/vendor-kernel.bin >"$work/shorter.log"
expect 2 'runs past the end|no boot application' "pcr: a cut event log is refused with the reason" -- \
	pcr --predict --event-log "$work/shorter.log" --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
expect 2 'not a crypto-agile log|Spec ID' "pcr: a file that is no event log is refused" -- \
	pcr --predict --event-log "$pki/vendor.der" --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
expect 0 '^4 [0-9a-f]{64}' "pcr: over a firmware's log (a guest's, from the fuzz corpus)" -- \
	pcr --predict --event-log tests/fuzz/corpus/fuzz_tcg_log/vendor-kernel.bin \
	--vendor-cert "$pki/vendor.der" "$work/vendor.efi"
# A fallback boot's log (test_measured_boot.sh tpm_fallback_kernel): the
# firmware measured its shell (then refused it under Secure Boot) before
# lockshim at the removable path. The firmware's part ends at lockshim's
# application, the log's second, so PCR 4 is the firmware's up to it, then
# the image's Authenticode digest
fallback=tests/fuzz/corpus/fuzz_tcg_log/fallback-shell-first.bin
want=$(python3 - "$fallback" "$("$cli" hash "$work/vendor.efi")" <<'PY'
import hashlib, sys
sys.path.insert(0, "tests/qemu")
import tpm_log
pcr, apps = bytes(32), 0
for index, etype, digest, _ in tpm_log.events(open(sys.argv[1], "rb").read()):
    if index != 4 or etype == tpm_log.EV_NO_ACTION or apps == 2:
        continue
    pcr = hashlib.sha256(pcr + digest).digest()
    apps += etype == 0x80000003
assert apps == 2
print(hashlib.sha256(pcr + bytes.fromhex(sys.argv[2])).hexdigest())
PY
) || exit 1
expect 0 "^4 $want" "pcr: after a fallback boot, PCR 4 builds on lockshim's event, not the shell's" -- \
	pcr --predict --event-log "$fallback" --vendor-cert "$pki/vendor.der" "$work/vendor.efi"
exit $failed
