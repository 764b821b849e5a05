#!/usr/bin/env bash
# build/lockshim verify/esl: the deny-first policy over db, dbx, MokList,
# MokListX and the vendor lists, checked with a CA hierarchy made here:
#
#   root CA -> intermediate CA -> leaf signer   (the image is signed by the
#   leaf with sbsign, the intermediate carried in the signature via --addcert)
#
# Signature lists come from efitools (cert-to-efi-sig-list,
# hash-to-efi-sig-list) and, for what efitools does not make, from
# tests/cli/mkesl.py: EFI_CERT_X509_SHA256/384/512 entries (digest of the
# certificate's TBSCertificate and a 16-byte EFI_TIME), SHA-1/224/384/512
# image digests, RSA-2048 moduli and signature values (RSA2048,
# RSA2048_SHA256/SHA1), a list of a type nobody defines, malformed lists for
# `lockshim esl`; tests/cli/mkwincert.py appends
# bad certificate table entries to a signed image, and
# tests/cli/check_verify_json.py checks the --json output.
#
# The malformed lists are also fed to the CLI built with AddressSanitizer and
# UBSan (build/lockshim-san, from the Makefile).
#
# Everything is made under build/cli-policy/ (rebuilt each run; keys are kept).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
work=$BUILD/cli-policy

# ---- prerequisites -----------------------------------------------------------
for tool in sbsign sbattach osslsigncode cert-to-efi-sig-list hash-to-efi-sig-list openssl python3; do
	command -v "$tool" >/dev/null || { not_ok "policy: $tool missing"; exit 1; }
done
[[ -x $cli ]] || { not_ok "policy: $cli missing (run make)"; exit 1; }
[[ -f $BUILD/lockshimx64.efi ]] || { not_ok "policy: $BUILD/lockshimx64.efi missing (run make)"; exit 1; }
tests/pki.sh "$pki" || { not_ok "policy: tests/pki.sh failed"; exit 1; }

keys=$work/keys
mkdir -p "$keys"
find "$work" -mindepth 1 -maxdepth 1 ! -name keys ! -name san -exec rm -rf {} +

owner=4c6f636b-5368-696d-5465-737450726f6f

# ---- the CA hierarchy (kept across runs) ----------------------------------------
root_cn="lockshim policy root CA" inter_cn="lockshim policy intermediate CA" leaf_cn="lockshim policy leaf signer"
if [[ ! -f $keys/.complete ]]; then
	cp tests/cli/ca-ext.cnf "$keys/ext.cnf"
	(
		set -e
		cd "$keys"
		openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=$root_cn" \
			-config /dev/null -extensions root -extfile ext.cnf -keyout root.key -out root.crt 2>/dev/null ||
			openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj "/CN=$root_cn" \
				-addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign' \
				-keyout root.key -out root.crt 2>/dev/null
		# issue NAME CN ISSUER SECTION
		issue() {
			openssl req -new -newkey rsa:2048 -nodes -subj "/CN=$2" -keyout "$1.key" -out "$1.csr" 2>/dev/null
			openssl x509 -req -sha256 -days 3650 -in "$1.csr" -CA "$3.crt" -CAkey "$3.key" \
				-set_serial "0x$(openssl rand -hex 8)" -extfile ext.cnf -extensions "$4" -out "$1.crt" 2>/dev/null
		}
		issue inter "$inter_cn" root inter
		issue leaf "$leaf_cn" inter leaf
		for n in root inter leaf; do
			openssl x509 -in "$n.crt" -outform DER -out "$n.der"
		done
		openssl verify -x509_strict -CAfile root.crt -untrusted inter.crt leaf.crt >/dev/null
		# a subject that needs escaping in JSON: a quote and a backslash
		openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 3650 -subj '/CN=odd \"quoted\" back\\slash' \
			-keyout odd.key -out odd.crt 2>/dev/null
		openssl x509 -in odd.crt -outform DER -out odd.der
		touch .complete
	) || { not_ok "policy: cannot make the CA hierarchy"; exit 1; }
fi
for n in root inter leaf; do
	cert-to-efi-sig-list -g "$owner" "$keys/$n.crt" "$work/$n.esl" >/dev/null
done

# ---- signature lists efitools does not make (tests/cli/mkesl.py) ------------------
mkesl() { python3 tests/cli/mkesl.py "$@"; }

# ---- images ------------------------------------------------------------------
# unsign IN OUT: copy IN without any signature, padded to 8 bytes as signing does
unsign() {
	local size
	cp "$1" "$2"
	for _ in 1 2 3 4 5 6 7 8; do
		sbattach --remove "$2" >/dev/null 2>&1 || break
	done
	size=$(stat -c %s "$2")
	truncate -s $(( (size + 7) / 8 * 8 )) "$2"
}
unsigned=$work/unsigned.efi
unsign "$BUILD/lockshimx64.efi" "$unsigned"

