#!/usr/bin/env bash
# build/lockshim's arguments as getopt_long takes them (src/cli/cli_args.c):
# --opt=value is --opt value, for every subcommand; an unknown option or a
# missing argument is said in getopt's words, then that subcommand's usage
# alone and a hint, exit 2; -q prints nothing and keeps the exit status;
# verify --efivars DIR decides with a machine's own db, dbx, MokListRT,
# MokListXRT and SbatLevelRT (read as check reads them) and says where each
# came from.
set -uo pipefail
cd "$(dirname "$0")/../.."

. tests/cli/lib.sh
work=$BUILD/cli-args-test
mk="python3 tests/cli/mkefivars.py"
rm -rf "$work" && mkdir -p "$work"
[[ -x $cli && -f $BUILD/lockshimx64.efi ]] || { not_ok "args: $cli or $BUILD/lockshimx64.efi missing (run make)"; exit 1; }

# lockshim itself, signed by each test key (its .sbat passes the built-in level)
for k in db mok vendor rogue; do sign "$k" "$BUILD/lockshimx64.efi" "$work/$k.efi"; done
img=$work/vendor.efi

# same NAME -- ARGS_A -- ARGS_B: both are accepted (no exit 2), print the same (stdout and
# stderr) and exit alike
same() {
	local name=$1 a b ra rb
	shift 2
	local -a one=() two=()
	while [[ $1 != -- ]]; do one+=("$1"); shift; done
	shift
	two=("$@")
	a=$("$cli" "${one[@]}" 2>&1); ra=$?
	b=$("$cli" "${two[@]}" 2>&1); rb=$?
	if [[ $a == "$b" && $ra -eq $rb && $ra -ne 2 && -n $a ]]; then
		ok "args: $name (exit $ra)"
	else
		not_ok "args: $name (exit $ra: $a; against exit $rb: $b)"
	fi
}

# usage_error SUB FIRST_LINE NAME -- ARGS: exit 2, nothing on stdout, stderr
# FIRST_LINE, then SUB's usage alone, then the hint as its last line
usage_error() {
	local sub=$1 first=$2 name=$3 o e r
	shift 4
	o=$("$cli" "$@" 2>/dev/null)
	e=$("$cli" "$@" 2>&1 >/dev/null)
	r=$?
	local -a lines
	mapfile -t lines <<<"$e"
	# another subcommand's usage line would start "lockshim OTHER "
	# with --json, stdout holds the error object (docs/json.md), the reason in it
	local want_o=
	[[ " $* " == *" --json "* ]] &&
		want_o=$(python3 -c 'import json, sys; print(json.dumps(json.loads(sys.argv[1])["error"]))' "$o" 2>/dev/null) &&
		[[ $want_o == '{"code": "usage", "message": "'"${first#lockshim $sub: }"'"}' ]] && o=
	if [[ $r -eq 2 && -z $o && ${lines[0]} == "$first" && ${lines[1]} == "usage: lockshim $sub "* &&
		${lines[-1]} == "Try 'lockshim help $sub'." ]] &&
		! grep -v "lockshim $sub " <<<"$e" | grep -q "lockshim \(verify\|pcr\|check\|status\|hash\|esl\|add-sbat\) "; then
		ok "args: $name"
	else
		not_ok "args: $name (exit $r, stdout: $o, stderr: $e)"
	fi
}

# ---- getopt's words, the subcommand's usage alone -------------------------------------
for sub in verify pcr check status install hash esl add-sbat; do
	usage_error "$sub" "lockshim $sub: unrecognized option '--bogus'" \
		"$sub --bogus: getopt's line, $sub's usage alone, the hint, exit 2" -- "$sub" --bogus
done
usage_error verify "lockshim verify: option '--db' requires an argument" \
	"verify --db without its file: said, exit 2" -- verify --db
usage_error check "lockshim check: option '--efivars' requires an argument" \
	"check --efivars without its directory: said, exit 2" -- check --efivars
usage_error install "lockshim install: option '--esp' requires an argument" \
	"install --esp without its directory: said, exit 2" -- install --esp
usage_error install "lockshim install: --vendor given twice ('a', 'b')" \
	"install --vendor twice: both named" -- install --vendor a --vendor=b
usage_error status "lockshim status: option '--securityfs' requires an argument" \
	"status --securityfs without its directory: said, exit 2" -- status --securityfs
usage_error hash "lockshim hash: option '--alg' requires an argument" \
	"hash --alg without its name: said, exit 2" -- hash "$img" --alg
usage_error pcr "lockshim pcr: option '--shim-lock' requires an argument" \
	"pcr --shim-lock without its image: said, exit 2" -- pcr --predict "$img" --shim-lock
