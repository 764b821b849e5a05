#!/usr/bin/env bash
# build/lockshim against three independent signing tools.
#
# Two base images: lockshim's own EFI binary and, when it can be had, Debian's
# stock kernel (8 MB, signed by Debian; its signature is removed first). Each
# is signed with sbsign, osslsigncode (SHA-256, SHA-384, SHA-512) and pesign
# (an NSS database made here, the keys imported with pk12util), by the vendor
# key and by the rogue key. Then:
#   - `lockshim verify --vendor-cert vendor.der` allows every vendor-signed
#     image (naming signer and anchor) and refuses every rogue-signed one;
#   - its verdict agrees with sbverify --cert vendor.crt (sbverify reads only
#     SHA-256 signatures, so osslsigncode verify is the reference for the
#     SHA-384/512 ones);
#   - `lockshim hash` equals the digest hash-to-efi-sig-list writes (the last
#     32 bytes of its ESL) and pesign -h prints, and does not depend on which
#     tool signed the image;
#   - nested signatures (osslsigncode -nest) are found: rogue outer signature
#     with a vendor nested one is allowed, and the reverse too;
#   - Debian's own signature verifies against its signing certificate
#     (--no-sbat: bookworm's kernel carries no .sbat, so lockshim, like shim
#     16.1, refuses it otherwise, and says so).
# Everything is made under build/cli-interop/ (rebuilt on each run).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
work=$BUILD/cli-interop

# ---- prerequisites -----------------------------------------------------------
missing=()
for tool in sbsign sbverify sbattach osslsigncode pesign certutil pk12util hash-to-efi-sig-list openssl; do
	command -v "$tool" >/dev/null || missing+=("$tool")
done
if (( ${#missing[@]} )); then
	not_ok "interop: tools missing: ${missing[*]} (apt-get install -y sbsigntool osslsigncode pesign libnss3-tools efitools)"
	exit 1
fi
[[ -x $cli ]] || { not_ok "interop: $cli missing (run make)"; exit 1; }
[[ -f $BUILD/lockshimx64.efi ]] || { not_ok "interop: $BUILD/lockshimx64.efi missing (run make)"; exit 1; }
tests/pki.sh "$pki" || { not_ok "interop: tests/pki.sh failed"; exit 1; }

rm -rf "$work" && mkdir -p "$work"

# unsign IN OUT: copy IN without any signature (sbattach removes one per call).
unsign() {
	cp "$1" "$2"
	for _ in 1 2 3 4 5 6 7 8; do
		sbattach --remove "$2" >/dev/null 2>&1 || break
	done
}

bases=(efi)
# lockshim's binary carries data after its last section and its size is not a
# multiple of 8. Signing tools pad the file to 8 bytes before appending the
# certificate table, so a signed image hashes as the padded file does. Use
# the padded form as "unsigned" so that every tool agrees on its digest; the
# unpadded file is looked at separately below.
cp "$BUILD/lockshimx64.efi" "$work/efi.unaligned.efi"
unsign "$work/efi.unaligned.efi" "$work/efi.unsigned.efi"
size=$(stat -c %s "$work/efi.unsigned.efi")
truncate -s $(( (size + 7) / 8 * 8 )) "$work/efi.unsigned.efi"

kernel=$BUILD/qemu/vmlinuz-debian
if [[ ! -s $kernel ]]; then
	tests/qemu/debian-kernel.sh "$kernel" >/dev/null || true
fi
if [[ -s $kernel ]]; then
	unsign "$kernel" "$work/kernel.unsigned.efi"
	bases+=(kernel)
else
	not_ok "interop: no Debian kernel at $kernel (tests/qemu/debian-kernel.sh failed)"
fi

# NSS database for pesign, with the vendor and rogue keys.
nss=$work/nss
mkdir -p "$nss"
certutil -N -d "sql:$nss" --empty-password >/dev/null 2>&1 || not_ok "interop: certutil -N"
for signer in vendor rogue; do
	openssl pkcs12 -export -inkey "$pki/$signer.key" -in "$pki/$signer.crt" -name "$signer" \
		-passout pass: -out "$work/$signer.p12" 2>/dev/null &&
		pk12util -i "$work/$signer.p12" -d "sql:$nss" -W '' >/dev/null 2>&1 ||
		not_ok "interop: import $signer key into NSS database"
done

# sign TOOL SIGNER IN OUT
sign() {
	local tool=$1 signer=$2 in=$3 out=$4
	case $tool in
	sbsign)
		sbsign --key "$pki/$signer.key" --cert "$pki/$signer.crt" --output "$out" "$in" ;;
	ossl256 | ossl384 | ossl512)
		osslsigncode sign -h "sha${tool#ossl}" -certs "$pki/$signer.crt" -key "$pki/$signer.key" \
			-in "$in" -out "$out" ;;
	pesign)
		pesign -s -c "$signer" -n "$nss" -i "$in" -o "$out" ;;
	esac
}