# sbsign_as KEY-PREFIX IN OUT [sbsign options]: add a signature with sbsign
sbsign_as() {
	local k=$1 in=$2 o=$3
	shift 3
	sbsign --key "$k.key" --cert "$k.crt" "$@" --output "$o" "$in" >/dev/null 2>&1 ||
		not_ok "policy: sbsign ${k##*/} -> ${o##*/}"
}
sbsign_as "$keys/leaf" "$unsigned" "$work/leaf.efi" --addcert "$keys/inter.crt"
sbsign_as "$keys/leaf" "$unsigned" "$work/leaf-alone.efi"
sbsign_as "$pki/vendor" "$unsigned" "$work/vendor.efi"
sbsign_as "$pki/vendor" "$unsigned" "$work/vendor-carrying-revoked.efi" --addcert "$pki/revoked.crt"
# Two WIN_CERTIFICATE entries (sbsign appends to a signed image), both orders.
sbsign_as "$pki/revoked" "$work/vendor.efi" "$work/vendor+revoked.efi"
sbsign_as "$pki/revoked" "$unsigned" "$work/revoked.efi"
sbsign_as "$pki/vendor" "$work/revoked.efi" "$work/revoked+vendor.efi"
# One entry with a nested signature (osslsigncode -nest), both orders.
for pair in vendor:revoked revoked:vendor vendor:rogue; do
	first=${pair%:*} second=${pair#*:}
	osslsigncode sign -h sha256 -certs "$pki/$first.crt" -key "$pki/$first.key" \
		-in "$unsigned" -out "$work/tmp.efi" >/dev/null 2>&1 &&
		osslsigncode sign -nest -h sha256 -certs "$pki/$second.crt" -key "$pki/$second.key" \
			-in "$work/tmp.efi" -out "$work/$first-nest-$second.efi" >/dev/null 2>&1 ||
		not_ok "policy: osslsigncode -nest $first then $second"
	rm -f "$work/tmp.efi"
done
# Leaf signature with the intermediate, plus a nested vendor signature.
osslsigncode sign -nest -h sha256 -certs "$pki/vendor.crt" -key "$pki/vendor.key" \
	-in "$work/leaf.efi" -out "$work/leaf-nest-vendor.efi" >/dev/null 2>&1 ||
	not_ok "policy: osslsigncode -nest vendor on the leaf-signed image"
# The RSA signature value (the end of the certificate table, before up to 7
# bytes of padding) changed: digest and chain are fine, the signature is not.
cp "$work/leaf.efi" "$work/badsig.efi"
size=$(stat -c %s "$work/badsig.efi")
flip_byte "$work/badsig.efi" $(( size - 24 ))
cp "$work/leaf.efi" "$work/tampered.efi"
flip_byte "$work/tampered.efi" 4096

# ---- digest lists ---------------------------------------------------------------
hash-to-efi-sig-list "$unsigned" "$work/hash.esl" >/dev/null 2>&1
sha256=$(tail -c 32 "$work/hash.esl" | od -An -v -tx1 | tr -d ' \n')
[[ $sha256 =~ ^[0-9a-f]{64}$ && $sha256 != 0000000000000000000000000000000000000000000000000000000000000000 ]] ||
	not_ok "policy: hash-to-efi-sig-list on $unsigned"
# SHA-1 and SHA-384/512 Authenticode digests as osslsigncode computes them.
for alg in sha1 sha384 sha512; do
	osslsigncode sign -h "$alg" -certs "$pki/rogue.crt" -key "$pki/rogue.key" \
		-in "$unsigned" -out "$work/tmp.efi" >/dev/null 2>&1
	d=$(osslsigncode verify -in "$work/tmp.efi" 2>/dev/null |
		sed -n 's/^Calculated message digest *: *\([0-9A-Fa-f]*\).*/\1/p' | head -n1 | tr A-F a-f)
	rm -f "$work/tmp.efi"
	[[ -n $d ]] || not_ok "policy: no $alg digest from osslsigncode"
	mkesl "${alg^^}" "$work/hash-$alg.esl" "$d"
	declare "$alg=$d"
done
other=$(printf '%064d' 7)
mkesl SHA256 "$work/other-hash.esl" "$other"
mkesl X509_SHA256 "$work/leaf-tbs256.esl" "$keys/leaf.der"
mkesl X509_SHA384 "$work/inter-tbs384.esl" "$keys/inter.der"
mkesl X509_SHA512 "$work/root-tbs512.esl" "$keys/root.der"
mkesl X509_SHA256 "$work/vendor-tbs256.esl" "$pki/vendor.der"
mkesl X509_SHA256 "$work/leaf-wrong-tbs.esl" "$keys/inter.der" "$keys/root.der"
leaf_tbs256=$(mkesl tbs-hex - sha256 "$keys/leaf.der")
# The types deny lists go by besides (UEFI 2.10, 32.4.1): the SHA-1 and
# SHA-224 Authenticode digests (SHA-224 as lockshim computes it: osslsigncode
# has none; its SHA-1, SHA-384 and SHA-512 are checked against lockshim's
# below), RSA-2048 public moduli, RSA-2048 signature values of SignerInfos.
sha224=$("$cli" hash --alg sha224 "$unsigned")
mkesl SHA224 "$work/hash-sha224.esl" "$sha224"
modulus() { openssl x509 -noout -modulus -in "$1" | sed 's/^Modulus=//' | tr A-F a-f; }
mkesl RSA2048 "$work/leaf-rsa.esl" "$(modulus "$keys/leaf.crt")"
mkesl RSA2048 "$work/inter-rsa.esl" "$(modulus "$keys/inter.crt")"
mkesl RSA2048 "$work/root-rsa.esl" "$(modulus "$keys/root.crt")"
mkesl RSA2048 "$work/rogue-rsa.esl" "$(modulus "$pki/rogue.crt")"
leaf_sig=$(mkesl signature-values - "$work/leaf.efi")
mkesl RSA2048_SHA256 "$work/leaf-sig256.esl" "$leaf_sig"
mkesl RSA2048_SHA1 "$work/leaf-sig1.esl" "$leaf_sig"
mapfile -t nest_sigs < <(mkesl signature-values - "$work/vendor-nest-rogue.efi")
[[ ${#nest_sigs[@]} -eq 2 && ${#leaf_sig} -eq 512 ]] ||
	not_ok "policy: signature values of leaf.efi and vendor-nest-rogue.efi (${#nest_sigs[@]}, ${#leaf_sig})"
mkesl RSA2048_SHA256 "$work/rogue-nested-sig.esl" "${nest_sigs[1]:-00}"
mkesl SHA1 "$work/other-sha1.esl" "$(printf '%040d' 7)"
mkesl UNKNOWN "$work/unknown.esl" 00112233 44556677
unknown_guid=4c6f636b-5368-696d-556e-6b6e6f776e21

# Name patterns for verdicts
L="/CN=$leaf_cn" I="/CN=$inter_cn" R="/CN=$root_cn" V="/CN=lockshim test vendor" X="/CN=lockshim test revoked"
rx() { printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g'; } # regex-quote
signed_by() { echo "^allowed: [^:]*: signed by $(rx "$1"), trusted through $2 certificate $(rx "$3")\$"; }

# ---- deny ----------------------------------------------------------------------
v="verify --vendor-cert $pki/vendor.der"
expect 1 '^refused: [^:]*: image SHA-256 digest is in dbx' \
	"policy: digest in dbx refused although vendor-signed" -- $v --dbx "$work/hash.esl" "$work/vendor.efi"
expect 1 '^refused: [^:]*: image SHA-256 digest is in dbx' \
	"policy: digest in both db and dbx refused (deny first)" -- \
	verify --db "$work/hash.esl" --dbx "$work/hash.esl" "$unsigned"
expect 1 '^refused: [^:]*: image SHA-384 digest is in dbx' \
	"policy: SHA-384 digest in dbx refused" -- $v --dbx "$work/hash-sha384.esl" "$work/vendor.efi"
expect 1 '^refused: [^:]*: image SHA-512 digest is in MokListX' \
	"policy: SHA-512 digest in MokListX refused" -- $v --mokx "$work/hash-sha512.esl" "$work/vendor.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$L") is in dbx" \
	"policy: signer certificate in dbx refused" -- \
	verify --db "$work/root.esl" --dbx "$work/leaf.esl" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$I") is in dbx" \
	"policy: intermediate CA in dbx refused (root trusted via --db)" -- \
	verify --db "$work/root.esl" --dbx "$work/inter.esl" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$R") is in dbx" \
	"policy: root CA in dbx and in db refused (deny first)" -- \
	verify --db "$work/root.esl" --dbx "$work/root.esl" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$I") is in dbx" \
	"policy: intermediate CA in dbx refused even when trusted itself via --mok" -- \
	verify --mok "$work/inter.esl" --dbx "$keys/inter.der" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$L") SHA-256 digest is in dbx" \
	"policy: signer TBSCertificate SHA-256 (X509_SHA256) in dbx refused" -- \
	verify --db "$work/root.esl" --dbx "$work/leaf-tbs256.esl" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$I") SHA-384 digest is in dbx" \
	"policy: intermediate TBSCertificate SHA-384 (X509_SHA384) in dbx refused" -- \
	verify --db "$work/root.esl" --dbx "$work/inter-tbs384.esl" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$R") SHA-512 digest is in MokListX" \
	"policy: root TBSCertificate SHA-512 (X509_SHA512) in MokListX refused" -- \
	verify --db "$work/root.esl" --mokx "$work/root-tbs512.esl" "$work/leaf.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$V") SHA-256 digest is in vendor dbx" \
	"policy: vendor TBSCertificate SHA-256 in vendor dbx refused" -- \
	$v --vendor-dbx "$work/vendor-tbs256.esl" "$work/vendor.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$L") is in MokListX" \
	"policy: signer certificate in MokListX (--mokx) refused" -- \
	verify --db "$work/root.esl" --mokx "$work/leaf.esl" "$work/leaf.efi"