usage_error check "lockshim check: invalid option -- 'x'" \
	"check -x: getopt's line for a short option" -- check -x
usage_error esl "lockshim esl: extra operand '$img'" "esl with two files: the extra one named" -- \
	esl "$img" "$img"
usage_error add-sbat "lockshim add-sbat: missing operand" "add-sbat with one file: said" -- add-sbat "$img"
usage_error verify "lockshim verify: one of --json, --record and -q" "verify -q --json: one or the other" -- \
	verify -q --json --vendor-cert "$pki/vendor.der" "$img"
usage_error check "lockshim check: --json or -q, not both" "check --json -q: one or the other" -- \
	check --json -q --efivars "$work" --esp "$work"
usage_error check "lockshim check: --esp given twice ('a', 'b')" "check --esp twice: both named" -- \
	check --esp a --esp=b
# "--" ends the options: a file named like one is a file
expect 2 "^lockshim: -bogus: " "esl -- -bogus: an operand, not an option" -- esl -- -bogus

# ---- --opt=value is --opt value, wherever it comes -----------------------------------
same "verify --vendor-cert=F is --vendor-cert F" -- \
	verify --vendor-cert="$pki/vendor.der" "$img" -- verify --vendor-cert "$pki/vendor.der" "$img"
same "verify: options after the image" -- \
	verify "$work/rogue.efi" --db="$pki/db.esl" --json -- verify --json --db "$pki/db.esl" "$work/rogue.efi"
same "verify --sbat-level=windows is --sbat-level windows" -- \
	verify --vendor-cert "$pki/vendor.der" --sbat-level=windows "$img" -- \
	verify --vendor-cert "$pki/vendor.der" --sbat-level windows "$img"
same "hash --alg=sha1 is --alg sha1" -- hash --alg=sha1 "$img" -- hash --alg sha1 "$img"
same "hash: --alg after the image" -- hash "$img" --alg sha384 -- hash --alg=sha384 "$img"
same "pcr --shim-lock=IMAGE is --shim-lock IMAGE, boot order kept" -- \
	pcr --predict --vendor-cert="$pki/vendor.der" "$work/vendor.efi" --shim-lock="$work/mok.efi" -- \
	pcr --predict --vendor-cert "$pki/vendor.der" "$work/vendor.efi" --shim-lock "$work/mok.efi"
# a machine: Secure Boot on, the test db, MokListRT as a loader mirrors it (vendor keys first)
m=$work/machine
mkdir -p "$m/vars" "$m/esp"
$mk byte "$m/vars" SecureBoot $GG 0x6 1
$mk byte "$m/vars" SetupMode $GG 0x6 0
$mk var "$m/vars" db $DG 0x27 "$pki/db.esl"
cat "$pki/vendor.esl" "$pki/mok.esl" >"$work/moklist.esl"
$mk var "$m/vars" MokListRT $SG 0x6 "$work/moklist.esl"
same "check --efivars=DIR --esp=DIR is --efivars DIR --esp DIR" -- \
	check --efivars="$m/vars" --esp="$m/esp" -- check --efivars "$m/vars" --esp "$m/esp"
same "check: repeated --mok-import, either form, in order" -- \
	check --efivars "$m/vars" --esp "$m/esp" --mok-import="$pki/rogue.der" --mok-import "$pki/mok.der" -- \
	check --efivars "$m/vars" --esp "$m/esp" --mok-import "$pki/rogue.der" --mok-import="$pki/mok.der"
same "status --efivars=DIR is --efivars DIR" -- status --efivars="$m/vars" -- status --efivars "$m/vars"
same "esl: --help anywhere prints the usage" -- esl "$img" --help -- esl --help

