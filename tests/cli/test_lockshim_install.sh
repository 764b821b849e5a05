#!/usr/bin/env bash
# build/lockshim install (lockshim-install(1)) into machines built here: an
# efivarfs copy, an ESP and /boot, where Boot0001 starts an older lockshim
# at \EFI\old\ and \EFI\lockshim\ already holds the second stage lockshim
# starts (the vendor-signed kernel as vmlinuz.efi, its default loader, as
# grub-install puts grubx64.efi beside shim). Each answer is read back:
# the files by their bytes, the boot option against tests/cli/mkefivars.py's
# own encoding, BOOTX64.CSV through check's fallback (lockshim's parser),
# and check's prediction of the next boot; each refusal leaves every file
# as it was. The variants: lockshim signed by tests/pki-ca.sh's old and new
# CAs, singly and combined (scripts/sign-variants.sh), against db and dbx.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

. tests/cli/lib.sh
work=$BUILD/lockshim-install-test
mk="python3 tests/cli/mkefivars.py"
partuuid=0b5e6f0e-aaaa-4bbb-8ccc-444455556666
part=$partuuid:1:2048:100000 # as mkefivars.py's HD() node

rm -rf "$work" && mkdir -p "$work"
[[ -f $BUILD/lockshimx64.efi && -f $BUILD/mmx64.efi && -x $cli ]] ||
	{ not_ok "install: build first (make)"; exit 1; }
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz-debian") || { not_ok "install: no Debian kernel"; exit 1; }
sign db "$BUILD/lockshimx64.efi" "$work/lockshim.efi"
sign vendor "$kernel" "$work/kernel-vendor.efi"
sign rogue "$kernel" "$work/kernel-rogue.efi"
cp "$BUILD/lockshimx64.efi" "$work/lockshim-unsigned.efi"
export TMPDIR=$work/tmp # where install's copies of the machine go, and must not stay
mkdir -p "$TMPDIR"

template=$work/template
mkdir -p "$template/vars" "$template/esp/EFI/old" "$template/esp/EFI/lockshim" "$template/boot"
$mk byte "$template/vars" SecureBoot $GG 0x6 1
$mk byte "$template/vars" SetupMode $GG 0x6 0
$mk var "$template/vars" db $DG 0x27 "$pki/db.esl"
$mk order "$template/vars" 1
$mk option "$template/vars" 1 old '\EFI\old\lockshimx64.efi' --partuuid $partuuid
cp "$work/lockshim.efi" "$template/esp/EFI/old/lockshimx64.efi"
cp "$work/kernel-vendor.efi" "$template/esp/EFI/old/vmlinuz.efi"
cp "$work/kernel-vendor.efi" "$template/esp/EFI/lockshim/vmlinuz.efi"
state() { rm -rf "$1" && cp -a "$template" "$1"; }
snapshot() { (cd "$1" && find . -type f -exec sha256sum {} + | sort); }
# install DIR ARGS...: $out and $rc
install() {
	run_cli install --efivars "$1/vars" --esp "$1/esp" --boot "$1/boot" --esp-partition "$part" \
		--mok-manager "$BUILD/mmx64.efi" "${@:2}"
}
check() { run_cli check --efivars "$1/vars" --esp "$1/esp" --boot "$1/boot"; }
# expect_install CODE REGEX NAME DIR ARGS...
expect_install() {
	local code=$1 regex=$2 name=$3
	shift 3
	install "$@"
	if [[ $rc -eq $code && $out =~ $regex ]]; then ok "install: $name"; else not_ok "install: $name (exit $rc: $out)"; fi
}
# unchanged NAME DIR BEFORE: DIR's files are BEFORE's, and install left no copy behind
unchanged() {
	[[ $(snapshot "$2") == "$3" && -z $(ls -A "$TMPDIR") ]] && ok "install: $1: nothing written" ||
		not_ok "install: $1: files changed or copies left: $(ls -A "$TMPDIR")"
}