expect 1 '^refused: [^:]*: image SHA-256 digest is in MokListX' \
	"policy: digest in MokListX refused although db-trusted" -- \
	verify --db "$work/root.esl" --mokx "$work/hash.esl" "$work/leaf.efi"
expect 1 '^refused: [^:]*: image SHA-256 digest is in vendor dbx' \
	"policy: digest in vendor dbx (--vendor-dbx) refused" -- \
	$v --vendor-dbx "$work/hash.esl" "$work/vendor.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$I") is in vendor dbx" \
	"policy: intermediate CA in vendor dbx refused" -- \
	verify --db "$work/root.esl" --vendor-dbx "$work/inter.esl" "$work/leaf.efi"
for img in vendor+revoked revoked+vendor vendor-nest-revoked revoked-nest-vendor; do
	expect 0 "$(signed_by "$V" vendor "$V")" "policy: $img allowed when nothing is revoked (control)" -- \
		$v "$work/$img.efi"
	expect 1 "^refused: [^:]*: certificate $(rx "$X") is in dbx" \
		"policy: $img (two signatures, one by a key in dbx) refused" -- \
		$v --dbx "$pki/revoked.esl" "$work/$img.efi"
done
expect 1 "^refused: [^:]*: certificate $(rx "$I") is in dbx" \
	"policy: signer issued by a CA in dbx that the signature does not carry refused" -- \
	verify --db "$work/leaf.esl" --dbx "$work/inter.esl" "$work/leaf-alone.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$I") SHA-384 digest is in dbx" \
	"policy: trust anchor (from db, not carried in the signature) with its TBS digest in dbx refused" -- \
	verify --db "$work/inter.esl" --dbx "$work/inter-tbs384.esl" "$work/leaf-alone.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$X") is in dbx" \
	"policy: a dbx certificate merely carried in a signature (sbsign --addcert) refused" -- \
	$v --dbx "$pki/revoked.esl" "$work/vendor-carrying-revoked.efi"
expect 1 "^refused: [^:]*: certificate $(rx "$V") is in dbx" \
	"policy: leaf signature + nested vendor signature, vendor in dbx, refused" -- \
	verify --db "$work/root.esl" --dbx "$pki/vendor.esl" "$work/leaf-nest-vendor.efi"