tools=(sbsign ossl256 ossl384 ossl512 pesign)
for base in "${bases[@]}"; do
	for tool in "${tools[@]}"; do
		for signer in vendor rogue; do
			out=$work/$base.$tool.$signer.efi
			if ! sign "$tool" "$signer" "$work/$base.unsigned.efi" "$out" >"$work/sign.log" 2>&1; then
				not_ok "interop: $tool could not sign $base with $signer: $(tail -n 3 "$work/sign.log")"
				rm -f "$out"
			fi
		done
	done
done

# ---- verify, and agreement with sbverify / osslsigncode verify ----------------
# reference_verdict TOOL IMAGE: 0 if the reference accepts IMAGE signed by the vendor.
reference_verdict() {
	case $1 in
	ossl384 | ossl512)
		osslsigncode verify -CAfile "$pki/vendor.crt" -in "$2" >/dev/null 2>&1 ;;
	*)
		sbverify --cert "$pki/vendor.crt" "$2" >/dev/null 2>&1 ;;
	esac
}

# agree NAME REFERENCE-NAME REF-RC IMAGE: lockshim's verdict matches the reference's.
agree() {
	local name=$1 refname=$2 refrc=$3 image=$4 out rc
	out=$("$cli" verify --vendor-cert "$pki/vendor.der" "$image" 2>&1)
	rc=$?
	if [[ ($rc -eq 0 && $refrc -eq 0) || ($rc -eq 1 && $refrc -ne 0) ]]; then
		ok "$name"
	else
		not_ok "$name ($refname exit $refrc; lockshim exit $rc: $out)"
	fi
}

allowed_by_vendor='^allowed: [^:]*: signed by /CN=lockshim test vendor, trusted through vendor certificate /CN=lockshim test vendor$'
for base in "${bases[@]}"; do
	for tool in "${tools[@]}"; do
		case $tool in ossl384 | ossl512) ref="osslsigncode verify" ;; *) ref=sbverify ;; esac
		img=$work/$base.$tool.vendor.efi
		if [[ -f $img ]]; then
			expect 0 "$allowed_by_vendor" "interop: $base signed by $tool (vendor key) allowed" -- \
				verify --vendor-cert "$pki/vendor.der" "$img"
			reference_verdict "$tool" "$img"
			agree "interop: $base signed by $tool (vendor key): lockshim agrees with $ref" "$ref" $? "$img"
		fi
		img=$work/$base.$tool.rogue.efi
		if [[ -f $img ]]; then
			expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
				"interop: $base signed by $tool (rogue key) refused" -- \
				verify --vendor-cert "$pki/vendor.der" "$img"
			reference_verdict "$tool" "$img"
			agree "interop: $base signed by $tool (rogue key): lockshim agrees with $ref" "$ref" $? "$img"
		fi
	done
	expect 1 '^refused: [^:]*: image is not signed' "interop: $base unsigned refused" -- \
		verify --vendor-cert "$pki/vendor.der" "$work/$base.unsigned.efi"
done

