#!/usr/bin/env bash
# SBAT on the host: `lockshim add-sbat CSV IMAGE OUT` (pe_add_section) and
# `lockshim verify [--sbat-level FILE] IMAGE` (sbat_parse, sbat_check and,
# without --sbat-level, the automatic level built into lockshim from
# certs/sbat-level-automatic.csv).
#
# The test image is lockshim's own EFI binary without its .sbat,
# .sbatlevel, .vendor_cert and .ldrname sections and without its COFF
# symbol table (objcopy), so that add-sbat appends to an image that ends
# with its last section (the long names .sbatlevel and .vendor_cert live in
# the string table after it, which add-sbat drops with the symbol table). (Appended
# after trailing data, the new section would leave that data between two
# sections, where lockshim's Authenticode digest and sbsign's differ: pe.c
# hashes what follows the last section from its end, the Authenticode
# specification and sbsign from SUM_OF_BYTES_HASHED.) It gets a
# .sbat with add-sbat, is signed with scripts/sign.sh by the test vendor key,
# and checked against levels written here. Malformed .sbat sections are made
# by editing the unsigned image's section bytes before signing; an image with
# two .sbat sections by renaming the first while add-sbat adds the second.
#
# Every case runs with build/lockshim and with build/lockshim-san (ASan and
# UBSan), which must never report anything.
#
# Everything is made under build/cli-sbat/ (rebuilt each run).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
work=$BUILD/cli-sbat
plain=$cli
san=$BUILD/lockshim-san

# ---- prerequisites -------------------------------------------------------------
for tool in objcopy objdump sbsign sbverify sbattach hash-to-efi-sig-list openssl od dd cmp; do
	command -v "$tool" >/dev/null || { not_ok "sbat: $tool missing"; exit 1; }
done
[[ -x $cli ]] || { not_ok "sbat: $cli missing (run make)"; exit 1; }
[[ -x $san ]] || { not_ok "sbat: $san missing (run make)"; exit 1; }
[[ -f $BUILD/lockshimx64.efi ]] || { not_ok "sbat: $BUILD/lockshimx64.efi missing (run make)"; exit 1; }
tests/pki.sh "$pki" || { not_ok "sbat: tests/pki.sh failed"; exit 1; }

rm -rf "$work" && mkdir -p "$work"

