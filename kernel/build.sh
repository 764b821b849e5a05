#!/usr/bin/env bash
# Build the lockshim test kernel: Debian's linux-source-6.12 with the patch
# series in kernel/patches/, configured as tinyconfig + kernel/lockshim.config.
#
#   kernel/build.sh [--force] [--keep-tree] [--variant NAME]
#
# Prints the output directory on stdout (messages go to stderr):
#
#   ${XDG_CACHE_HOME:-$HOME/.cache}/lockshim/kernel-<hash>/
#     bzImage                 the kernel (an EFI application; no initramfs built
#                             in) carrying kernel/sbat.csv as its .sbat section
#     modules/lstest_<slot>.ko  the test module, unsigned, once per signer slot
#                             (unsigned vendor mok rogue db); tests sign copies
#     sign-file               the tree's scripts/sign-file, to sign them
#     bzImage.raw             the build's bzImage, without .sbat
#     sbat.key                what bzImage's .sbat was made from
#     config                  the final .config
#     System.map
#     INFO                    what went in (versions, hashes) and build times
#
# <hash> covers everything that changes the compiled kernel: the source
# package's version and the tarball's SHA-256, the patches, the config
# fragment, the test module, this script, and the compiler and binutils
# versions. A directory that exists is complete: the build runs in a
# temporary directory beside it and is renamed into place at the end. A warm
# run only hashes.
#
# bzImage is bzImage.raw (the build's) with kernel/sbat.csv added as .sbat by
# lockshim's add-sbat. That step is keyed apart (sbat.key: the CSV and the
# CLI's add-sbat code, src/cli/pe_add_section.c) and redone, in seconds,
# when either changes: the CLI's code can change without a kernel build.
#
#   --force       rebuild even when the output exists
#   --keep-tree   keep the build tree (source + objects, about 2.5 GB) in
#                 ${cache}/kernel-tree-<hash>/ for incremental work
#   --variant NAME  a test-only build: after the series, the patches of
#                 kernel/variants/NAME/ (*.patch) and, after the fragment,
#                 its config fragment (NAME/config, checked as the main one);
#                 never part of the shipped series (kernel/variants/README)
#
# Environment: JOBS (make -j, default 2), LINUX_SOURCE (the tarball, default
# /usr/src/linux-source-6.12.tar.xz, from the linux-source-6.12 package),
# LOCKSHIM_CLI (default build/lockshim: make builds it first).
# Needs: make gcc bc flex bison libelf-dev libssl-dev (and xz-utils, patch).
# One build at a time: builds take a lock in the cache directory.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
LINUX_SOURCE=${LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-2}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/lockshim
slots=(unsigned vendor mok rogue db)
force=0 keep=0 variant=

die() { echo "kernel/build.sh: $*" >&2; exit 1; }
say() { echo "kernel/build.sh: $*" >&2; }

while (( $# )); do
	case $1 in
	--force) force=1 ;;
	--keep-tree) keep=1 ;;
	--variant)
		[[ ${2:-} =~ ^[a-z0-9-]+$ && -d $here/variants/${2:-} ]] ||
			die "--variant: no kernel/variants/${2:-} (a name of [a-z0-9-])"
		variant=$2
		shift
		;;
	*) die "unknown option $1 (usage: kernel/build.sh [--force] [--keep-tree] [--variant NAME])" ;;
	esac
	shift
done

[[ -f $LINUX_SOURCE ]] || die "$LINUX_SOURCE missing (apt-get install linux-source-6.12)"
for tool in make gcc bc flex bison xz patch; do
	command -v "$tool" >/dev/null || die "$tool missing (apt-get install make gcc bc flex bison xz-utils patch)"
done
[[ -f /usr/include/libelf.h ]] || die "libelf-dev missing"
[[ -f /usr/include/openssl/evp.h ]] || die "libssl-dev missing"

shopt -s nullglob
# 0000-cover-letter.patch says what the series is for; it has no diff.
patches=()
for p in "$here"/patches/*.patch; do
	[[ ${p##*/} == 0000-cover-letter.patch ]] || patches+=("$p")