# ---- -q: nothing printed, the exit status answers ------------------------------------
# quiet WANT_EXIT NAME -- ARGS: exit WANT_EXIT with nothing on stdout; without -q, the same exit and some output
quiet() {
	local want=$1 name=$2 o r rl a
	shift 3
	local -a loud=()
	o=$("$cli" "$@" 2>/dev/null)
	r=$?
	for a in "$@"; do [[ $a == -q || $a == --quiet ]] || loud+=("$a"); done
	"$cli" "${loud[@]}" >"$work/loud" 2>/dev/null
	rl=$?
	if [[ $r -eq $want && $rl -eq $want && -z $o && -s $work/loud ]]; then
		ok "args: $name"
	else
		not_ok "args: $name (exit $r, stdout: $o; without -q exit $rl)"
	fi
}
quiet 0 "verify -q: allowed, nothing printed, exit 0" -- verify -q --vendor-cert "$pki/vendor.der" "$img"
quiet 1 "verify --quiet: refused, nothing printed, exit 1" -- verify --quiet --vendor-cert "$pki/vendor.der" "$work/rogue.efi"
quiet 0 "verify -q --efivars: allowed by the machine's MokListRT, exit 0" -- verify -q --efivars "$m/vars" "$work/mok.efi"
quiet 1 "check -q: the next boot ends nowhere, exit 1 as without -q" -- check -q --efivars "$m/vars" --esp "$m/esp"
# lockshim on the removable path, a vendor-signed kernel its default loader: boots
kernel=$(tests/qemu/debian-kernel.sh "$work/vmlinuz-debian") || not_ok "args: no Debian kernel"
mkdir -p "$m/esp/EFI/BOOT" && cp "$work/db.efi" "$m/esp/EFI/BOOT/BOOTX64.EFI" &&
	sign vendor "$kernel" "$m/esp/EFI/BOOT/vmlinuz.efi"
quiet 0 "check --quiet: lockshim on the removable path boots, exit 0 as without -q" -- \
	check --quiet --efivars "$m/vars" --esp "$m/esp"
e=$("$cli" verify -q --vendor-cert "$work/absent.der" "$img" 2>&1 >/dev/null)
[[ $? -eq 2 && $e == *"absent.der"* ]] && ok "args: verify -q: an error still said on stderr, exit 2" ||
	not_ok "args: verify -q with a missing file ($e)"

# pcr: the images in boot order among the --shim-lock ones (another order, other PCRs)
k=$m/esp/EFI/BOOT/vmlinuz.efi
a=$("$cli" pcr --predict --vendor-cert "$pki/vendor.der" "$img" --shim-lock "$k" 2>&1)
b=$("$cli" pcr --predict --vendor-cert "$pki/vendor.der" --shim-lock="$k" "$img" 2>&1)
[[ $a == *"4 "* && $b == *"4 "* && $a != "$b" ]] && ok "args: pcr: images keep their order among --shim-lock ones" ||
	not_ok "args: pcr: order of images and --shim-lock ($a / $b)"

# ---- verify --efivars: the machine's lists ------------------------------------------
# vexpect CODE REGEX NAME -- ARGS: verify ARGS exits CODE, its output matching REGEX
vexpect() {
	local code=$1 regex=$2 name=$3
	shift 4
	expect "$code" "$regex" "verify --efivars: $name" -- verify "$@"
}
vexpect 0 "# db: $m/vars/db-$DG: 1 entry"$'\n'"# dbx: none \\(no dbx in $m/vars\\)"$'\n'"# MokList: $m/vars/MokListRT-$SG: 2 entries \\(the first stage's vendor keys first\\)"$'\n'"# MokListX: none"'.*'$'\n'"# SbatLevel: none \\(no SbatLevelRT in $m/vars\\): lockshim's built-in level"$'\n'"allowed: $work/db.efi: " \
	"db-signed allowed through db, each list's source said" -- --efivars "$m/vars" "$work/db.efi"
vexpect 0 $'\n'"allowed: $work/mok.efi: .*MokList" "MOK-signed allowed through MokListRT" -- --efivars "$m/vars" "$work/mok.efi"
vexpect 0 $'\n'"allowed: $work/vendor.efi: .*MokList" \
	"vendor-signed allowed: the booted first stage's vendor key, first in MokListRT" -- --efivars "$m/vars" "$work/vendor.efi"
vexpect 1 $'\n'"refused: $work/rogue.efi: " "an unknown signer refused" -- --efivars "$m/vars" "$work/rogue.efi"
vexpect 0 "# db: $m/vars/db-$DG: 1 entry, and 1 from options" "options add to the machine's lists, said" -- \
	--efivars "$m/vars" --db "$pki/rogue.der" "$work/rogue.efi"
vexpect 0 "# db: $m/vars/db-$DG: 1 entry"$'\n'"# dbx: none \\(no dbx in $m/vars\\)"$'\n'"allowed: " "--as-firmware: db and dbx only" -- \
	--as-firmware --efivars "$m/vars" "$work/db.efi"
vexpect 1 $'\n'"refused: " "--as-firmware: MOK is not the firmware's" -- --as-firmware --efivars "$m/vars" "$work/mok.efi"
same "verify --efivars=DIR is --efivars DIR" -- \
	verify --efivars="$m/vars" "$work/mok.efi" -- verify --efivars "$m/vars" "$work/mok.efi"