# u16/u32 FILE OFFSET: a little-endian field
u16() { od -An -tu2 -j "$2" -N 2 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }
# put_bytes FILE OFFSET STRING: overwrite bytes (printf escapes allowed)
put_bytes() { printf '%b' "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# put_u32 FILE OFFSET VALUE
put_u32() {
	put_bytes "$1" "$2" "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($3 & 255)) $(($3 >> 8 & 255)) \
		$(($3 >> 16 & 255)) $(($3 >> 24 & 255)))"
}
# offset_of FILE STRING: the byte offset of STRING's only occurrence, or nothing
offset_of() {
	local hits
	hits=$(grep -obUaF -- "$2" "$1" | cut -d: -f1)
	[[ $(wc -l <<<"$hits") -eq 1 ]] && echo "$hits"
}
# noise N SEED: N pseudo-random bytes, the same on every run
noise() {
	openssl enc -aes-128-ctr -nosalt -K "$(printf '%032x' "$2")" -iv 0 </dev/zero 2>/dev/null | head -c "$1"
}
sign() { # IN OUT [KEY]
	scripts/sign.sh --key "$pki/${3:-vendor}.key" --cert "$pki/${3:-vendor}.crt" --output "$2" "$1" \
		>/dev/null 2>&1
}

# ---- the base image ----------------------------------------------------------------
base=$work/base.efi
objcopy --remove-section .sbat --remove-section .sbatlevel --remove-section .vendor_cert \
	--remove-section .ldrname --strip-all "$BUILD/lockshimx64.efi" "$base" ||
	{ not_ok "sbat: objcopy could not strip $BUILD/lockshimx64.efi"; exit 1; }
run_cli hash "$base"
if [[ $rc -eq 0 && $out =~ ^[0-9a-f]{64}$ ]] && ! objdump -h "$base" | grep -E "^ +[0-9]+ +\.sbat" >/dev/null; then
	ok "sbat: test image without .sbat is a valid PE (lockshim hash)"
else
	not_ok "sbat: test image without .sbat is a valid PE (exit $rc, output: $out)"
	exit 1
fi
# An input that cannot seek or say its size (a pipe; efivarfs is another)
# is read to its end, the same bytes as from the file.
file_hash=$out
out=$("$cli" hash /dev/stdin 2>&1 < <(cat "$base"))
if [[ $out == "$file_hash" ]]; then
	ok "sbat: an image read from a pipe hashes as the file"
else
	not_ok "sbat: an image read from a pipe hashes as the file ($out, want $file_hash)"
fi
lfanew=$(u32 "$base" 60)
opt=$((lfanew + 24))
opt_size=$(u16 "$base" $((lfanew + 20)))
n_sections=$(u16 "$base" $((lfanew + 6)))
headers_size=$(u32 "$base" $((opt + 60)))
table_end=$((opt + opt_size + 40 * n_sections))

# ---- CSV and level files ------------------------------------------------------------
csv=$work/sbat.csv
cat >"$csv" <<'EOF'
sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md
linux,1,The Linux Kernel Organization,linux,6.12,https://www.kernel.org/
lockshim-cli-test,7,lockshim developers,lockshim-cli-test,1,https://lockshim.invalid/
EOF
level() { # NAME LINES...: a level file
	local f=$work/level-$1.csv
	shift
	printf '%s\n' "$@" >"$f"
}
level linux2 sbat,1,2030010100 shim,4 linux,2
level test8 sbat,1,2030010100 lockshim-cli-test,8
level test7 sbat,1,2030010100 lockshim-cli-test,7 linux,1
level test6 sbat,1,2030010100 lockshim-cli-test,6
level sbat2 sbat,2,2030010100
level others sbat,1,2030010100 shim,99 grub,99 linux.lockshim,99 LINUX,99
level original sbat,1,2021030218
printf 'sbat,1,2030010100\r\nlinux,2\r\n' >"$work/level-crlf.csv"
printf 'sbat,1,2030010100\nlinux,1\n\0\0\0\0\0\0\0\0' >"$work/level-padded.csv"
# malformed levels: each is an unusable --sbat-level (exit 2)
level no-header shim,4 grub,5
level header-second shim,4,2025021800 sbat,1,2025021800
level header-2-fields sbat,1
level bad-datestamp sbat,1,2025-02-18
level bad-generation sbat,1,2025021800 grub,five
level negative sbat,1,2025021800 grub,-1
level huge-generation sbat,1,2025021800 grub,4294967296
level 11-digits sbat,1,2025021800 grub,00000000001
level empty-name sbat,1,2025021800 ,5
level one-field sbat,1,2025021800 grub
: >"$work/level-empty.csv"
printf '\n\r\n\n' >"$work/level-blank.csv"
printf 'sbat,1,2025021800\n\0grub,9\n' >"$work/level-nul-then-text.csv"
printf 'sbat,1,2025021800\ngrub,5\x01\n' >"$work/level-control.csv"
printf 'sbat,1,2025021800\ngr\xc3\xbcb,5\n' >"$work/level-utf8.csv"
cp "$csv" "$work/level-section.csv"
{ echo sbat,1,2025021800; head -c 300 /dev/zero | tr '\0' g; echo ,1; } >"$work/level-long-field.csv"
{ echo sbat,1,2025021800; for i in $(seq 1 600); do echo "c$i,1"; done; } >"$work/level-513.csv"
{ echo sbat,1,2025021800; head -c 70000 /dev/zero | tr '\0' '\n'; } >"$work/level-64k.csv"
noise 4096 1 >"$work/level-random.csv"
malformed_levels=(no-header header-second header-2-fields bad-datestamp bad-generation negative
	huge-generation 11-digits empty-name one-field empty blank nul-then-text control utf8 section
	long-field 513 64k random)

# malformed .sbat CSVs, each a small edit of the good one (sed EXPRESSION)
csvf() { # NAME SED-EXPRESSION
	sed -e "$2" "$csv" >"$work/csv-$1.csv"
}
csvf no-header '1d'
csvf header-second '1{h;d};2G'
csvf header-SBAT '1s/^sbat/SBAT/'
csvf five-fields '2s/,[^,]*$//'
csvf empty-name '2s/^linux//'
csvf generation-x '2s/,1,/,x,/'
csvf generation-negative '2s/,1,/,-1,/'
csvf generation-empty '2s/,1,/,,/'
csvf generation-11-digits '2s/,1,/,00000000001,/'
csvf generation-2pow32 '2s/,1,/,4294967296,/'
csvf generation-hex '2s/,1,/,0x1,/'
csvf tab '2s/ /\t/'
csvf lone-cr '2s/ /\r/'
csvf utf8 '2s/Linux/L\xc3\xafnux/'
csvf long-field "2s/,linux,/,$(head -c 257 /dev/zero | tr '\0' l),/"
csvf long-line "2s/\$/$(for i in 1 2 3 4 5; do printf ',%s' "$(head -c 200 /dev/zero | tr '\0' u)"; done)/"
: >"$work/csv-empty.csv"
printf '\n\r\n\n' >"$work/csv-blank.csv"
{ cat "$csv"; printf '\0grub,1,a,b,c,d\n'; } >"$work/csv-nul-then-text.csv"
{ cat "$csv"; for i in $(seq 1 520); do echo "c$i,1,a,b,c,d"; done; } >"$work/csv-513-records.csv"
{ cat "$csv"; head -c 66000 /dev/zero | tr '\0' '\n'; } >"$work/csv-64k.csv"
noise 4096 2 >"$work/csv-random.csv"
cp certs/sbat-level-automatic.csv "$work/csv-level.csv"
malformed_csvs=(no-header header-second header-SBAT five-fields empty-name generation-x
	generation-negative generation-empty generation-11-digits generation-2pow32 generation-hex tab
	lone-cr utf8 long-field long-line empty blank nul-then-text 513-records 64k random level)

# ---- images --------------------------------------------------------------------------
# with.efi: base + .sbat (unsigned); vendor.efi: signed
"$plain" add-sbat "$csv" "$base" "$work/with.efi" >/dev/null 2>&1 || not_ok "sbat: add-sbat base.efi"
sign "$work/with.efi" "$work/vendor.efi" || not_ok "sbat: sign.sh with.efi"
sign "$work/with.efi" "$work/rogue.efi" rogue || not_ok "sbat: sign.sh with.efi (rogue)"
sign "$base" "$work/nosbat.efi" || not_ok "sbat: sign.sh base.efi"
sign "$base" "$work/rogue-nosbat.efi" rogue || not_ok "sbat: sign.sh base.efi (rogue)"

# an image whose .sbat has shim 3 and lockshim 0 (automatic revokes shim < 4;
# only the latest level lists lockshim)
printf '%s\n' 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' \
	'shim,3,UEFI shim,shim,1,https://github.com/rhboot/shim' >"$work/shim3.csv"
printf '%s\n' 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' \
	'lockshim,0,lockshim developers,lockshim,0.0,https://lockshim.invalid/' >"$work/lockshim0.csv"
for n in shim3 lockshim0; do
	if ! "$plain" add-sbat "$work/$n.csv" "$base" "$work/$n-unsigned.efi" >/dev/null 2>&1 ||
		! sign "$work/$n-unsigned.efi" "$work/$n.efi"; then
		not_ok "sbat: make $n.efi"
	fi
done

# malformed .sbat sections: edit the section's bytes, then sign
sbat_at=$(offset_of "$work/with.efi" 'sbat,1,SBAT Version,sbat,1,')
gen_at=$(offset_of "$work/with.efi" 'lockshim-cli-test,7,')
if [[ -n $sbat_at && -n $gen_at ]]; then
	ok "sbat: the .sbat text is found once in the image"
else
	not_ok "sbat: the .sbat text is found once in the image ('$sbat_at' '$gen_at')"
fi
gen_at=$((${gen_at:-0} + 18))
mutate() { # NAME OFFSET BYTES
	cp "$work/with.efi" "$work/bad-$1-unsigned.efi"
	put_bytes "$work/bad-$1-unsigned.efi" "$2" "$3"
	sign "$work/bad-$1-unsigned.efi" "$work/bad-$1.efi" || not_ok "sbat: sign bad-$1"
}
mutate generation "$gen_at" 'x'
mutate nul-then-text "$gen_at" '\0'
mutate header "$((sbat_at + 3))" 'X'
mutate control "$((gen_at + 2))" '\x7f'
mutate fields "$((gen_at + 1))" ';'
cp "$work/with.efi" "$work/bad-flip-unsigned.efi"
flip_byte "$work/bad-flip-unsigned.efi" "$((gen_at - 5))"
sign "$work/bad-flip-unsigned.efi" "$work/bad-flip.efi" || not_ok "sbat: sign bad-flip"

# two .sbat sections, the first as with.efi's, the second shim3.csv's (revoked by the
# built-in level): add-sbat adds no second .sbat, so with.efi's, whose header is the
# slot after base.efi's section table, is renamed .sbaX meanwhile
two_ok=
if [[ $(dd if="$work/with.efi" bs=1 skip="$table_end" count=8 status=none | tr -d '\0') == .sbat ]]; then
	cp "$work/with.efi" "$work/two-step.efi"
	put_bytes "$work/two-step.efi" $((table_end + 4)) 'X'
	"$plain" add-sbat "$work/shim3.csv" "$work/two-step.efi" "$work/two-sbat-unsigned.efi" >/dev/null 2>&1 &&
		put_bytes "$work/two-sbat-unsigned.efi" $((table_end + 4)) 't' &&
		sign "$work/two-sbat-unsigned.efi" "$work/two-sbat.efi" &&
		[[ $(objdump -h "$work/two-sbat.efi" | grep -cE '^ +[0-9]+ +\.sbat ') -eq 2 ]] && two_ok=1
fi
if [[ -n $two_ok ]]; then
	ok "sbat: two-sbat.efi has two .sbat sections and is signed"
else
	not_ok "sbat: two-sbat.efi has two .sbat sections and is signed"
fi

# hostile PEs for add-sbat
cp "$base" "$work/pe-in-use.efi"
put_bytes "$work/pe-in-use.efi" "$((table_end + 39))" '\x01'
cp "$base" "$work/pe-no-room.efi"
put_u32 "$work/pe-no-room.efi" $((opt + 60)) $((table_end + 20))
head -c 1000 "$base" >"$work/pe-truncated.efi"
noise 100000 3 >"$work/pe-random.efi"

hash-to-efi-sig-list "$work/vendor.efi" "$work/vendor-digest.esl" >/dev/null ||
	not_ok "sbat: hash-to-efi-sig-list"
automatic=$(head -n 1 certs/sbat-level-automatic.csv | cut -d, -f3)

# lockshim's own generation and the latest level it ships: this release
# (certs/sbat.csv) passes that level, the release one generation back
# (tests/sbat-previous.sh, this tree's code with the older .sbat) does not
gen=$(sed -n 's/^lockshim,\([0-9]*\),.*/\1/p' certs/sbat.csv)
latest=$(head -n 1 certs/sbat-level-latest.csv | cut -d, -f3)
sign "$BUILD/lockshimx64.efi" "$work/lockshim-current.efi" || not_ok "sbat: sign lockshimx64.efi"
if previous=$(tests/sbat-previous.sh "$work/previous" "$pki/vendor.der" 2>"$work/previous.log"); then
	sign "$work/previous/lockshimx64.efi" "$work/lockshim-previous.efi" ||
		not_ok "sbat: sign the previous generation's lockshimx64.efi"
else
	not_ok "sbat: tests/sbat-previous.sh ($(tail -n 3 "$work/previous.log" | tr '\n' ' '))"
fi
# the latest level carries the automatic one forward under a later datestamp
# (a level replaces the stored one whole, and is applied only when newer)
carried=
while IFS=, read -r name g _; do
	[[ $name == sbat ]] && continue
	have=$(sed -n "s/^$name,\([0-9]*\)\$/\1/p" certs/sbat-level-latest.csv)
	[[ -n $have && $have -ge $g ]] || carried="${carried:+$carried, }$name,$g"
done <certs/sbat-level-automatic.csv
if [[ $latest -gt $automatic && -z $carried ]]; then
	ok "sbat: certs/sbat-level-latest.csv ($latest) is newer than the automatic level and carries it forward"
else
	not_ok "sbat: certs/sbat-level-latest.csv ($latest) is newer than the automatic level ($automatic) and carries it forward (missing: $carried)"
fi

# ---- add-sbat ------------------------------------------------------------------------
check_added() { # IN OUT CSV: only header bytes changed, the section holds CSV
	local in=$1 o=$2 c=$3 diffs bad=
	diffs=$(cmp -l "$in" "$o" 2>/dev/null | awk -v h="$headers_size" '$1 > h { n++ } END { print n + 0 }')
	objcopy --dump-section .sbat="$work/dump" "$o" "$work/dump.efi" 2>/dev/null || bad="no .sbat"
	cmp -s "$c" "$work/dump" || bad="${bad:+$bad, }section differs from the CSV"
	[[ $diffs -eq 0 ]] || bad="${bad:+$bad, }$diffs bytes changed after the headers"
	[[ $(stat -c %s "$o") -gt $(stat -c %s "$in") ]] || bad="${bad:+$bad, }not longer"
	echo "$bad"
}

# sx CODE REGEX NAME -- ARGS: expect with the current $cli, and no sanitizer report
sx() {
	local code=$1 regex=$2 name=$3
	shift 4
	run_cli "$@"
	if [[ $rc -eq $code && $out =~ $regex && ! $out =~ (Sanitizer|runtime\ error|LeakSanitizer) ]]; then
		ok "$name$tag"
	else
		not_ok "$name$tag (exit $rc, output: $(head -c 600 <<<"$out"))"
	fi
}

cases() {
	local o=$work/out$suffix.efi m
	local -a v=(verify --vendor-cert "$pki/vendor.der")

	# add-sbat
	rm -f "$o"
	sx 0 '^$' "add-sbat: CSV added to an unsigned image" -- add-sbat "$csv" "$base" "$o"
	m=$(check_added "$base" "$o" "$csv")
	if [[ -z $m ]]; then
		ok "add-sbat: existing bytes kept, .sbat holds the CSV$tag"
	else
		not_ok "add-sbat: existing bytes kept, .sbat holds the CSV$tag ($m)"
	fi
	sx 0 '^[0-9a-f]{64}$' "add-sbat: the result is a valid PE" -- hash "$o"
	sx 2 'already has a section of that name' "add-sbat: a second .sbat refused" -- \
		add-sbat "$csv" "$o" "$o.2"
	sx 2 'already has a section of that name' "add-sbat: lockshimx64.efi (has .sbat) refused" -- \
		add-sbat "$csv" "$BUILD/lockshimx64.efi" "$o.2"
	sx 2 'image is signed' "add-sbat: a signed image refused" -- add-sbat "$csv" "$work/nosbat.efi" "$o.2"
	sx 2 'bytes after the section table are in use' "add-sbat: header slot in use refused" -- \
		add-sbat "$csv" "$work/pe-in-use.efi" "$o.2"
	sx 2 'no room for another section header' "add-sbat: no room before SizeOfHeaders refused" -- \
		add-sbat "$csv" "$work/pe-no-room.efi" "$o.2"
	sx 2 'pe-truncated.efi: ' "add-sbat: truncated image refused" -- \
		add-sbat "$csv" "$work/pe-truncated.efi" "$o.2"
	sx 2 'pe-random.efi: ' "add-sbat: random bytes refused" -- add-sbat "$csv" "$work/pe-random.efi" "$o.2"
	sx 2 'sbat.csv: no MZ' "add-sbat: a CSV as the image refused" -- add-sbat "$csv" "$csv" "$o.2"
	for m in "${malformed_csvs[@]}"; do
		sx 2 "csv-$m\\.csv: not a usable \\.sbat: " "add-sbat: malformed CSV ($m) refused" -- \
			add-sbat "$work/csv-$m.csv" "$base" "$o.2"
	done
	sx 2 'not a usable \.sbat: line 1 has 3 fields, a \.sbat record needs at least 6' \
		"add-sbat: a SbatLevel as the CSV refused, with the reason" -- add-sbat "$work/csv-level.csv" "$base" "$o.2"
	sx 2 "not a usable \\.sbat: line 2: generation 'x' is not a number" \
		"add-sbat: a non-numeric generation refused, with the reason" -- add-sbat "$work/csv-generation-x.csv" "$base" "$o.2"
	sx 2 'No such file|no such file' "add-sbat: missing CSV exits 2" -- add-sbat "$work/absent.csv" "$base" "$o.2"
	sx 2 'No such file|no such file' "add-sbat: missing image exits 2" -- add-sbat "$csv" "$work/absent.efi" "$o.2"
	sx 2 usage "add-sbat: two arguments is a usage error" -- add-sbat "$csv" "$base"
	sx 2 usage "add-sbat: four arguments is a usage error" -- add-sbat "$csv" "$base" "$o.2" extra
	if [[ ! -e $o.2 ]]; then
		ok "add-sbat: nothing written when refused$tag"
	else
		not_ok "add-sbat: nothing written when refused$tag"
	fi

	# verify: the level decides
	sx 0 '^allowed: .*trusted through vendor certificate' "verify: .sbat image, built-in level: allowed" -- \
		"${v[@]}" "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: --sbat-level certs/sbat-level-automatic.csv: allowed" -- \
		"${v[@]}" --sbat-level certs/sbat-level-automatic.csv "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: --sbat-level certs/sbat-level-latest.csv: allowed" -- \
		"${v[@]}" --sbat-level certs/sbat-level-latest.csv "$work/vendor.efi"
	sx 1 '^refused: .*: SBAT revokes component linux generation 1 \(SbatLevel 2030010100 requires 2\)$' \
		"verify: level linux,2 revokes linux 1, naming component and generations" -- \
		"${v[@]}" --sbat-level "$work/level-linux2.csv" "$work/vendor.efi"
	sx 1 '^refused: .*SBAT revokes component lockshim-cli-test generation 7 \(SbatLevel 2030010100 requires 8\)' \
		"verify: level lockshim-cli-test,8 revokes generation 7" -- \
		"${v[@]}" --sbat-level "$work/level-test8.csv" "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: equal generations pass" -- "${v[@]}" --sbat-level "$work/level-test7.csv" "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: a higher generation passes" -- \
		"${v[@]}" --sbat-level "$work/level-test6.csv" "$work/vendor.efi"
	sx 1 '^refused: .*SBAT revokes component sbat generation 1 \(SbatLevel 2030010100 requires 2\)' \
		"verify: level header sbat,2 revokes the image's sbat,1" -- \
		"${v[@]}" --sbat-level "$work/level-sbat2.csv" "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: components absent from the level pass (names exact, case-sensitive)" -- \
		"${v[@]}" --sbat-level "$work/level-others.csv" "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: the original level revokes nothing" -- \
		"${v[@]}" --sbat-level "$work/level-original.csv" "$work/vendor.efi"
	sx 1 '^refused: .*SBAT revokes component linux generation 1' "verify: CRLF level file" -- \
		"${v[@]}" --sbat-level "$work/level-crlf.csv" "$work/vendor.efi"
	sx 0 '^allowed: ' "verify: NUL-padded level file" -- "${v[@]}" --sbat-level "$work/level-padded.csv" "$work/vendor.efi"
	sx 1 '"verdict": "refused", "reason": "sbat-revoked", "list": "SbatLevel", .*"message": "SBAT revokes component linux' \
		"verify --json: SBAT refusal names the SbatLevel list" -- \
		"${v[@]}" --json --sbat-level "$work/level-linux2.csv" "$work/vendor.efi"
	sx 1 '^refused: .*SBAT revokes component linux' "verify: a trusted signature does not override SBAT" -- \
		verify --vendor-cert "$pki/rogue.der" --sbat-level "$work/level-linux2.csv" "$work/rogue.efi"
	sx 1 '^refused: .*SBAT revokes component linux' "verify: SBAT is checked before the allow lists (unsigned)" -- \
		"${v[@]}" --sbat-level "$work/level-linux2.csv" "$work/with.efi"
	sx 1 '^refused: [^:]*: image SHA-256 digest is in dbx' "verify: the deny lists come before SBAT" -- \
		"${v[@]}" --dbx "$work/vendor-digest.esl" --sbat-level "$work/level-linux2.csv" "$work/vendor.efi"
	sx 1 '^refused: .*signer does not chain' "verify: a rogue signature is still refused with a passing level" -- \
		"${v[@]}" --sbat-level "$work/level-test7.csv" "$work/rogue.efi"

	# the built-in (automatic) level
	sx 1 "^refused: .*SBAT revokes component shim generation 3 \\(SbatLevel $automatic requires 4\\)" \
		"verify: no --sbat-level applies the built-in automatic level ($automatic)" -- "${v[@]}" "$work/shim3.efi"
	sx 0 '^allowed: ' "verify: shim 3 passes a level that does not list shim" -- \
		"${v[@]}" --sbat-level "$work/level-test7.csv" "$work/shim3.efi"
	sx 0 '^allowed: ' "verify: lockshim 0 passes the built-in level (automatic, not latest)" -- \
		"${v[@]}" "$work/lockshim0.efi"
	sx 1 "^refused: .*SBAT revokes component lockshim generation 0 .*requires $gen" \
		"verify: lockshim 0 refused by certs/sbat-level-latest.csv" -- \
		"${v[@]}" --sbat-level certs/sbat-level-latest.csv "$work/lockshim0.efi"
	sx 0 '^allowed: ' "verify: this lockshim (generation $gen) passes certs/sbat-level-latest.csv" -- \
		"${v[@]}" --sbat-level certs/sbat-level-latest.csv "$work/lockshim-current.efi"
	sx 1 "^refused: [^:]*: SBAT revokes component lockshim generation $previous \\(SbatLevel $latest requires $gen\\)\$" \
		"verify: lockshim one generation back ($previous) refused by certs/sbat-level-latest.csv" -- \
		"${v[@]}" --sbat-level certs/sbat-level-latest.csv "$work/lockshim-previous.efi"
	sx 0 '^allowed: ' "verify: lockshim one generation back passes the built-in (automatic) level" -- \
		"${v[@]}" "$work/lockshim-previous.efi"

	# no or malformed .sbat
	sx 1 '^refused: .*image has no \.sbat section' "verify: signed image without .sbat refused (built-in level)" -- \
		"${v[@]}" "$work/nosbat.efi"
	sx 1 '^refused: .*image has no \.sbat section' "verify: signed image without .sbat refused (--sbat-level)" -- \
		"${v[@]}" --sbat-level "$work/level-original.csv" "$work/nosbat.efi"
	sx 1 "^refused: .*malformed \\.sbat section: line 3: generation 'x' is not a number" \
		"verify: .sbat with a non-numeric generation refused" -- "${v[@]}" "$work/bad-generation.efi"

	# more than one .sbat section: refused whatever the level and the request (shim 16.1)
	sx 1 '^refused: [^:]*: image has more than one \.sbat section$' \
		"verify: two .sbat sections refused, though the first passes the built-in level" -- \
		"${v[@]}" "$work/two-sbat.efi"
	sx 1 '^refused: [^:]*: image has more than one \.sbat section$' \
		"verify: two .sbat sections refused with a level revoking neither" -- \
		"${v[@]}" --sbat-level "$work/level-original.csv" "$work/two-sbat.efi"
	sx 1 '^refused: [^:]*: image has more than one \.sbat section$' \
		"verify --no-sbat: two .sbat sections still refused" -- "${v[@]}" --no-sbat "$work/two-sbat.efi"
	sx 1 '^refused: [^:]*: image has more than one \.sbat section$' \
		"verify --shim-lock: two .sbat sections refused" -- "${v[@]}" --shim-lock "$work/two-sbat.efi"
	sx 0 '^allowed: ' "verify --no-sbat: one .sbat section allowed (the control)" -- \
		"${v[@]}" --no-sbat "$work/vendor.efi"

	# --shim-lock: a second stage asks (shim's rule: .sbat checked only when present)
	sx 0 '^allowed: .*trusted through vendor certificate' \
		"verify --shim-lock: signed image without .sbat allowed" -- "${v[@]}" --shim-lock "$work/nosbat.efi"
	sx 1 '^refused: .*signer does not chain' "verify --shim-lock: without .sbat a rogue signature still refused" -- \
		"${v[@]}" --shim-lock "$work/rogue-nosbat.efi"
	sx 1 '^refused: .*SBAT revokes component linux generation 1' \
		"verify --shim-lock: a present .sbat is still checked against the level" -- \
		"${v[@]}" --shim-lock --sbat-level "$work/level-linux2.csv" "$work/vendor.efi"
	sx 1 "^refused: .*malformed \\.sbat section: line 3: generation 'x' is not a number" \
		"verify --shim-lock: a malformed .sbat still refused" -- \
		"${v[@]}" --shim-lock "$work/bad-generation.efi"
	sx 1 '^refused: .*malformed \.sbat section: byte 0x[0-9a-f]{2} at offset [0-9]+ follows a NUL' \
		"verify: .sbat with a NUL then text refused" -- "${v[@]}" "$work/bad-nul-then-text.efi"
	sx 1 "^refused: .*malformed \\.sbat section: line 1: the first record must be the sbat entry, not 'sbaX'" \
		"verify: .sbat without its sbat header refused" -- "${v[@]}" "$work/bad-header.efi"
	sx 1 '^refused: .*malformed \.sbat section: line 3: byte 0x7f at column 21 is not printable ASCII' \
		"verify: .sbat with a DEL byte refused" -- "${v[@]}" "$work/bad-control.efi"
	sx 1 '^refused: .*malformed \.sbat section: line 3 has 5 fields' \
		"verify: .sbat record with too few fields refused" -- "${v[@]}" "$work/bad-fields.efi"
	sx 1 '^refused: .*malformed \.sbat section: line 3: byte 0x[0-9a-f]{2} at column 14 is not printable' \
		"verify: .sbat with a flipped byte refused" -- "${v[@]}" "$work/bad-flip.efi"

	# --sbat-level: unusable files exit 2
	for m in "${malformed_levels[@]}"; do
		sx 2 "level-$m\\.csv: not a usable SbatLevel: " "verify: malformed --sbat-level ($m) exits 2" -- \
			"${v[@]}" --sbat-level "$work/level-$m.csv" "$work/vendor.efi"
	done
	sx 2 'No such file|no such file' "verify: missing --sbat-level file exits 2" -- \
		"${v[@]}" --sbat-level "$work/absent.csv" "$work/vendor.efi"
	sx 2 usage "verify: --sbat-level twice is a usage error" -- \
		"${v[@]}" --sbat-level "$work/level-test7.csv" --sbat-level "$work/level-test7.csv" "$work/vendor.efi"
	sx 2 usage "verify: --sbat-level without a file is a usage error" -- "${v[@]}" "$work/vendor.efi" --sbat-level
}

for bin in "$plain" "$san"; do
	cli=$bin
	tag='' suffix=''
	[[ $bin == "$san" ]] && tag=" [asan]" suffix=-san
	cases
done
cli=$plain

# sbverify agrees that add-sbat + sign.sh made a well-signed image
if sbverify --cert "$pki/vendor.crt" "$work/vendor.efi" >/dev/null 2>&1; then
	ok "sbat: sbverify accepts the signed image add-sbat made"
else
	not_ok "sbat: sbverify accepts the signed image add-sbat made"
fi
exit $failed
