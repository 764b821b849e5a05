# shellcheck shell=bash
# The differential kexec corpus: does the locked kernel's kexec_file_load()
# decide every image as lockshim does?
#
# tests/qemu/mkkexeccorpus.py makes the images (one kernel body; they differ
# in signatures and sections: every digest algorithm, SBAT present, absent,
# revoked or malformed, signer chains under the vendor CA, nested signatures
# and several certificate-table entries) and the lists: each deny-entry type
# lockshim applies, in dbx and in MokListX (which lockshim hands the kernel
# as the table's denials), and an SbatLevel. One Secure Boot boot: lockshim
# (db-signed, vendor certificate built in) with those dbx, MokList (trusted),
# MokListX and SbatLevel, boots the vendor-signed test kernel, and the probe
# kexec_file_load()s every image (--kexec-corpus: each put together in
# memory from the one body). On the host, `build/lockshim verify` judges
# each image with the same lists, as lockshim decides an image it starts
# (.sbat required: the table says lockshim required it of the kernel it
# started, and the kernel applies that rule at kexec) (vendor certificate,
# db, dbx with build/pki/revoked.esl as vars.sh enrolls it, MokList,
# MokListX, SbatLevel). The table of both answers is
# $LD_WORK/NAME.corpus (image, loader, kernel with its errno, equal or not).
#
# A difference fails the run unless tests/qemu/kexec-corpus.differences
# lists it (image, both answers), and a listed difference that is gone
# fails it too (the list must be the kernel's current state):
# KEXEC_CORPUS_WRITE=1 rewrites the list from the run instead.
#
#   KC_SET=sample   the images mkkexeccorpus.py marks (make check:
#                   tests/qemu/test_lockdown_kexec_corpus.sh)
#   KC_SET=full     every image (make kexec-corpus: tests/qemu/kexec-corpus.sh)
# Both boots use the same lists (all of them), so that an image is judged
# alike in both.

# shellcheck source=tests/qemu/lockdown.sh
. "$(dirname "${BASH_SOURCE[0]}")/lockdown.sh" # cds to the repository

KC_SET=${KC_SET:-sample}
KC_DIR= # the corpus, in the cache (kexec_corpus_make)
KC_DIFFERENCES=tests/qemu/kexec-corpus.differences
KC_INITRD=$LD_WORK/kexec-corpus-$KC_SET-initrd.img
KC_VARS=$LD_WORK/vars-kexec-corpus.fd
KC_IMAGES=() # the images of $KC_SET

# The corpus: $LOCKSHIM_CACHE/kexec-corpus-KEY (KC_DIR), KEY covering its
# inputs (the kernel, the generator, the CLI code that adds .sbat and
# hashes, the test PKI), made whole or not at all, and kept: a clone's
# first make check does not sign it again (about 40 s). Corpora of other
# keys go after two days.
kexec_corpus_make() {
	local key keys tmp
	key=$( {
		sha256sum "$KDIR/bzImage.raw" kernel/sbat.csv tests/qemu/mkkexeccorpus.py tests/cli/mkesl.py \
			tests/cli/ca-ext.cnf src/cli/pe_add_section.c src/core/authenticode.c src/core/pe.c \
			"$PKI"/{vendor,mok,rogue,revoked}.crt
		osslsigncode --version 2>&1 | head -n1
	} | sha256sum | cut -c1-16)
	KC_DIR=$LOCKSHIM_CACHE/kexec-corpus-$key
	[[ -f $KC_DIR/.complete ]] && return 0
	find "$LOCKSHIM_CACHE" -maxdepth 1 -name 'kexec-corpus-[0-9a-f]*' -mtime +2 -exec rm -rf {} + 2>/dev/null
	# Its keys are kept too, keyed by the generator and the test PKI: the
	# same lists every time, so the VARS holding them stay cached.
	keys=$LOCKSHIM_CACHE/kexec-corpus-keys-$(cat tests/qemu/mkkexeccorpus.py tests/cli/ca-ext.cnf \
		"$PKI"/{vendor,rogue}.crt | sha256sum | cut -c1-16)
	tmp=$KC_DIR.tmp$$
	rm -rf "$tmp" &&
		python3 tests/qemu/mkkexeccorpus.py "$tmp" --raw "$KDIR/bzImage.raw" --sbat kernel/sbat.csv \
			--pki "$PKI" --lockshim build/lockshim --keys "$keys" >&2 &&
		cat "$tmp/dbx.esl" "$PKI/revoked.esl" >"$tmp/dbx-enrolled.esl" &&
		touch "$tmp/.complete" && { mv -T "$tmp" "$KC_DIR" 2>/dev/null || [[ -f $KC_DIR/.complete ]]; }
	local rc=$?
	rm -rf "$tmp"
	return $rc
}