# ---- a machine that boots, and install's answer read back
s=$work/base
state "$s"
expect_install 0 "first stage: $work/lockshim.efi: the firmware accepts it: .*db certificate /CN=lockshim test db.*check: the next boot reaches a kernel.*writing Boot0000 \"lockshim\": \\\\EFI\\\\lockshim\\\\lockshimx64.efi.*writing BootOrder: 0000,0001" \
	"installs, first in BootOrder" "$s" --first-stage "$work/lockshim.efi"
cmp -s "$s/esp/EFI/lockshim/lockshimx64.efi" "$work/lockshim.efi" &&
	cmp -s "$s/esp/EFI/lockshim/mmx64.efi" "$BUILD/mmx64.efi" &&
	ok "install: the first stage and the MOK manager are copied to \\EFI\\lockshim\\" ||
	not_ok "install: files: $(ls -l "$s/esp/EFI/lockshim")"
[[ -z $(find "$s/esp" -name '.*.new') && -z $(ls -A "$TMPDIR") ]] &&
	ok "install: no temporary file stays" || not_ok "install: temporary files: $(find "$s" "$TMPDIR" -name '*.new')"
mkdir -p "$work/expect" && $mk option "$work/expect" 0 lockshim '\EFI\lockshim\lockshimx64.efi' --partuuid $partuuid
cmp -s "$s/vars/Boot0000-$GG" "$work/expect/Boot0000-$GG" &&
	ok "install: Boot0000 is the option efibootmgr writes: HD() of the ESP's partition, the file, active" ||
	not_ok "install: Boot0000: $(od -An -tx1 "$s/vars/Boot0000-$GG" | head -3)"
[[ $(od -An -tx1 "$s/vars/BootOrder-$GG" | tr -d ' \n') == 0700000000000100 ]] &&
	ok "install: BootOrder is 0000,0001 with the firmware's attributes" ||
	not_ok "install: BootOrder: $(od -An -tx1 "$s/vars/BootOrder-$GG")"
check "$s"
[[ $rc -eq 0 && $out == *'Boot0000 "lockshim": boots: it boots \EFI\lockshim\vmlinuz.efi'* &&
	$out == *'next boot: boots at Boot0000'* ]] &&
	ok "install: check reads the option back: the next boot reaches the kernel through it" ||
	not_ok "install: check after install (exit $rc: $out)"
before=$(snapshot "$s")
expect_install 0 'Boot0000 already starts \\EFI\\lockshim\\lockshimx64.efi.*BootOrder already starts with Boot0000' \
	"again: the same option, no new one" "$s" --first-stage "$work/lockshim.efi"
[[ $(snapshot "$s") == "$before" ]] && ok "install: again: the same files and variables" ||
	not_ok "install: again changed something"

# a BootNext set for one boot (a capsule update) comes first: the new option must boot on its own
state "$s"
printf '\001\000' >"$work/bootnext" && $mk var "$s/vars" BootNext $GG 0x7 "$work/bootnext"
expect_install 0 'check: the next boot reaches a kernel.*writing BootOrder: 0000,0001' \
	"BootNext naming the old option: the new one is checked on its own" "$s" --first-stage "$work/lockshim.efi"

# BOOTX64.CSV as lockshim's fallback reads it: the removable path only, no option
state "$s"
expect_install 0 'no variables written \(--no-variables\)' "--no-variables writes the files only" \
	"$s" --first-stage "$work/lockshim.efi" --no-variables
[[ $(cd "$s/vars" && ls) == "$(cd "$template/vars" && ls)" ]] && cmp -s "$s/vars/BootOrder-$GG" "$template/vars/BootOrder-$GG" &&
	[[ -f $s/esp/EFI/lockshim/lockshimx64.efi ]] && ok "install: --no-variables: no variable written, files there" ||
	not_ok "install: --no-variables: $(ls "$s/vars")"