# Debian's kernel as Debian signed it: trusted through its own signing
# certificate (taken from the signature), refused with only our vendor.
if [[ -s $kernel ]] && tests/qemu/debian-kernel.sh --as-shipped "$work/kernel.debian.efi" >/dev/null; then
	if osslsigncode extract-signature -in "$work/kernel.debian.efi" -out "$work/debian.p7" >/dev/null 2>&1 &&
		openssl pkcs7 -inform DER -in "$work/debian.p7" -print_certs 2>/dev/null |
		openssl x509 -out "$work/debian-signer.pem" 2>/dev/null; then
		subject=$(openssl x509 -in "$work/debian-signer.pem" -noout -subject -nameopt compat 2>/dev/null)
		subject=${subject#subject=}
		expect 0 "^allowed: [^:]*: signed by ${subject}, trusted through vendor certificate ${subject}\$" \
			"interop: Debian-signed kernel allowed through its signing certificate" -- \
			verify --no-sbat --vendor-cert "$work/debian-signer.pem" "$work/kernel.debian.efi"
		expect 1 '^refused: [^:]*: image has no \.sbat section \(SBAT is required\)$' \
			"interop: Debian-signed kernel refused without --no-sbat: it has no .sbat" -- \
			verify --vendor-cert "$work/debian-signer.pem" "$work/kernel.debian.efi"
		expect 0 "^allowed: [^:]*: signed by ${subject}, trusted through vendor certificate ${subject}\$" \
			"interop: Debian-signed kernel allowed as GRUB asks for it (--shim-lock: no .sbat needed)" -- \
			verify --shim-lock --vendor-cert "$work/debian-signer.pem" "$work/kernel.debian.efi"
		sbverify --cert "$work/debian-signer.pem" "$work/kernel.debian.efi" >/dev/null 2>&1
		refrc=$?
		out=$("$cli" verify --no-sbat --vendor-cert "$work/debian-signer.pem" "$work/kernel.debian.efi" 2>&1)
		rc=$?
		if [[ ($rc -eq 0 && $refrc -eq 0) || ($rc -eq 1 && $refrc -ne 0) ]]; then
			ok "interop: Debian-signed kernel: lockshim agrees with sbverify"
		else
			not_ok "interop: Debian-signed kernel: lockshim agrees with sbverify (sbverify exit $refrc; lockshim exit $rc: $out)"
		fi
	else
		not_ok "interop: cannot extract Debian's signing certificate from $kernel"
	fi
	expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
		"interop: Debian-signed kernel refused with only the vendor certificate" -- \
		verify --no-sbat --vendor-cert "$pki/vendor.der" "$work/kernel.debian.efi"
	sbverify --cert "$pki/vendor.crt" "$work/kernel.debian.efi" >/dev/null 2>&1
	agree "interop: Debian-signed kernel with the vendor certificate: lockshim agrees with sbverify" \
		sbverify $? "$work/kernel.debian.efi"
fi

# ---- a gap between sections ------------------------------------------------------
# Data after the last section (objcopy's COFF symbol table) and then one more
# section: the Authenticode specification hashes the remainder from
# SUM_OF_BYTES_HASHED, not from the end of the last section; sbsign and the
# firmware do, and so must lockshim.
objcopy -j .text -j .data -j .dynamic -j .rodata -j .rela -j .reloc -j .sbat \
	--target efi-app-x86_64 --subsystem=10 "$BUILD/mmx64.so" "$work/gap.base.efi" 2>/dev/null &&
	python3 - "$work/gap.base.efi" "$work/gap.unsigned.efi" <<'PY' &&
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
pe = struct.unpack_from("<I", d, 0x3c)[0]
coff, n = pe + 4, struct.unpack_from("<H", d, pe + 6)[0]
opt = coff + 20
table = opt + struct.unpack_from("<H", d, coff + 16)[0]
falign, salign = struct.unpack_from("<I", d, opt + 36)[0], struct.unpack_from("<I", d, opt + 32)[0]
assert struct.unpack_from("<I", d, coff + 8)[0], "expected a COFF symbol table after the sections"
raw = -(-len(d) // falign) * falign
d += bytes(raw - len(d)) + b"gap test\n" + bytes(falign - 9)
va = -(-struct.unpack_from("<I", d, opt + 56)[0] // salign) * salign
struct.pack_into("<8sIIIIIIHHI", d, table + 40 * n, b".gap", 9, va, falign, raw, 0, 0, 0, 0, 0x40000040)
struct.pack_into("<H", d, coff + 2, n + 1)
struct.pack_into("<I", d, opt + 56, va + salign)
open(sys.argv[2], "wb").write(d)
PY
	sign sbsign vendor "$work/gap.unsigned.efi" "$work/gap.sbsign.vendor.efi" >/dev/null 2>&1 ||
	not_ok "interop: could not make an image with a gap between sections"
if [[ -f $work/gap.sbsign.vendor.efi ]]; then
	sbverify --cert "$pki/vendor.crt" "$work/gap.sbsign.vendor.efi" >/dev/null 2>&1
	agree "interop: gap between sections: lockshim agrees with sbverify" sbverify $? "$work/gap.sbsign.vendor.efi"
	expect 0 "$allowed_by_vendor" "interop: gap between sections: signed by the vendor, allowed" -- \
		verify --vendor-cert "$pki/vendor.der" "$work/gap.sbsign.vendor.efi"
fi

# ---- nested signatures -----------------------------------------------------------
for base in "${bases[@]}"; do
	for outer in rogue vendor; do
		[[ $outer == rogue ]] && inner=vendor || inner=rogue
		img=$work/$base.nested.$outer-$inner.efi
		if osslsigncode sign -h sha256 -certs "$pki/$outer.crt" -key "$pki/$outer.key" \
			-in "$work/$base.unsigned.efi" -out "$work/tmp.efi" >/dev/null 2>&1 &&
			osslsigncode sign -nest -h sha256 -certs "$pki/$inner.crt" -key "$pki/$inner.key" \
				-in "$work/tmp.efi" -out "$img" >/dev/null 2>&1; then
			expect 0 "$allowed_by_vendor" \
				"interop: $base with a $outer signature and a nested $inner one (osslsigncode -nest) allowed" -- \
				verify --vendor-cert "$pki/vendor.der" "$img"
		else
			not_ok "interop: osslsigncode -nest on $base ($outer then $inner)"
		fi
		rm -f "$work/tmp.efi"
	done
done
# Nested, but nobody trusted: still refused.
img=$work/efi.nested.rogue-rogue.efi
osslsigncode sign -h sha256 -certs "$pki/rogue.crt" -key "$pki/rogue.key" \
	-in "$work/efi.unsigned.efi" -out "$work/tmp.efi" >/dev/null 2>&1 &&
	osslsigncode sign -nest -h sha384 -certs "$pki/rogue.crt" -key "$pki/rogue.key" \
		-in "$work/tmp.efi" -out "$img" >/dev/null 2>&1
rm -f "$work/tmp.efi"
expect 1 '^refused: [^:]*: signer does not chain to a trusted certificate' \
	"interop: efi with two rogue signatures (one nested) refused" -- \
	verify --vendor-cert "$pki/vendor.der" "$img"

# ---- hash ------------------------------------------------------------------------
# first_token TEXT: the first word of TEXT
first_token() { local a _; read -r a _ <<<"$1"; echo "$a"; }

# check_hash NAME IMAGE: lockshim hash == hash-to-efi-sig-list == pesign -h; sets $lhash.
check_hash() {
	local name=$1 image=$2 out rc esl pes
	out=$("$cli" hash "$image" 2>&1)
	rc=$?
	lhash=$(first_token "$out")
	if [[ $rc -ne 0 || ! $lhash =~ ^[0-9a-f]{64}$ ]]; then
		not_ok "$name: lockshim hash prints a lower-case SHA-256 (exit $rc, output: $out)"
		lhash=
		return
	fi
	# hash-to-efi-sig-list (efitools 1.9.2) cannot hash a signed image that
	# has data after its last section (lockshim's own binary): it prints
	# "Failed to get hash", writes a zero digest and exits 0.
	local efierr
	efierr=$(hash-to-efi-sig-list "$image" "$work/hash.esl" 2>&1)
	esl=$(tail -c 32 "$work/hash.esl" 2>/dev/null | od -An -v -tx1 | tr -d ' \n')
	pes=$(pesign -h -i "$image" 2>/dev/null | sed -n 's/^hash: \([0-9a-f]*\)$/\1/p')
	if [[ $efierr == *"Failed to get hash"* ]]; then
		# no comparison made: not a pass; pesign's below still is one
		echo "# $name: hash-to-efi-sig-list cannot hash this image ($efierr): compared with pesign alone"
	elif [[ $lhash == "$esl" ]]; then
		ok "$name: lockshim hash equals hash-to-efi-sig-list"
	else
		not_ok "$name: lockshim hash equals hash-to-efi-sig-list (lockshim $lhash, efitools ${esl:-none})"
	fi
	if [[ $lhash == "$pes" ]]; then
		ok "$name: lockshim hash equals pesign -h"
	else
		not_ok "$name: lockshim hash equals pesign -h (lockshim $lhash, pesign ${pes:-none})"
	fi
}

for base in "${bases[@]}"; do
	check_hash "hash: $base unsigned" "$work/$base.unsigned.efi"
	want=$lhash
	for img in "$work/$base".*.vendor.efi "$work/$base".nested.*.efi; do
		[[ -f $img ]] || continue
		name=${img##*/}
		name=${name%.efi}
		out=$("$cli" hash "$img" 2>&1)
		got=$(first_token "$out")
		if [[ -n $want && $got == "$want" ]]; then
			ok "hash: $name has the digest of $base unsigned"
		else
			not_ok "hash: $name has the digest of $base unsigned (want ${want:-?}, got: $out)"
		fi
	done
	check_hash "hash: $base signed by pesign" "$work/$base.pesign.vendor.efi"
	check_hash "hash: $base signed by osslsigncode -h sha384" "$work/$base.ossl384.vendor.efi"
done
[[ -s $kernel ]] && check_hash "hash: Debian-signed kernel" "$work/kernel.debian.efi"

# The unpadded binary (size not a multiple of 8): the tools disagree here.
# pesign hashes the file as it is (as EDK2 does for an unsigned image);
# hash-to-efi-sig-list pads it to 8 bytes first, which gives the digest of
# the signed image. Either is defensible: require one of them, and say which.
out=$("$cli" hash "$work/efi.unaligned.efi" 2>&1)
rc=$?
got=$(first_token "$out")
pes=$(pesign -h -i "$work/efi.unaligned.efi" 2>/dev/null | sed -n 's/^hash: \([0-9a-f]*\)$/\1/p')
esl=$(hash-to-efi-sig-list "$work/efi.unaligned.efi" "$work/hash.esl" >/dev/null 2>&1 &&
	tail -c 32 "$work/hash.esl" | od -An -v -tx1 | tr -d ' \n')
if [[ $rc -eq 0 && $got == "$pes" ]]; then
	ok "hash: unpadded efi (size $(stat -c %s "$work/efi.unaligned.efi")) hashed as pesign does (file as is)"
elif [[ $rc -eq 0 && $got == "$esl" ]]; then
	ok "hash: unpadded efi (size $(stat -c %s "$work/efi.unaligned.efi")) hashed as hash-to-efi-sig-list does (padded to 8)"
else
	not_ok "hash: unpadded efi hashed as pesign ($pes) or hash-to-efi-sig-list ($esl) does (exit $rc: $out)"
fi

head -c 100 "$work/efi.unsigned.efi" >"$work/truncated.efi"
out=$("$cli" hash "$work/truncated.efi" 2>&1)
rc=$?
if [[ $rc -eq 1 && -n $out && ! $out =~ ^[0-9a-f]{64} ]]; then
	ok "hash: truncated image exits 1 with a reason"
else
	not_ok "hash: truncated image exits 1 with a reason (exit $rc, output: $out)"
fi

exit $failed