# $LD_WORK/kexec-corpus-$KC_SET/NAME.efi (links) for the images of the set.
kexec_corpus_set() {
	local dir=$LD_WORK/kexec-corpus-$KC_SET name sample what
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	while IFS=$'\t' read -r name sample what; do
		[[ $KC_SET == full || $sample == 1 ]] || continue
		ln -s "$KC_DIR/images/$name.efi" "$dir/$name.efi" || return 1
	done <"$KC_DIR/cases"
}

# The VARS: Secure Boot on, dbx with the corpus' entries first, MokList
# (build/pki/mok.esl) trusted, MokListX, SbatLevel.
kexec_corpus_vars() {
	local path
	path=$(tests/qemu/vars.sh --variant kexec-corpus --dbx-esl "$KC_DIR/dbx.esl" \
		--var "MokList:$MOK_GUID:0x3:$PKI/mok.esl" \
		--var "MokListTrusted:$MOK_GUID:0x3:$LD_WORK/MokListTrusted.bin" \
		--var "MokListX:$MOK_GUID:0x3:$KC_DIR/mokx.esl" \
		--var "SbatLevel:$MOK_GUID:0x3:$KC_DIR/level.csv" "$PKI" | tail -n1) &&
		[[ -s $path ]] && cp "$path" "$KC_VARS"
}

kexec_corpus_prepare() {
	lockdown_prepare || return 1
	command -v osslsigncode >/dev/null || { PREP_ERROR="osslsigncode missing (apt-get install osslsigncode)"; return 1; }
	local t0=$SECONDS
	_prep "the kexec corpus (tests/qemu/mkkexeccorpus.py)" kexec_corpus_make &&
		_prep "the corpus' $KC_SET set" kexec_corpus_set &&
		_prep "the probe initramfs with the corpus' $KC_SET set" \
			env KEXEC_CORPUS="$LD_WORK/kexec-corpus-$KC_SET" tests/initramfs/build-probe.sh "$KDIR" "$KC_INITRD" &&
		_prep "VARS with the corpus' lists" kexec_corpus_vars || return 1
	mapfile -t KC_IMAGES < <(awk -F'\t' -v set="$KC_SET" 'set == "full" || $2 == 1 { print $1 }' "$KC_DIR/cases")
	echo "# kexec corpus ($KC_SET): ${#KC_IMAGES[@]} images, prepared in $(( SECONDS - t0 ))s" >&2
}