[[ $(od -An -tx1 -N4 "$s/esp/EFI/lockshim/BOOTX64.CSV" | tr -d ' \n') == fffe6c00 ]] &&
	ok "install: BOOTX64.CSV is UCS-2 little-endian with its byte order mark, as shim's" ||
	not_ok "install: BOOTX64.CSV starts $(od -An -tx1 -N8 "$s/esp/EFI/lockshim/BOOTX64.CSV")"
rm "$s/vars/Boot0001-$GG" "$s/vars/BootOrder-$GG" && rm -r "$s/esp/EFI/old"
mkdir -p "$s/esp/EFI/BOOT" && cp "$work/lockshim.efi" "$s/esp/EFI/BOOT/BOOTX64.EFI"
check "$s"
[[ $rc -eq 0 && $out == *'allowed \EFI\lockshim\lockshimx64.efi (fallback (\EFI\lockshim\BOOTX64.CSV))'* &&
	$out == *'removable \EFI\BOOT\BOOTX64.EFI: boots: it boots \EFI\lockshim\vmlinuz.efi'* ]] &&
	ok "install: lockshim's fallback takes the BOOTX64.CSV written, and boots through it" ||
	not_ok "install: fallback (exit $rc: $out)"

state "$s"
before=$(snapshot "$s")
expect_install 0 'would install \\EFI\\lockshim\\lockshimx64.efi.*would write Boot0000.*would write BootOrder: 0000,0001' \
	"--dry-run says what it would do" "$s" --first-stage "$work/lockshim.efi" --dry-run
unchanged "--dry-run" "$s" "$before"

# ---- refusals: nothing written
state "$s"
cp "$work/kernel-rogue.efi" "$s/esp/EFI/lockshim/vmlinuz.efi"
before=$(snapshot "$s")
expect_install 1 'Boot0000 "lockshim": does not boot: .*vmlinuz.efi.*reason=untrusted-signer.*the new option Boot0000 would not boot.*refusing' \
	"refuses when lockshim would refuse the kernel it starts, with check's reason" "$s" \
	--first-stage "$work/lockshim.efi"
unchanged "refused kernel" "$s" "$before"
expect_install 0 'installing anyway \(--force\).*writing BootOrder: 0000,0001' "--force installs anyway" \
	"$s" --first-stage "$work/lockshim.efi" --force
cmp -s "$s/esp/EFI/lockshim/lockshimx64.efi" "$work/lockshim.efi" && [[ -f $s/vars/Boot0000-$GG ]] &&
	ok "install: --force: files and option written" || not_ok "install: --force wrote nothing"

state "$s"
before=$(snapshot "$s")
expect_install 1 'lockshim-unsigned.efi: the firmware would refuse it: .*unsigned.*no first stage this machine.s db and dbx accept' \
	"refuses a first stage no db key signed" "$s" --first-stage "$work/lockshim-unsigned.efi"
unchanged "unsigned first stage" "$s" "$before"
state "$s"
cp "$work/kernel-rogue.efi" "$s/esp/EFI/lockshim/vmlinuz.efi"
rm "$s/vars/Boot0001-$GG" "$s/vars/BootOrder-$GG"
before=$(snapshot "$s")
expect_install 1 'next boot: will not boot.*refusing: after it the next boot would not reach a kernel through Boot0000' \
	"refuses when check says the next boot will not boot at all" "$s" --first-stage "$work/lockshim.efi"
unchanged "no option boots" "$s" "$before"

# ---- a write failing half-way leaves the old boot path whole
state "$s"
mkdir "$s/vars/.BootOrder-$GG.new" # where BootOrder would be written: it cannot be
expect_install 2 "BootOrder-$GG.new: Is a directory" "a BootOrder that cannot be written fails (exit 2)" \
	"$s" --first-stage "$work/lockshim.efi"
rmdir "$s/vars/.BootOrder-$GG.new"
check "$s"
[[ $rc -eq 0 && -f $s/vars/Boot0000-$GG && $out == *'next boot: boots at Boot0001: it boots \EFI\old\vmlinuz.efi'* ]] &&
	ok "install: files and option written, BootOrder not: the old option still boots first" ||
	not_ok "install: after a failed BootOrder write (exit $rc: $out)"