# Every type UEFI defines for naming an image or its signer, in each deny list
# (the SHA-256/384/512, X509 and X509_SHA* ones are above).
O="/CN=lockshim test rogue"
skipped="skipping 1 signature list\\(s\\) of a type lockshim does not know \\($unknown_guid\\)"
for deny in dbx:dbx vendor-dbx:'vendor dbx' mokx:MokListX; do
	opt=--${deny%%:*} list=${deny#*:}
	expect 1 "^refused: [^:]*: image SHA-1 digest is in $list\$" \
		"policy: SHA-1 digest in $opt refused although vendor-signed" -- \
		$v "$opt" "$work/hash-sha1.esl" "$work/vendor.efi"
	expect 1 "^refused: [^:]*: image SHA-224 digest is in $list\$" \
		"policy: SHA-224 digest in $opt refused although vendor-signed" -- \
		$v "$opt" "$work/hash-sha224.esl" "$work/vendor.efi"
	expect 1 "^refused: [^:]*: certificate $(rx "$L") RSA-2048 key is in $list\$" \
		"policy: signer's RSA-2048 key (RSA2048) in $opt refused" -- \
		verify --db "$work/root.esl" "$opt" "$work/leaf-rsa.esl" "$work/leaf.efi"
	expect 1 "^refused: [^:]*: certificate $(rx "$I") RSA-2048 key is in $list\$" \
		"policy: intermediate CA's RSA-2048 key in $opt refused" -- \
		verify --db "$work/root.esl" "$opt" "$work/inter-rsa.esl" "$work/leaf.efi"
	expect 1 "^refused: [^:]*: certificate $(rx "$R") RSA-2048 key is in $list\$" \
		"policy: root CA's RSA-2048 key in $opt refused (the root from db, not carried)" -- \
		verify --db "$work/root.esl" "$opt" "$work/root-rsa.esl" "$work/leaf.efi"
	for kind in 256:RSA2048_SHA256 1:RSA2048_SHA1; do
		expect 1 "^refused: [^:]*: signature value of signer $(rx "$L") is in $list \\(${kind#*:}\\)\$" \
			"policy: signature value (${kind#*:}) in $opt refused" -- \
			verify --db "$work/root.esl" "$opt" "$work/leaf-sig${kind%%:*}.esl" "$work/leaf.efi"
	done
	expect 1 "^refused: [^:]*: signature value of signer $(rx "$O") is in $list \\(RSA2048_SHA256\\)\$" \
		"policy: a nested signature's value in $opt refused" -- \
		$v "$opt" "$work/rogue-nested-sig.esl" "$work/vendor-nest-rogue.efi"
	expect 1 "^refused: [^:]*: certificate $(rx "$O") RSA-2048 key is in $list\$" \
		"policy: a nested signer's RSA-2048 key in $opt refused" -- \
		$v "$opt" "$work/rogue-rsa.esl" "$work/vendor-nest-rogue.efi"
	allowed=$(signed_by "$V" vendor "$V")
	expect 0 "^lockshim: [^:]*unknown.esl: $skipped"$'\n'"${allowed#^}" \
		"policy: a list of a type nobody defines in $opt is skipped, named with its GUID, not fail-closed" -- \
		$v "$opt" "$work/unknown.esl" "$work/vendor.efi"
done
expect 0 "$(signed_by "$L" db "$R")" "policy: unrelated entries of every new type in the deny lists do not refuse" -- \
	verify --db "$work/root.esl" --dbx "$work/other-sha1.esl" --dbx "$work/rogue-rsa.esl" \
	--vendor-dbx "$work/rogue-nested-sig.esl" --mokx "$work/other-sha1.esl" "$work/leaf.efi"
expect 1 '^refused: [^:]*: image SHA-1 digest is in dbx$' \
	"policy: --shim-lock (a second stage asking) refuses a SHA-1 digest in dbx too" -- \
	$v --shim-lock --dbx "$work/hash-sha1.esl" "$work/vendor.efi"

# Structure: a bad certificate table entry after a good vendor signature could
# hide a revoked certificate, so it refuses the image (docs/policy.md: "stricter about
# structure").
for m in garbage truncated-pkcs7 x509-type bad-revision overlong header-only; do
	python3 tests/cli/mkwincert.py "$work/vendor+$m.efi" "$work/vendor.efi" "$m" "$pki/vendor.der"
	expect 1 '^refused: ' "policy: vendor signature followed by a bad certificate table entry ($m) refused" -- \
		$v "$work/vendor+$m.efi"
done
osslsigncode sign -nest -h sha256 -certs "$pki/revoked.crt" -key "$pki/revoked.key" \
	-in "$work/vendor-nest-rogue.efi" -out "$work/vendor-nest-rogue-nest-revoked.efi" >/dev/null 2>&1 ||
	not_ok "policy: osslsigncode -nest (third signature)"
expect 1 "^refused: [^:]*: certificate $(rx "$X") is in dbx" \
	"policy: second nested signature (osslsigncode -nest twice) by a key in dbx refused" -- \
	$v --dbx "$pki/revoked.esl" "$work/vendor-nest-rogue-nest-revoked.efi"

# ---- allow ---------------------------------------------------------------------
expect 0 "$(signed_by "$L" db "$R")" "policy: root CA in --db, leaf+intermediate signature allowed" -- \
	verify --db "$work/root.esl" "$work/leaf.efi"
expect 0 "$(signed_by "$L" db "$R")" "policy: root CA as a DER certificate in --db allowed" -- \
	verify --db "$keys/root.der" "$work/leaf.efi"
expect 0 "$(signed_by "$L" db "$R")" "policy: root CA as a PEM certificate in --db allowed" -- \
	verify --db "$keys/root.crt" "$work/leaf.efi"
expect 0 "$(signed_by "$L" MokList "$I")" "policy: intermediate CA in --mok allowed" -- \
	verify --mok "$work/inter.esl" "$work/leaf.efi"
expect 0 "$(signed_by "$L" vendor "$L")" "policy: leaf itself in --vendor-cert allowed" -- \
	verify --vendor-cert "$keys/leaf.der" "$work/leaf.efi"
expect 0 "$(signed_by "$L" db "$L")" "policy: leaf itself in --db allowed" -- \
	verify --db "$work/leaf.esl" "$work/leaf.efi"
expect 0 "$(signed_by "$L" db "$L")" "policy: leaf in --db, signature without the intermediate allowed" -- \
	verify --db "$work/leaf.esl" "$work/leaf-alone.efi"
expect 0 "$(signed_by "$L" db "$R")" "policy: unrelated dbx entries (revoked cert, other hash, other TBS) do not refuse" -- \
	verify --db "$work/root.esl" --dbx "$pki/revoked.esl" --dbx "$work/other-hash.esl" \
	--dbx "$work/vendor-tbs256.esl" --mokx "$work/other-hash.esl" "$work/leaf.efi"
expect 0 "$(signed_by "$L" db "$R")" "policy: several --db files add up" -- \
	verify --db "$pki/db.der" --db "$work/other-hash.esl" --db "$work/root.esl" "$work/leaf.efi"
cat "$pki/db.esl" "$work/other-hash.esl" "$work/root.esl" >"$work/several.esl"
expect 0 "$(signed_by "$L" db "$R")" "policy: db with several lists (cat of ESLs) allowed" -- \
	verify --db "$work/several.esl" "$work/leaf.efi"
expect 0 '^allowed: [^:]*: image SHA-256 digest is in db$' \
	"policy: unsigned image allowed by its digest in --db" -- verify --db "$work/hash.esl" "$unsigned"
expect 0 '^allowed: [^:]*: image SHA-256 digest is in MokList$' \
	"policy: unsigned image allowed by its digest in --mok" -- verify --mok "$work/hash.esl" "$unsigned"
expect 0 '^allowed: [^:]*: image SHA-256 digest is in vendor$' \
	"policy: unsigned image allowed by its digest in --vendor-cert (an ESL)" -- verify --vendor-cert "$work/hash.esl" "$unsigned"
cat "$work/unknown.esl" "$work/root.esl" >"$work/unknown-then-root.esl"
allowed=$(signed_by "$L" db "$R")
expect 0 "^lockshim: [^:]*unknown-then-root.esl: $skipped"$'\n'"${allowed#^}" \
	"policy: a list of a type nobody defines is skipped in db, and said" -- \
	verify --db "$work/unknown-then-root.esl" "$work/leaf.efi"
# Allow lists trust by no new type (stricter than the firmware, which trusts SHA-1 digests).
expect 1 '^refused: [^:]*: image is not signed$' "policy: SHA-1 digest in --db does not trust" -- \
	verify --db "$work/hash-sha1.esl" "$unsigned"
expect 1 '^refused: [^:]*: image is not signed$' "policy: SHA-224 digest in --mok does not trust" -- \
	verify --mok "$work/hash-sha224.esl" "$unsigned"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate$' \
	"policy: the signer's RSA-2048 key in --db does not trust" -- \
	verify --db "$work/leaf-rsa.esl" "$work/leaf.efi"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate$' \
	"policy: the signature value (RSA2048_SHA256) in --vendor-cert does not trust" -- \
	verify --vendor-cert "$work/leaf-sig256.esl" "$work/leaf.efi"
expect 0 '^allowed: [^:]*: image SHA-384 digest is in db$' \
	"policy: unsigned image allowed by its SHA-384 digest in --db" -- verify --db "$work/hash-sha384.esl" "$unsigned"
expect 0 '^allowed: [^:]*: image SHA-256 digest is in db$' \
	"policy: signed image by an untrusted key allowed by its digest in --db" -- \
	verify --db "$work/hash.esl" "$work/leaf.efi"
expect 0 "$(signed_by "$V" vendor "$V")" "policy: leaf signature untrusted, nested vendor signature trusted: allowed" -- \
	$v "$work/leaf-nest-vendor.efi"

# ---- refuse --------------------------------------------------------------------
expect 1 '^refused: [^:]*: image is not signed' "policy: unsigned image without a digest entry refused" -- \
	verify --db "$work/root.esl" --db "$work/other-hash.esl" --mok "$work/inter.esl" "$unsigned"
expect 1 '^refused: [^:]*: image digest does not match the signature' "policy: tampered image refused" -- \
	verify --db "$work/root.esl" "$work/tampered.efi"
expect 1 '^refused: ' "policy: image with a corrupted RSA signature value refused" -- \
	verify --db "$work/root.esl" "$work/badsig.efi"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
	"policy: leaf signature without the intermediate, root in db, refused" -- \
	verify --db "$work/root.esl" "$work/leaf-alone.efi"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
	"policy: leaf-signed image refused with only the vendor certificate" -- \
	$v "$work/leaf.efi"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
	"policy: certificates only in dbx/MokListX do not trust: refused" -- \
	verify --dbx "$work/root.esl" --mokx "$work/inter.esl" "$work/vendor.efi"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
	"policy: TBS digest of the root in --db is not a trust anchor" -- \
	verify --db "$work/leaf-wrong-tbs.esl" "$work/leaf.efi"

# ---- --json --------------------------------------------------------------------
# json_check NAME JSON-EXPECT -- ARGS...: run with --json, parse stdout, compare fields.
# JSON-EXPECT: python expression over the dict j and the plain-output message m.
json_check() {
	local name=$1 cond=$2 plain jout jrc
	shift 3
	plain=$("$cli" "$@" 2>/dev/null)
	local image=${*: -1}
	jout=$("$cli" "${@:1:1}" --json "${@:2}" 2>/dev/null)
	jrc=$?
	if python3 tests/cli/check_verify_json.py "$cond" "$plain" "$image" "$jout"; then
		ok "$name"
	else
		not_ok "$name (exit $jrc, json: $jout)"
	fi
}
json_check "json: allowed by db root CA" \
	'j["verdict"] == "allowed" and j["list"] == "db" and "'"$root_cn"'" in j["entry"]' -- \
	verify --db "$work/root.esl" "$work/leaf.efi"
json_check "json: allowed by digest in MokList" \
	'j["verdict"] == "allowed" and j["list"] == "MokList" and j["entry"] and "SHA-256 digest" in j["message"]' -- \
	verify --mok "$work/hash.esl" "$unsigned"
json_check "json: refused by digest in dbx" \
	'j["verdict"] == "refused" and j["list"] == "dbx" and j["entry"]' -- \
	verify --vendor-cert "$pki/vendor.der" --dbx "$work/hash.esl" "$work/vendor.efi"
json_check "json: refused by intermediate in vendor dbx" \
	'j["verdict"] == "refused" and j["list"] == "vendor dbx" and "'"$inter_cn"'" in j["entry"]' -- \
	verify --db "$work/root.esl" --vendor-dbx "$work/inter.esl" "$work/leaf.efi"
json_check "json: unsigned refused, list and entry null" \
	'j["verdict"] == "refused" and j["reason"] == "not-signed" and j["list"] is None and j["entry"] is None and j["message"] == "image is not signed"' -- \
	verify --db "$work/root.esl" "$unsigned"
json_check "json: the reason code of a dbx digest" \
	'j["reason"] == "deny-digest"' -- \
	verify --vendor-cert "$pki/vendor.der" --dbx "$work/hash.esl" "$work/vendor.efi"
json_check "json: the reason code of a trusted signer" \
	'j["reason"] == "allowed-cert"' -- verify --db "$work/root.esl" "$work/leaf.efi"
# Exit codes are the same with --json.
run_cli verify --json --db "$work/root.esl" "$unsigned" >/dev/null
[[ $rc -eq 1 ]] && ok "json: refused exits 1" || not_ok "json: refused exits 1 (exit $rc)"
# Names that need escaping in JSON.
odd=$work/'we"ird\name	tab.efi'
cp "$work/leaf.efi" "$odd"
json_check "json: image name with a quote, a backslash and a tab is escaped" \
	'j["verdict"] == "allowed"' -- verify --db "$work/root.esl" "$odd"
sbsign_as "$keys/odd" "$unsigned" "$work/odd-signer.efi"
odd_cn='odd "quoted" back\slash'
NEEDLE=$odd_cn json_check "json: signer subject with a quote and a backslash is escaped" \
	'j["verdict"] == "allowed" and j["list"] == "vendor" and j["entry"] == "/CN=" + NEEDLE' -- \
	verify --vendor-cert "$keys/odd.der" "$work/odd-signer.efi"
NEEDLE=$odd_cn json_check "json: refused by a subject with a quote in dbx is escaped" \
	'j["verdict"] == "refused" and j["list"] == "dbx" and NEEDLE in j["message"]' -- \
	verify --vendor-cert "$keys/odd.der" --dbx "$keys/odd.crt" "$work/odd-signer.efi"

# ---- --record: the record line, as src/core/verdict_reason.h says ---------------
# expect_record NAME CODE LINE -- ARGS...: verify --record ARGS exits CODE and prints exactly LINE.
expect_record() {
	local name=$1 code=$2 line=$3
	shift 4
	run_cli verify --record "$@"
	if [[ $rc -eq $code && $out == "$line" ]]; then
		ok "$name"
	else
		not_ok "$name (exit $rc, output: $out; want: $line)"
	fi
}
expect_record "record: unsigned image refused, reason=not-signed, no list or entry" 1 \
	"verdict=refused image=$unsigned reason=not-signed" -- --db "$work/root.esl" "$unsigned"
expect_record "record: dbx digest, reason=deny-digest with its list and entry" 1 \
	"verdict=refused image=$work/vendor.efi reason=deny-digest list=dbx entry=$sha256" -- \
	--vendor-cert "$pki/vendor.der" --dbx "$work/hash.esl" "$work/vendor.efi"
expect_record "record: a list and an entry with spaces are quoted" 1 \
	"verdict=refused image=$work/leaf.efi reason=deny-cert list=\"vendor dbx\" entry=\"/CN=$inter_cn\"" -- \
	--db "$work/root.esl" --vendor-dbx "$work/inter.esl" "$work/leaf.efi"
expect_record "record: allowed through a db certificate, reason=allowed-cert" 0 \
	"verdict=allowed image=$work/leaf.efi reason=allowed-cert list=db entry=\"/CN=$root_cn\"" -- \
	--db "$work/root.esl" "$work/leaf.efi"
expect_record "record: a quote, a backslash and a tab in a value are escaped" 0 \
	'verdict=allowed image="'"$work"'/we\"ird\\name\x09tab.efi" reason=allowed-cert list=db entry="/CN='"$root_cn"'"' -- \
	--db "$work/root.esl" "$odd"
run_cli verify --record --json "$unsigned"
[[ $rc -eq 2 ]] && ok "record: --record and --json together is a usage error" ||
	not_ok "record: --record and --json together is a usage error (exit $rc)"

# ---- esl listing -----------------------------------------------------------------
# expect_lines NAME: the last run_cli exited 0 and printed one line per
# regex of the array want, each matching its own (case aside), in order.
expect_lines() {
	local -a lines
	local bad='' i
	mapfile -t lines <<<"$out"
	if [[ $rc -ne 0 || ${#lines[@]} -ne ${#want[@]} ]]; then
		bad="exit $rc, ${#lines[@]} lines for ${#want[@]} entries"
	else
		shopt -s nocasematch
		for i in "${!want[@]}"; do
			[[ ${lines[i]} =~ ${want[i]} ]] || { bad="line $((i + 1)) '${lines[i]}' does not match ${want[i]}"; break; }
		done
		shopt -u nocasematch
	fi
	[[ -z $bad ]] && ok "$1" || not_ok "$1 ($bad; output: $out)"
}
cat "$work/root.esl" "$work/hash.esl" "$work/leaf-tbs256.esl" "$work/hash-sha384.esl" \
	"$work/hash-sha512.esl" "$work/inter-tbs384.esl" "$pki/vendor.esl" >"$work/mixed.esl"
mkesl SHA256 "$work/two-hashes.esl" "$sha256" "$other"
cat "$work/two-hashes.esl" >>"$work/mixed.esl"
run_cli esl "$work/mixed.esl"
g='[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'
# fingerprint ALG DER: "  ALG Fingerprint: aa:bb:..." as esl (and mokutil --list-enrolled) print it
fingerprint() {
	printf '^  %s Fingerprint: %s$' "${1^^}" "$(openssl dgst -"$1" -r "$2" | cut -d' ' -f1 | sed 's/../&:/g; s/:$//')"
}
want=(
	"^X509 +$owner +$(rx "$R")\$" "$(fingerprint sha1 "$keys/root.der")" "$(fingerprint sha256 "$keys/root.der")"
	"^SHA256 +605dab50-e046-4300-abb6-3dd810dd8b23 +$sha256\$"
	"^X509_SHA256 +$owner +$leaf_tbs256\$"
	"^SHA384 +$owner +$sha384\$"
	"^SHA512 +$owner +$sha512\$"
	"^X509_SHA384 +$owner +$(mkesl tbs-hex - sha384 "$keys/inter.der")\$"
	"^X509 +$owner +$(rx "$V")\$" "$(fingerprint sha1 "$pki/vendor.der")" "$(fingerprint sha256 "$pki/vendor.der")"
	"^SHA256 +$owner +$sha256\$"
	"^SHA256 +$owner +$other\$"
)
expect_lines "esl: mixed list (X509, SHA256/384/512, X509_SHA256/384) lists each entry in order"
expect 0 "^X509 +$g +$(rx "$L")"$'\n'"  SHA1 Fingerprint: " "esl: a certificate list from cert-to-efi-sig-list" -- \
	esl "$work/leaf.esl"
# an efivarfs file (4 bytes of attributes first) and a signed update (.auth): their lists, said
{ printf '\x27\x00\x00\x00' && cat "$work/leaf.esl"; } >"$work/leaf-efivarfs"
expect 0 "^# an efivarfs file, attributes 0x27"$'\n'"X509 +$g +$(rx "$L")" "esl: an efivarfs file's lists" -- \
	esl "$work/leaf-efivarfs"
python3 tests/cli/mkefivars.py auth "$work/leaf.auth" "$work/leaf.esl"
expect 0 "^# a signed update \\(\\.auth\\): its payload"$'\n'"X509 +$g +$(rx "$L")" "esl: a signed update's payload" -- \
	esl "$work/leaf.auth"
cat "$work/hash-sha1.esl" "$work/hash-sha224.esl" "$work/leaf-rsa.esl" "$work/leaf-sig256.esl" \
	"$work/leaf-sig1.esl" "$work/unknown.esl" >"$work/new-types.esl"
run_cli esl "$work/new-types.esl"
want=(
	"^SHA1 +$owner +$sha1\$"
	"^SHA224 +$owner +$sha224\$"
	"^RSA2048 +$owner +$(modulus "$keys/leaf.crt")\$"
	"^RSA2048_SHA256 +$owner +$leaf_sig\$"
	"^RSA2048_SHA1 +$owner +$leaf_sig\$"
	"^unknown +$owner +type $unknown_guid: 00112233\$"
	"^unknown +$owner +type $unknown_guid: 44556677\$"
)
expect_lines "esl: SHA1, SHA224, RSA2048, RSA2048_SHA256/SHA1 and an unknown type (with its GUID) listed"
# hash --alg: the Authenticode digest deny lists hold, as osslsigncode computes it
for alg in sha1 sha256 sha384 sha512; do
	expect 0 "^${!alg}\$" "hash: --alg $alg gives the Authenticode ${alg^^} digest (osslsigncode's, hash-to-efi-sig-list's)" -- \
		hash --alg "$alg" "$unsigned"
done
expect 0 "^$sha224\$" "hash: --alg sha224" -- hash --alg sha224 "$work/vendor.efi"
expect 2 . "hash: --alg md5 exits 2" -- hash --alg md5 "$unsigned"
: >"$work/empty.esl"
expect 0 '^$' "esl: an empty file has no entries, exit 0" -- esl "$work/empty.esl"

# The sanitizer build of the CLI (make builds it), for the malformed lists.
san=$BUILD/lockshim-san
[[ -x $san ]] || { not_ok "policy: $san missing (run make)"; san=; }

# malformed NAME: each is rejected (exit 1, a reason), never a crash, with both builds
for m in zero-list-size sig-size-8 sig-size-0 not-multiple past-end huge-list-size huge-list-size-aligned \
	huge-sig-size huge-header-size truncated-header truncated-cert cert-trailing-garbage cert-not-der \
	sha256-sig-size-36 x509-sha256-no-time; do
	f=$work/bad-$m.esl
	mkesl malformed "$f" "$m" "$keys/leaf.der"
	for bin in "$cli" $san; do
		tag=
		[[ $bin == "$san" ]] && tag=" [asan]"
		o=$("$bin" esl "$f" 2>&1)
		r=$?
		if [[ $r -eq 1 && -n $o && ! $o =~ (Sanitizer|runtime\ error) && ! $o =~ ^(X509|SHA) ]]; then
			ok "esl: malformed list ($m) rejected with a reason$tag"
		else
			not_ok "esl: malformed list ($m) rejected with a reason$tag (exit $r, output: $(head -c 600 <<<"$o"))"
		fi
		# A good list first: its entries are still listed.
		cat "$work/leaf.esl" "$f" >"$work/good-then-bad.esl"
		o=$("$bin" esl "$work/good-then-bad.esl" 2>&1)
		r=$?
		if [[ $r -eq 1 && $o =~ X509\ +$g\ +$(rx "$L") && ! $o =~ (Sanitizer|runtime\ error) ]]; then
			ok "esl: good list then malformed ($m): good entry listed, exit 1$tag"
		else
			not_ok "esl: good list then malformed ($m): good entry listed, exit 1$tag (exit $r, output: $(head -c 600 <<<"$o"))"
		fi
		# verify with it as dbx: any exit code but no crash
		o=$("$bin" verify --vendor-cert "$pki/vendor.der" --dbx "$f" "$work/vendor.efi" 2>&1)
		r=$?
		if [[ $r -le 2 && ! $o =~ (Sanitizer|runtime\ error) ]]; then
			ok "verify: malformed list ($m) as --dbx does not crash (exit $r)$tag"
		else
			not_ok "verify: malformed list ($m) as --dbx does not crash$tag (exit $r, output: $(head -c 600 <<<"$o"))"
		fi
	done
done
# Deny lists fail closed, as in the loader (verify_policy_list_loaded): a --dbx,
# --vendor-dbx or --mokx file that loses a list to parsing refuses every image,
# even one db trusts; a --db file that loses one only trusts less.
mkesl malformed "$work/bad-sig36.esl" sha256-sig-size-36 "$keys/leaf.der"
cat "$work/other-hash.esl" "$work/bad-sig36.esl" >"$work/other-then-bad.esl"
for deny in dbx:dbx vendor-dbx:'vendor dbx' mokx:MokListX; do
	expect 1 "refused: [^:]*: deny list ${deny#*:} is unusable: 1 signature list\\(s\\) rejected: " \
		"policy: --${deny%%:*} losing a list to parsing refuses a trusted image (fail closed)" -- \
		verify --db "$work/root.esl" "--${deny%%:*}" "$work/other-then-bad.esl" "$work/leaf.efi"
done
expect 0 "1 signature list\\(s\\) rejected: .*allowed: " \
	"policy: --db losing a list to parsing only trusts less (printed)" -- \
	verify --db "$work/other-then-bad.esl" --db "$work/root.esl" "$work/leaf.efi"

# Signatures over a non-SHA-2 image digest are refused (and do not leak).
for alg in sha1 md5; do
	if osslsigncode sign -h "$alg" -certs "$pki/vendor.crt" -key "$pki/vendor.key" \
		-in "$unsigned" -out "$work/vendor-$alg.efi" >/dev/null 2>&1; then
		for bin in "$cli" $san; do
			tag=
			[[ $bin == "$san" ]] && tag=" [asan]"
			o=$("$bin" verify --vendor-cert "$pki/vendor.der" "$work/vendor-$alg.efi" 2>&1)
			r=$?
			if [[ $r -eq 1 && $o =~ ^refused: && ! $o =~ (Sanitizer|runtime\ error) ]]; then
				ok "verify: vendor signature over a ${alg^^} image digest refused$tag"
			else
				not_ok "verify: vendor signature over a ${alg^^} image digest refused$tag (exit $r, output: $(head -c 600 <<<"$o"))"
			fi
		done
	else
		not_ok "policy: osslsigncode -h $alg"
	fi
done

# A malformed list whose own size is usable is skipped whole; the walk goes on.
cat "$work/bad-sha256-sig-size-36.esl" "$work/leaf.esl" >"$work/bad-then-good.esl"
expect 1 "X509 +$g +$(rx "$L")" "esl: malformed list of usable size then good list: good entry listed, exit 1" -- \
	esl "$work/bad-then-good.esl"

# ---- unusable arguments: exit 2 ----------------------------------------------------
echo "hello, not a list" >"$work/text.txt"
expect 2 . "args: missing --db file exits 2" -- verify --db "$work/absent.esl" "$work/leaf.efi"
expect 2 . "args: missing --dbx file exits 2" -- verify --db "$work/root.esl" --dbx "$work/absent.esl" "$work/leaf.efi"
expect 2 . "args: unknown option exits 2" -- verify --frobnicate "$work/root.esl" "$work/leaf.efi"
expect 2 . "args: --db without a file exits 2" -- verify --db
expect 2 . "args: text file as --db (neither ESL nor certificate) exits 2" -- \
	verify --db "$work/text.txt" "$work/leaf.efi"
expect 2 . "args: text file as --dbx exits 2" -- \
	verify --db "$work/root.esl" --dbx "$work/text.txt" "$work/leaf.efi"
expect 2 . "args: PE image as --mok (neither ESL nor certificate) exits 2" -- \
	verify --mok "$unsigned" "$work/leaf.efi"
expect 2 . "args: missing image exits 2" -- verify --db "$work/root.esl" "$work/absent.efi"
expect 2 . "args: two images exit 2" -- verify --db "$work/root.esl" "$work/leaf.efi" "$work/leaf.efi"
expect 2 . "args: unknown command exits 2" -- frobnicate "$work/leaf.efi"
o2=$("$cli" verify --db "$work/text.txt" "$work/leaf.efi" 2>/dev/null)
[[ -z $o2 ]] && ok "args: the exit-2 message goes to stderr, not stdout" ||
	not_ok "args: the exit-2 message goes to stderr, not stdout (stdout: $o2)"

exit $failed