# lockshim's answer for IMAGE, with the boot's lists: "allowed" or
# "refused", then its reason (the CLI's last line, without the path).
kexec_corpus_loader() {
	local out verdict=allowed
	out=$(build/lockshim verify --vendor-cert "$PKI/vendor.crt" --db "$PKI/db.esl" \
		--dbx "$KC_DIR/dbx-enrolled.esl" --mok "$PKI/mok.esl" --mokx "$KC_DIR/mokx.esl" \
		--sbat-level "$KC_DIR/level.csv" "$KC_DIR/images/$1.efi" 2>&1) || verdict=refused
	out=${out##*$'\n'}
	echo "$verdict ${out#*"/$1.efi: "}"
}

# kexec_corpus_boot NAME: the boot, the table, the verdict.
kexec_corpus_boot() {
	local name=$1 n loader kernel line errno eq bad=0 missing=0 diffs=0 t0=$SECONDS
	local out=$LD_WORK/$name.corpus PROBE_INITRD=$KC_INITRD
	local -A listed=() seen=()
	need_lockshim || return 1
	# An allowed load costs about a second of TCG, a refused one less.
	QEMU_TIMEOUT=$(( 120 + 3 * ${#KC_IMAGES[@]} )) lockdown_boot "$name" "$KC_VARS" \
		"$LD_WORK/lockshim-db.efi" "$LD_WORK/kernel-vendor.efi" || return 1
	# The boot this is about: locked by lockshim's table, with the lists.
	expect_bootlog 'locked down (Secure Boot, table v3)' &&
		expect_bootlog 'SbatLevel 2099010100 applies to kexec images' &&
		expect_probe lockdown integrity || return 1
	while read -r n loader kernel; do
		[[ -z $n || $n == \#* ]] || listed[$n]="$loader $kernel"
	done <"$KC_DIFFERENCES"
	printf '%-36s %-8s %-22s %s\n' image loader kernel equal >"$out"
	: >"$out.differences"
	for n in "${KC_IMAGES[@]}"; do
		loader=$(kexec_corpus_loader "$n")
		line=$(LC_ALL=C grep -m1 -F "PROBE kexec_file_load:$n " "$LOG")
		kernel=$(awk '{ print $3 }' <<<"$line")
		errno=$(grep -o 'errno=[A-Z?]*' <<<"$line")
		eq=yes
		if [[ $kernel != allowed && $kernel != refused ]]; then
			echo "FAIL: kexec_file_load:$n: ${line:-no line}" >&2
			bad=1 missing=1 eq=no
		elif [[ ${loader%% *} != "$kernel" ]]; then
			eq=no
			diffs=$(( diffs + 1 ))
			echo "$n loader=${loader%% *} kernel=$kernel" >>"$out.differences"
			if [[ ${listed[$n]:-} != "loader=${loader%% *} kernel=$kernel" ]]; then
				echo "FAIL: $n: lockshim ${loader%% *}, kexec $kernel${errno:+ ($errno)}: a difference $KC_DIFFERENCES does not list" >&2
				bad=1
			fi
		elif [[ -n ${listed[$n]:-} ]]; then
			echo "FAIL: $n: $KC_DIFFERENCES lists '${listed[$n]}', but both say $kernel now" >&2
			bad=1
		fi
		seen[$n]=1
		printf '%-36s %-8s %-22s %s  # %s\n' "$n" "${loader%% *}" "$kernel${errno:+ ${errno#errno=}}" \
			"$eq" "${loader#* }" >>"$out"
	done
	if [[ $KC_SET == full ]]; then
		for n in "${!listed[@]}"; do
			[[ -n ${seen[$n]:-} ]] && continue
			echo "FAIL: $KC_DIFFERENCES lists $n, which the corpus does not have" >&2
			bad=1
		done
	fi
	sed 's/^/# /' "$out" >&2
	echo "# kexec corpus ($KC_SET): ${#KC_IMAGES[@]} images, $diffs differences, QEMU ${QEMU_SECONDS}s, $(( SECONDS - t0 ))s in all; table: $out" >&2
	if (( ${KEXEC_CORPUS_WRITE:-0} )) && [[ $KC_SET == full ]]; then
		{
			sed -n '/^#/p' "$KC_DIFFERENCES"
			cat "$out.differences"
		} >"$KC_DIFFERENCES.new" && mv "$KC_DIFFERENCES.new" "$KC_DIFFERENCES"
		echo "# wrote $KC_DIFFERENCES ($diffs differences)" >&2
		return $(( missing ))
	fi
	(( !bad ))
}
sb_on_kexec_corpus_full_agrees() { kexec_corpus_boot "${FUNCNAME[0]}"; }