state "$s"
mkdir "$s/esp/EFI/lockshim/.mmx64.efi.new"
expect_install 2 "mmx64.efi.new: Is a directory" "a file that cannot be written fails (exit 2)" \
	"$s" --first-stage "$work/lockshim.efi"
[[ $(cd "$s/vars" && ls) == "$(cd "$template/vars" && ls)" && ! -e $s/esp/EFI/lockshim/mmx64.efi &&
	-z $(find "$s/esp" -name '.*.new' -type f) ]] &&
	ok "install: a file not written: no variable touched, no partial file" ||
	not_ok "install: after a failed file write: $(ls -a "$s/vars" "$s/esp/EFI/lockshim")"

# ---- the variants: which one this machine's db and dbx accept, and why
ca=$BUILD/pki-ca
tests/pki-ca.sh "$ca" || { not_ok "install: tests/pki-ca.sh"; exit 1; }
variants=$work/variants
scripts/sign-variants.sh --output-dir "$variants" --ca old "$ca/old-signer.key" "$ca/old-signer.crt" \
	--ca new "$ca/new-signer.key" "$ca/new-signer.crt" "$BUILD/lockshimx64.efi" >/dev/null &&
	[[ $(ls "$variants") == $'lockshimx64.efi.signed\nlockshimx64.efi.signed.new\nlockshimx64.efi.signed.old' ]] &&
	ok "install: sign-variants.sh writes one image per CA and the combined one" ||
	{ not_ok "install: sign-variants.sh: $(ls "$variants")"; exit 1; }
run_cli verify --as-firmware --db "$ca/both-ca.esl" --dbx "$ca/old-ca.esl" "$variants/lockshimx64.efi.signed"
[[ $rc -eq 1 && $out == *'signature 0 (signer /CN=lockshim test old signer) chains to dbx'* ]] &&
	ok "install: the combined variant carries the old CA's signature first" ||
	not_ok "install: combined variant (exit $rc: $out)"
# variant_state DIR DB [DBX]: the base machine with that db (and dbx)
variant_state() {
	state "$1"
	$mk var "$1/vars" db $DG 0x27 "$2"
	[[ -z ${3:-} ]] || $mk var "$1/vars" dbx $DG 0x27 "$3"
}
chosen() { # NAME DIR VARIANT: the file installed is that variant
	if cmp -s "$2/esp/EFI/lockshim/lockshimx64.efi" "$variants/$3"; then ok "install: $1: $3 installed"; else not_ok "install: $1: not $3"; fi
}
variant_state "$s" "$ca/old-ca.esl"
expect_install 0 "first stage: $variants/lockshimx64.efi.signed.old: the firmware accepts it: signature 0 \\(signer /CN=lockshim test old signer\\) trusted through db certificate /CN=lockshim test old CA \\(one signature\\).*not $variants/lockshimx64.efi.signed.new: the firmware would refuse it" \
	"db holding the old CA only: the old-signed variant, named by its db entry" "$s" --first-stage "$variants"
chosen "db old" "$s" lockshimx64.efi.signed.old
variant_state "$s" "$ca/new-ca.esl"
cp "$variants/lockshimx64.efi.signed.old" "$variants/lockshimx64.efi.signed.dpkg-new" # an upgrade's leftover
expect_install 0 "first stage: $variants/lockshimx64.efi.signed.new: the firmware accepts it: .*db certificate /CN=lockshim test new CA" \
	"db holding the new CA only: the new-signed variant" "$s" --first-stage "$variants"
chosen "db new" "$s" lockshimx64.efi.signed.new
[[ $out != *dpkg-new* ]] && ok "install: dpkg's leftovers in the directory are not candidates" ||
	not_ok "install: .dpkg-new taken as a variant: $out"
