# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# Proof by difference: machine states generated from a seed, each booted in
# QEMU through lockshim (Debian's signed GRUB, Debian's systemd-boot) and
# answered by `lockshim check --json`; the two must agree option by option.
# Sourced by tests/differential/run and tests/qemu/test_differential.sh,
# after tests/qemu/lib.sh, scenario.sh and debian-chain.sh.
#
# diff_prepare
#     The pool every state draws from, in DIFF_POOL, named in
#     DIFF_POOL/pool.txt ("NAME FILE" lines, read by diffstate.py):
#       lockshim-{db,rogue,unsigned}   lockshim with Debian's vendor
#                      certificate and vendor dbx (debian_chain_lockshim),
#                      that dbx extending to k-vdbx's digest
#       grub-{vendor,db,mok,rogue,unsigned}   Debian's grubx64.efi.signed as
#                      shipped, and re-signed by the test keys
#       sdboot-{db,mok,rogue,unsigned}   Debian's systemd-bootx64.efi (252)
#       k-{db,mok,rogue,revoked,unsigned}   the companion kernel
#       k-{dbx,vdbx,mkx,sb5}  the companion kernel made distinct (one byte of
#                      its .sbat), db-signed: its digest in dbx, in the
#                      vendor dbx, in the MokListX of the states that say so;
#                      k-sb5 has linux.lockshim 5 where the others have 6
#       k-vendor       Debian's kernel as shipped (the vendor's signature)
#       mm-db          the MOK manager (build/mmx64.efi), db-signed
#       esl-*          the signature lists states put in MokList, MokListX
#       level-*        SbatLevel texts
#     and DIFF_VARS, a Secure Boot store (PK, KEK, db = the test db key; dbx
#     = k-dbx's digest and the revoked key) every state starts from. Sets
#     PREP_ERROR when it cannot.
#
# diff_run_state DIR STATE.json
#     One state: materialized into DIR (diffstate.py), booted (its serial log
#     DIR/boot.log), checked (DIR/check.json, DIR/check.rc) and compared
#     (DIR/result.json); prints the comparison's one line. Returns 0 when
#     they agree, 1 when they differ, 2 when the state could not be run.

DIFF_WORK=$QEMU_BUILD/differential
DIFF_POOL=$DIFF_WORK/pool
DIFF_VARS=
DIFF_PY=$LOCKSHIM_ROOT/tests/differential/diffstate.py
DIFF_TIMEOUT=${DIFF_TIMEOUT:-90}
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
# What ends a boot: a kernel started (its command line names the entry), the
# firmware out of options, GRUB stopped on an error (it waits for a key
# then: the firmware tries nothing more), a crash.
DIFF_STOPS=('Command line: ' 'Linux version [0-9]' 'No bootable option' '^error: ' 'Press any key to continue'
	"$QEMU_CRASH")

# _diff_distinct IN TAG OUT: IN with its .sbat's URL "lockshim.invalid"
# made "lockshim.TAG" (TAG 7 characters): another digest, the same SBAT
# components; GEN, when given, replaces linux.lockshim's generation.
_diff_distinct() {
	python3 - "$@" <<'PY'
import sys
src, tag, out = sys.argv[1:4]
gen = sys.argv[4] if len(sys.argv) > 4 else None
d = open(src, "rb").read()
old = b"linux.lockshim,6,lockshim developers,linux-lockshim,6.12,https://lockshim.invalid/"
assert d.count(old) == 1, "the companion kernel's .sbat is not as expected"
assert len(tag) == 7
new = old.replace(b"invalid", tag.encode())
if gen:
    new = new.replace(b"linux.lockshim,6,", b"linux.lockshim," + gen.encode() + b",")
open(out, "wb").write(d.replace(old, new))
PY
}

# _diff_hash_esl IMAGE OUT: one SHA-256 list of IMAGE's digest as lockshim computes it.
_diff_hash_esl() {
	local digest
	digest=$(build/lockshim hash "$1") && [[ $digest =~ ^[0-9a-f]{64}$ ]] &&
		python3 tests/cli/mkesl.py SHA256 "$2" "$digest"
}