done
shopt -u nullglob
(( ${#patches[@]} )) || die "no patches in $here/patches"
variant_patches=()
variant_fragment=
if [[ -n $variant ]]; then
	shopt -s nullglob
	variant_patches=("$here/variants/$variant"/*.patch)
	shopt -u nullglob
	[[ -f $here/variants/$variant/config ]] && variant_fragment=$here/variants/$variant/config
fi
fragment=$here/lockshim.config
sbat_csv=$here/sbat.csv
add_section_src=$here/../src/cli/pe_add_section.c
cli=${LOCKSHIM_CLI:-$here/../build/lockshim}
testmod=$here/testmod/lstest.c
mkdir -p "$cache"

# ---- the key ------------------------------------------------------------------
# The tarball's SHA-256 is remembered per (size, mtime, inode): a warm run
# does not read 150 MB.
src_version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
src_stat=$(stat -L -c '%s %Y %i' "$LINUX_SOURCE")
src_memo=$cache/linux-source.sha256
src_sha=
if [[ -f $src_memo ]]; then
	read -r m_path m_size m_mtime m_inode m_sha <"$src_memo" || true
	[[ "${m_path:-} ${m_size:-} ${m_mtime:-} ${m_inode:-}" == "$LINUX_SOURCE $src_stat" ]] && src_sha=$m_sha
fi
if [[ -z $src_sha ]]; then
	src_sha=$(sha256sum "$LINUX_SOURCE" | cut -c1-64)
	echo "$LINUX_SOURCE $src_stat $src_sha" >"$src_memo.tmp.$$" && mv "$src_memo.tmp.$$" "$src_memo"
fi

key_inputs() {
	echo "lockshim-kernel-build 1"
	echo "source $src_version $src_sha"
	echo "gcc $(gcc --version | head -n1)"
	echo "ld $(ld --version | head -n1)"
	echo "slots ${slots[*]}"
	local f
	for f in "${patches[@]}" "$fragment" "$testmod" "$here/build.sh"; do
		echo "file $(basename "$f") $(sha256sum <"$f" | cut -c1-64)" # no paths: same key in any clone
	done
	[[ -z $variant ]] && return
	echo "variant $variant"
	for f in "${variant_patches[@]}" ${variant_fragment:+"$variant_fragment"}; do
		echo "variant-file $(basename "$f") $(sha256sum <"$f" | cut -c1-64)"
	done
}
hash=$(key_inputs | sha256sum | cut -c1-16)
outdir=$cache/kernel-$hash
sbat_key=$(for f in "$sbat_csv" "$add_section_src"; do
	echo "file $(basename "$f") $(sha256sum <"$f" | cut -c1-64)"
done | sha256sum | cut -c1-16)

# add_sbat DIR: DIR/bzImage is DIR/bzImage.raw with kernel/sbat.csv as .sbat
# (lockshim refuses a kernel without .sbat under Secure Boot, as shim does).
add_sbat() {
	local dir=$1
	[[ -x $cli ]] || die "$cli missing: run make first (it adds the .sbat section)"
	"$cli" add-sbat "$sbat_csv" "$dir/bzImage.raw" "$dir/bzImage.tmp.$$" ||
		die "add-sbat failed on $dir/bzImage.raw"
	echo "$sbat_key" >"$dir/sbat.key.tmp.$$"
	mv "$dir/bzImage.tmp.$$" "$dir/bzImage"
	mv "$dir/sbat.key.tmp.$$" "$dir/sbat.key"
}

# A complete output: its .sbat is current, or made so under the lock.
output_ready() {
	(( !force )) && [[ -f $outdir/bzImage.raw && -f $outdir/INFO ]] || return 1
	[[ $(cat "$outdir/sbat.key" 2>/dev/null) == "$sbat_key" && -f $outdir/bzImage ]] && return 0
	flock "$lockfd"
	[[ $(cat "$outdir/sbat.key" 2>/dev/null) == "$sbat_key" && -f $outdir/bzImage ]] || add_sbat "$outdir"
	return 0
}

exec {lockfd}>"$cache/kernel-build.lock"
if output_ready; then
	echo "$outdir"
	exit 0
fi

# ---- one build at a time ---------------------------------------------------------
if ! flock -n "$lockfd"; then
	say "another kernel build holds $cache/kernel-build.lock; waiting"
	flock "$lockfd"
fi
if output_ready; then
	echo "$outdir"
	exit 0
fi

[[ -x $cli ]] || die "$cli missing: run make first (it adds the .sbat section)"
tmp=$(mktemp -d "$cache/.kernel-build-$hash.XXXXXX")
log=$tmp/build.log
cleanup() {
	local rc=$?
	if (( rc != 0 )); then
		[[ -f $log ]] && cp "$log" "$cache/kernel-build-failed.log" &&
			say "failed; log: $cache/kernel-build-failed.log"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

t0=$SECONDS
step() { # step NAME CMD...: run with output to the log; show its tail on failure
	local name=$1; shift
	echo "== $name: $*" >>"$log"
	if ! "$@" >>"$log" 2>&1; then
		echo "kernel/build.sh: $name failed:" >&2
		tail -n 30 "$log" | sed 's/^/| /' >&2
		exit 1
	fi
}

src=$tmp/src obj=$tmp/obj
mkdir -p "$src" "$obj"
say "extracting $(basename "$LINUX_SOURCE") ($src_version)"
step extract tar -xf "$LINUX_SOURCE" -C "$src" --strip-components=1
for p in "${patches[@]}" "${variant_patches[@]}"; do
	step "patch $(basename "$p")" patch -d "$src" -p1 --batch --forward --fuzz=0 -i "$p"
done
t_src=$SECONDS

# ---- configuration -------------------------------------------------------------
say "configuring: tinyconfig + $(basename "$fragment")"
step tinyconfig make -C "$src" O="$obj" tinyconfig
step merge_config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" \
	${variant_fragment:+"$variant_fragment"}
step olddefconfig make -C "$src" O="$obj" olddefconfig

# Every line of the fragment must have survived: dependencies drop options
# silently. A variant's line replaces the fragment's for the same option.
fragment_lines() {
	local named
	if [[ -z $variant_fragment ]]; then
		cat "$fragment"
		return
	fi
	named=$(grep -oE 'CONFIG_[A-Za-z0-9_]+' "$variant_fragment" | sort -u)
	grep -vwF -f <(echo "$named") "$fragment"
	cat "$variant_fragment"
}
bad=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF -- "$line" "$obj/.config" ||
			bad+=("$line (got: $(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo 'not present'))")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }; opt=${opt%% *}
		if grep -q "^$opt=" "$obj/.config"; then
			bad+=("$line (got: $(grep "^$opt=" "$obj/.config"))")
		fi
		;;
	esac
done < <(fragment_lines)
if (( ${#bad[@]} )); then
	echo "kernel/build.sh: options of $(basename "$fragment")${variant:+ and variant $variant} not set as asked after olddefconfig:" >&2
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi
t_cfg=$SECONDS

# ---- build -------------------------------------------------------------------------
say "building bzImage and modules (make -j$JOBS; log $log)"
step build make -C "$src" O="$obj" -j"$JOBS" bzImage modules
t_kernel=$SECONDS

tm=$tmp/testmod
mkdir -p "$tm"
: >"$tm/Kbuild"
for s in "${slots[@]}"; do
	cp "$testmod" "$tm/lstest_$s.c"
	echo "obj-m += lstest_$s.o" >>"$tm/Kbuild"
done
step testmod make -C "$obj" M="$tm" -j"$JOBS" modules
t_mod=$SECONDS

# ---- output ------------------------------------------------------------------------
stage=$tmp/out
mkdir -p "$stage/modules"
cp "$obj/arch/x86/boot/bzImage" "$stage/bzImage.raw"
add_sbat "$stage"
cp "$obj/.config" "$stage/config"
cp "$obj/System.map" "$stage/System.map"
cp "$obj/scripts/sign-file" "$stage/sign-file"
for s in "${slots[@]}"; do
	cp "$tm/lstest_$s.ko" "$stage/modules/"
done
{
	echo "kernel $(cat "$obj/include/config/kernel.release")"
	key_inputs
	echo "build-key $(openssl x509 -in "$obj/certs/signing_key.x509" -inform DER -noout -subject 2>/dev/null || echo none)"
	echo "bzImage-bytes $(stat -c %s "$stage/bzImage.raw") (without .sbat)"
	echo "seconds extract+patch=$t_src config=$(( t_cfg - t_src )) kernel=$(( t_kernel - t_cfg )) testmod=$(( t_mod - t_kernel )) total=$(( SECONDS - t0 ))"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) jobs=$JOBS"
} >"$stage/INFO"
cp "$log" "$stage/build.log"

if (( keep )); then
	rm -rf "$cache/kernel-tree-$hash"
	mkdir -p "$cache/kernel-tree-$hash"
	mv "$src" "$obj" "$cache/kernel-tree-$hash/"
fi

# Only --force replaces an existing output: move the old one aside (it goes
# with $tmp), then rename the new one into place.
[[ -e $outdir ]] && mv "$outdir" "$tmp/old"
mv "$stage" "$outdir"
say "built $outdir in $(( SECONDS - t0 ))s (bzImage $(stat -c %s "$outdir/bzImage") bytes)"
echo "$outdir"