rm "$variants/lockshimx64.efi.signed.dpkg-new"
variant_state "$s" "$ca/both-ca.esl" "$ca/old-ca.esl"
expect_install 0 "first stage: $variants/lockshimx64.efi.signed.new: .*not $variants/lockshimx64.efi.signed: the firmware would refuse it: signature 0 \\(signer /CN=lockshim test old signer\\) chains to dbx certificate /CN=lockshim test old CA" \
	"dbx revoking the old CA: the new single one, the combined one refused" "$s" --first-stage "$variants"
chosen "dbx old" "$s" lockshimx64.efi.signed.new
variant_state "$s" "$ca/both-ca.esl"
expect_install 0 "the firmware accepts it: .*\\(one signature\\).*not $variants/lockshimx64.efi.signed: accepted, but signed by several CAs" \
	"db holding both: a single signature before the combined one" "$s" \
	--first-stage "$variants/lockshimx64.efi.signed" --first-stage "$variants/lockshimx64.efi.signed.old"
chosen "db both" "$s" lockshimx64.efi.signed.old
# two single-signed variants both accepted: the one whose db CA is the
# newest (a CA issued now, after the cached test PKI's), in either order given
sleep 1 # a notBefore one second later at least, should the cached PKI be this second's
XDG_CACHE_HOME=$work/cache tests/pki-ca.sh "$work/pki-now" || not_ok "install: a CA issued now"
scripts/sign-variants.sh --output-dir "$work/now" --ca now "$work/pki-now/new-signer.key" \
	"$work/pki-now/new-signer.crt" "$BUILD/lockshimx64.efi" >/dev/null
cat "$ca/old-ca.esl" "$work/pki-now/new-ca.esl" >"$work/db-old-now.esl"
for order in "$variants/lockshimx64.efi.signed.old $work/now/lockshimx64.efi.signed.now" \
	"$work/now/lockshimx64.efi.signed.now $variants/lockshimx64.efi.signed.old"; do
	variant_state "$s" "$work/db-old-now.esl"
	read -r first second <<<"$order"
	expect_install 0 "first stage: $work/now/lockshimx64.efi.signed.now: .*not $variants/lockshimx64.efi.signed.old: accepted too, through an older db CA" \
		"both accepted: the newest db CA's, given ${first##*.} first" "$s" --first-stage "$first" --first-stage "$second"
done

variant_state "$s" "$ca/old-ca.esl" "$ca/old-ca.esl"
before=$(snapshot "$s")
expect_install 1 "signed.new: the firmware would refuse it: no signature.s signer chains to a db certificate.*signed.old: the firmware would refuse it: signature 0 .* chains to dbx certificate /CN=lockshim test old CA.*no first stage this machine.s db and dbx accept" \
	"none accepted: refused, the reason for each" "$s" --first-stage "$variants"
unchanged "no variant accepted" "$s" "$before"

# ---- arguments
expect 2 "unrecognized option '--bogus'" "install: an unknown option is named" -- install --bogus
expect 2 '--vendor BOOT: a directory name' "install: the removable path's directory is not a vendor's" -- \
	install --vendor BOOT --no-variables --esp "$s/esp"
expect 2 'esp-partition nope: not UUID:NUMBER:START:SIZE' "install: a malformed --esp-partition" -- \
	install --efivars "$s/vars" --esp "$s/esp" --esp-partition nope --first-stage "$work/lockshim.efi" \
	--mok-manager "$BUILD/mmx64.efi"
expect 2 'several first stages and no machine|first stages and no machine' \
	"install: variants without a machine's db to choose with" -- \
	install --no-variables --esp "$s/esp" --first-stage "$variants" --mok-manager "$BUILD/mmx64.efi"
expect 0 'not checked: no variables' "install: --no-variables without --efivars: files only, unchecked" -- \
	install --no-variables --esp "$s/esp" --first-stage "$work/lockshim.efi" --mok-manager "$BUILD/mmx64.efi"
exit $failed