# _diff_level OUT LINE...: an SbatLevel newer than lockshim's automatic one
# (so that lockshim keeps it), lockshim's latest entries, then LINEs.
_diff_level() {
	local out=$1; shift
	{ echo 'sbat,1,2099010100'; tail -n +2 certs/sbat-level-latest.csv; printf '%s\n' "$@"; } >"$out"
}

diff_prepare() {
	local p=$DIFF_POOL kdir sd grub lockshim k key
	PREP_LOG=$DIFF_WORK/prepare.err
	rm -rf "$p" && mkdir -p "$p" "$DIFF_WORK"
	: >"$PREP_LOG"
	_prep "test PKI (tests/pki.sh)" tests/pki.sh build/pki || return 0
	local pki=build/pki
	kdir=$(kernel/build.sh 2>>"$PREP_LOG") || { PREP_ERROR="kernel/build.sh failed"; return 0; }
	sd=$(tests/qemu/debian-package.sh systemd-boot-efi usr/lib/systemd/boot/efi/systemd-bootx64.efi \
		2>>"$PREP_LOG") || { PREP_ERROR="systemd-boot-efi (debian-package.sh) failed"; return 0; }
	grub=$(debian_chain_grub 2>>"$PREP_LOG") || { PREP_ERROR="Debian's GRUB failed"; return 0; }
	_prep "Debian's kernel as shipped" tests/qemu/debian-kernel.sh --as-shipped "$p/k-vendor.efi" &&
		_prep "unsigned companion kernel" cp "$kdir/bzImage" "$p/k-unsigned.efi" &&
		_prep "distinct companion kernels" _diff_distinct "$kdir/bzImage" inv-dbx "$p/k-dbx.unsigned" &&
		_prep "distinct companion kernels" _diff_distinct "$kdir/bzImage" inv-vdb "$p/k-vdbx.unsigned" &&
		_prep "distinct companion kernels" _diff_distinct "$kdir/bzImage" inv-mkx "$p/k-mkx.unsigned" &&
		_prep "distinct companion kernels" _diff_distinct "$kdir/bzImage" inv-sb5 "$p/k-sb5.unsigned" 5 ||
		return 0
	for key in db mok rogue revoked; do
		_prep "$key-signed companion kernel" sign_efi "$key" "$kdir/bzImage" "$p/k-$key.efi" || return 0
	done
	for k in dbx vdbx mkx sb5; do
		_prep "k-$k" sign_efi db "$p/k-$k.unsigned" "$p/k-$k.efi" || return 0
		rm -f "$p/k-$k.unsigned"
	done
	_prep "Debian's GRUB" cp "$grub" "$p/grub-vendor.efi" &&
		_prep "unsigned GRUB" unsign_efi "$grub" "$p/grub-unsigned.efi" &&
		_prep "unsigned systemd-boot" unsign_efi "$sd/systemd-bootx64.efi" "$p/sdboot-unsigned.efi" || return 0
	for key in db mok rogue; do
		_prep "$key-signed GRUB" sign_efi "$key" "$grub" "$p/grub-$key.efi" &&
			_prep "$key-signed systemd-boot" sign_efi "$key" "$sd/systemd-bootx64.efi" "$p/sdboot-$key.efi" ||
			return 0
	done
	# the lists: digests as lockshim computes them
	_prep "k-dbx's digest" _diff_hash_esl "$p/k-dbx.efi" "$p/esl-k-dbx.esl" &&
		_prep "k-vdbx's digest" _diff_hash_esl "$p/k-vdbx.efi" "$p/esl-k-vdbx.esl" &&
		_prep "k-mkx's digest" _diff_hash_esl "$p/k-mkx.efi" "$p/esl-k-mkx.esl" &&
		_prep "GRUB's digest" _diff_hash_esl "$p/grub-vendor.efi" "$p/esl-grub.esl" || return 0
	_prep "the PKI's lists" cp "$pki/mok.esl" "$p/esl-mok.esl" &&
		_prep "the PKI's lists" cp "$pki/rogue.esl" "$p/esl-rogue.esl" &&
		_prep "the PKI's lists" cp "$pki/db.esl" "$p/esl-db.esl" || return 0
	lockshim=$(debian_chain_lockshim "$DIFF_WORK/lockshim" "$p/esl-k-vdbx.esl" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="lockshim with Debian's vendor certificate failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	_prep "db-signed MOK manager" sign_efi db build/mmx64.efi "$p/mm-db.efi" &&
		_prep "db-signed lockshim" sign_efi db "$lockshim" "$p/lockshim-db.efi" &&
		_prep "rogue-signed lockshim" sign_efi rogue "$lockshim" "$p/lockshim-rogue.efi" &&
		_prep "unsigned lockshim" unsign_efi "$lockshim" "$p/lockshim-unsigned.efi" || return 0
	# the mirrors lockshim writes start with its own vendor lists (efi_handoff.c)
	_prep "vendor certificate list" cert-to-efi-sig-list -g "$SHIM_GUID" \
		<(openssl x509 -inform DER -in "$DIFF_WORK/lockshim/vendor.der") "$p/vendor.esl" &&
		cp "$DIFF_WORK/lockshim/vendor-dbx.esl" "$p/vendor-dbx.esl" || return 0
	_diff_level "$p/level-plain.txt"
	_diff_level "$p/level-grub6.txt" grub,6
	_diff_level "$p/level-sb6.txt" linux.lockshim,6
	_diff_level "$p/level-linux2.txt" linux,2
	cp certs/sbat-level-automatic.csv "$p/level-automatic.txt"
	local f
	for f in "$p"/*.efi "$p"/*.esl "$p"/level-*.txt; do
		echo "$(basename "${f%.*}") $f"
	done >"$p/pool.txt"
	DIFF_VARS=$(tests/qemu/vars.sh --variant differential --dbx-esl "$p/esl-k-dbx.esl" build/pki 2>>"$PREP_LOG" |
		tail -n 1) && [[ -s $DIFF_VARS ]] ||
		PREP_ERROR="tests/qemu/vars.sh --variant differential failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

diff_run_state() {
	local d=$1 state=$2 f rel
	local -a pairs=() stops=() boot=()
	rm -rf "${d:?}/esp" "${d:?}/efivars" "${d:?}/var" "$d/vars.fd" "$d/esp.img"
	python3 "$DIFF_PY" materialize "$state" "$DIFF_POOL/pool.txt" "$DIFF_VARS" "$d" || return 2
	while IFS= read -r -d '' f; do
		rel=${f#"$d/esp/"}
		pairs+=("$f" "$rel")
	done < <(find "$d/esp" -type f -print0 | sort -z)
	make_esp "$d/esp.img" "${pairs[@]}" || return 2
	for f in "${DIFF_STOPS[@]}"; do stops+=(--stop "$f"); done
	# a pending request: the owner turns it down (Enter at the yes prompt)
	run_qemu --esp "$d/esp.img" --vars "$d/vars.fd" --log "$d/boot.log" --timeout "$DIFF_TIMEOUT" \
		--grace 0.3 "${stops[@]}" --send-on "$MM_YES_ENROLL" '\r'
	local rc=$?
	echo "$QEMU_OUTCOME" >"$d/outcome"
	rm -f "$d/esp.img" "$d/boot.log.raw"
	if [[ $QEMU_OUTCOME == error ]] || (( rc == 1 )); then
		echo "not run $(basename "$d"): QEMU did not run"
		return 2
	fi
	[[ -d $d/esp/boot ]] && boot=(--boot "$d/esp/boot")
	timeout 60 build/lockshim check --json --efivars "$d/efivars" --esp "$d/esp" "${boot[@]}" \
		>"$d/check.json" 2>"$d/check.err"
	echo $? >"$d/check.rc"
	python3 "$DIFF_PY" compare "$state" "$d"
}