run_cli verify --efivars "$m/vars" --json "$work/mok.efi"
python3 -c 'import json, sys; j = json.loads(sys.argv[1]); assert j["verdict"] == "allowed" and j["list"] == "MokList", j' "$out" &&
	[[ $out != *"# "* ]] && ok "verify --efivars --json: the one JSON object, no source lines" ||
	not_ok "verify --efivars --json ($out)"

# the deny lists refuse: dbx (db's certificate), MokListXRT (the MOK certificate)
d=$work/deny && cp -a "$m" "$d"
$mk var "$d/vars" dbx $DG 0x27 "$pki/db.esl"
$mk var "$d/vars" MokListXRT $SG 0x6 "$pki/mok.esl"
vexpect 1 "# dbx: $d/vars/dbx-$DG: 1 entry.*refused: $work/db.efi: certificate /CN=lockshim test [a-z]+ is in dbx" \
	"a signer in the machine's dbx refused" -- --efivars "$d/vars" "$work/db.efi"
vexpect 1 "refused: $work/mok.efi: certificate /CN=lockshim test [a-z]+ is in MokListX" \
	"a signer in MokListXRT refused, though MokListRT trusts it" -- --efivars "$d/vars" "$work/mok.efi"
vexpect 0 "allowed: $work/vendor.efi" "the vendor key, in neither deny list, still allowed" -- \
	--efivars "$d/vars" "$work/vendor.efi"

# SbatLevelRT applies, unless --sbat-level or --no-sbat says otherwise
s=$work/sbat && cp -a "$m" "$s"
printf 'sbat,1,2099010100\nlockshim,9999\n' >"$work/level.csv"
$mk var "$s/vars" SbatLevelRT $SG 0x6 "$work/level.csv"
vexpect 1 "# SbatLevel: $s/vars/SbatLevelRT-$SG.*refused: $work/db.efi: SBAT revokes component lockshim" \
	"the machine's SbatLevelRT revokes, said where it came from" -- --efivars "$s/vars" "$work/db.efi"
vexpect 0 "# SbatLevel: none \\(--no-sbat\\).*allowed: " "--no-sbat overrides SbatLevelRT" -- \
	--efivars "$s/vars" --no-sbat "$work/db.efi"
vexpect 0 "# SbatLevel: --sbat-level windows.*allowed: " "--sbat-level overrides SbatLevelRT" -- \
	--efivars "$s/vars" --sbat-level windows "$work/db.efi"

# the MokVar table's copy first, as check reads it
t=$work/table && mkdir -p "$t" && cp "$pki/db.esl" "$t/MokListRT"
vexpect 0 "# MokList: $t/MokListRT: 1 entry" "--mok-variables: the MokVar table's MokListRT first" -- \
	--efivars "$m/vars" --mok-variables "$t" "$work/db.efi"
vexpect 1 "refused: $work/mok.efi" "--mok-variables: the table's list, not efivarfs's, decides" -- \
	--efivars "$m/vars" --mok-variables "$t" "$work/mok.efi"

# what cannot be used: exit 2, the reason
vexpect 2 "^lockshim: $work/absent: No such file or directory" "a missing DIR: exit 2, said" -- \
	--efivars "$work/absent" "$img"
vexpect 2 "^lockshim: $work/level.csv: Not a directory" "a file as DIR: exit 2, said" -- \
	--efivars "$work/level.csv" "$img"
o=$work/os && cp -a "$m" "$o"
$mk var "$o/vars" MokListRT $SG 0x7 "$pki/rogue.esl"
vexpect 2 "MokListRT-$SG: attributes 0x7, not a loader's mirror" \
	"a MokListRT an OS wrote (NV): cannot say the next boot's, exit 2" -- --efivars "$o/vars" "$work/rogue.efi"
usage_error verify "lockshim verify: --mok-variables goes with --efivars" \
	"--mok-variables with list options and no --efivars: a usage error" -- \
	verify --mok-variables "$t" --db "$pki/db.esl" "$img"

# no list option at all: the running system's, or, without efivarfs, an error, never empty lists
if [[ -d /sys/firmware/efi/efivars ]]; then
	run_cli verify "$img"
	[[ ($rc -eq 0 || $rc -eq 1) && $out =~ "# db: "(/sys/firmware/efi/efivars/db-$DG:|none) ]] &&
		ok "verify with no list: the running system's lists, said" ||
		not_ok "verify with no list on this UEFI system (exit $rc: $out)"
else
	expect 2 "^lockshim: verify: no list given .*/sys/firmware/efi/efivars: No such file or directory" \
		"verify with no list and no efivarfs: exit 2, said" -- verify "$img"
fi
exit $failed
