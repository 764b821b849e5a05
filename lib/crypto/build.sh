#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# Fetch Debian's openssl source, build a static libcrypto for x86_64 UEFI and
# cache it; then copy libcrypto.a and the configured headers to $OUT.
#
#   lib/crypto/build.sh            (normally run by lib/crypto/crypto.mk)
#
# Environment (all optional):
#   BUILD          build directory                         (default: build)
#   CACHE_DIR      cache root (${XDG_CACHE_HOME:-$HOME/.cache}/lockshim)
#   CRYPTO_ASM     1 = x86_64 assembly (default), 0 = portable C (no-asm)
#   CRYPTO_JOBS    parallel jobs for the OpenSSL build     (default: 2)
#   CRYPTO_REFRESH 1 = fetch the source again (picks up a new Debian upload)
#
# Layout:
#   $BUILD/crypto/apt/                private sources.list + apt lists/cache
#   $CACHE_DIR/src/openssl/           the fetched .dsc, orig tarball, Debian diff
#   $CACHE_DIR/openssl-<key>/         libcrypto.a, include/, BUILDINFO
#   $BUILD/crypto/libcrypto.a, include/   copies the Makefile uses
#
# <key> hashes the Debian source version and .dsc, the Configure target and
# options (so CRYPTO_ASM), the compile flags, the compiler, this script and
# the files it applies (prelude, target, patch), so a change to any of them
# builds a new entry. A warm run (entry present) calls no apt.
# Entries appear atomically: built in a temporary directory, then renamed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${BUILD:-build}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/lockshim}
CRYPTO_ASM=${CRYPTO_ASM:-1}
CRYPTO_JOBS=${CRYPTO_JOBS:-2}
CRYPTO_REFRESH=${CRYPTO_REFRESH:-0}

mkdir -p "$BUILD/crypto" "$CACHE_DIR"
BUILD=$(cd "$BUILD" && pwd)
CACHE_DIR=$(cd "$CACHE_DIR" && pwd)
OUT=$BUILD/crypto
SRC_CACHE=$CACHE_DIR/src/openssl

# Do not let a parent make's flags (variable overrides, -s, jobserver) leak
# into OpenSSL's own Makefile.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL GNUMAKEFLAGS

log() { printf 'crypto: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# ---------------------------------------------------------------- recipe
CONFIG_OPTS=(
	--with-rand-seed=none
	no-shared
	no-threads no-async no-atexit no-secure-memory
	no-sock no-dgram no-stdio no-posix-io no-dso no-module
	no-engine no-ui-console no-autoload-config
	no-tests no-legacy no-deprecated no-makedepend
	no-ec no-dh no-dsa no-sm2 no-sm3 no-sm4 no-gost
	no-des no-rc2 no-rc4 no-idea no-seed no-bf no-cast no-camellia no-aria
	no-md4 no-mdc2 no-rmd160 no-whirlpool no-blake2 no-siphash
	no-chacha no-poly1305 no-ocb no-siv no-cmac no-scrypt
	no-cms no-cmp no-ct no-ocsp no-ts no-srp no-psk no-comp no-rfc3779
	no-ssl no-tls no-dtls no-nextprotoneg no-srtp no-ssl-trace
	no-filenames no-fips no-err
)
# Compile flags for every OpenSSL object; the prelude is force-included on top.
# LOCKSHIM_VERIFY_ONLY switches on openssl-verify-only.patch (below).
CFLAGS_COMMON="-fpic -fshort-wchar -mno-red-zone -ffreestanding -fno-stack-protector -fno-strict-aliasing -ffunction-sections -fdata-sections -Wno-unused-parameter -DLOCKSHIM_VERIFY_ONLY"
# CRYPTO_ASM=1: OpenSSL's x86_64 perlasm in its ELF/GAS flavour (System V
# ABI, like the C around it), through our target uefi-x86_64-elf.conf
# (OpenSSL's UEFI-x86_64 would emit nasm for the Microsoft ABI). The hot
# paths (SHA-2, bignum) are then assembly, so the C is compiled for size.
# CRYPTO_ASM=0: portable C, compiled for speed (its SHA-2 is C).
ASM_CONF=uefi-x86_64-elf.conf
case $CRYPTO_ASM in
1)
	TARGET=lockshim-UEFI-x86_64-elf
	CONFIG_OPTS+=("--config=../$ASM_CONF")
	CFLAGS_BASE="-Os $CFLAGS_COMMON"
	;;
0)
	TARGET=UEFI-x86_64
	CONFIG_OPTS+=(no-asm)
	CFLAGS_BASE="-O2 $CFLAGS_COMMON"
	;;
*) die "CRYPTO_ASM=$CRYPTO_ASM: use 1 (x86_64 assembly) or 0 (portable C)" ;;
esac
# Applied to the unpacked source, after Debian's patches.
PATCHES=(openssl-verify-only.patch)
# libefi.a defines memcpy/memset (byte loops) in init.o, next to InitializeLib,
# so libc-efi.a cannot define them too. libcrypto's calls are renamed to the
# word-wise versions in lib/crypto/libc instead.
REDEFINE_SYMS=(memcpy=lockshim_memcpy memset=lockshim_memset)
# Sections the perlasm objects carry that mean nothing in a PE image: .init
# (x86_64cpuid's constructor call to OPENSSL_cpuid_setup; nothing runs .init
# under UEFI, crypto_cpu_init() makes that call) and .note.gnu.property (the
# CET marking; allocated, so it would also trip check-pe-sections.sh).
REMOVE_SECTIONS=(.init .note.gnu.property)

# ---------------------------------------------------------------- source
apt_fetch() {
	local apt=$OUT/apt dl
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$CACHE_DIR/src"
	echo 'deb-src http://deb.debian.org/debian bookworm main' >"$apt/sources.list"
	local opts=(
		-q -o "Dir::Etc::SourceList=$apt/sources.list"
		-o Dir::Etc::SourceParts=/nonexistent
		-o "Dir::State::Lists=$apt/lists"
		-o "Dir::Cache=$apt/cache"
		-o APT::Sandbox::User=root
		-o Acquire::Languages=none
	)
	log "fetching openssl source (apt-get source, bookworm main)"
	apt-get "${opts[@]}" update >"$apt/update.log" 2>&1 ||
		{ cat "$apt/update.log" >&2; die "apt-get update failed"; }
	dl=$(mktemp -d "$CACHE_DIR/src/.openssl.XXXXXX")
	(cd "$dl" && apt-get "${opts[@]}" source --download-only openssl) >"$apt/source.log" 2>&1 ||
		{ cat "$apt/source.log" >&2; rm -rf "$dl"; die "apt-get source failed"; }
	compgen -G "$dl/openssl_*.dsc" >/dev/null || { rm -rf "$dl"; die "no .dsc downloaded"; }
	rm -rf "$SRC_CACHE.old"
	[[ -d $SRC_CACHE ]] && mv "$SRC_CACHE" "$SRC_CACHE.old"
	mv -T "$dl" "$SRC_CACHE"
	rm -rf "$SRC_CACHE.old"
}

# ---------------------------------------------------------------- build
build_entry() {
	local key=$1 dsc=$2 recipe=$3 work cflags entry_tmp
	work=$(mktemp -d "$OUT/work.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$work'" EXIT
	local blog=$OUT/openssl-build.log
	log "building libcrypto ($TARGET, key $key), log: $blog"
	cp "$here/uefi-prelude.h" "$here/$ASM_CONF" "$work/"
	dpkg-source -x "$dsc" "$work/src" >"$blog" 2>&1 ||
		{ tail -20 "$blog" >&2; die "dpkg-source -x failed"; }
	local p
	for p in "${PATCHES[@]}"; do
		patch -d "$work/src" -p1 --fuzz=0 --no-backup-if-mismatch <"$here/$p" >>"$blog" 2>&1 ||
			{ tail -20 "$blog" >&2; die "$p does not apply to openssl $version"; }
	done
	# Relative path (OpenSSL compiles from the top of its tree) and a fixed
	# build date keep the archive byte-for-byte reproducible.
	cflags="$CFLAGS_BASE -include ../uefi-prelude.h"
	(
		cd "$work/src"
		SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -STimestamp)
		export SOURCE_DATE_EPOCH
		./Configure "$TARGET" "${CONFIG_OPTS[@]}" CC=gcc AR=ar RANLIB=ranlib "CFLAGS=$cflags" &&
			make -j"$CRYPTO_JOBS" build_generated &&
			make -j"$CRYPTO_JOBS" libcrypto.a
	) >>"$blog" 2>&1 || { tail -30 "$blog" >&2; die "OpenSSL build failed (see $blog)"; }

	local syms=() s
	for s in "${REDEFINE_SYMS[@]}"; do syms+=(--redefine-sym "$s"); done
	for s in "${REMOVE_SECTIONS[@]}"; do syms+=(--remove-section "$s"); done
	objcopy "${syms[@]}" "$work/src/libcrypto.a" "$work/libcrypto.a"

	entry_tmp=$(mktemp -d "$CACHE_DIR/.openssl-$key.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$work' '$entry_tmp'" EXIT
	cp "$work/libcrypto.a" "$entry_tmp/libcrypto.a"
	mkdir -p "$entry_tmp/include/openssl"
	cp "$work/src/include/openssl/"*.h "$entry_tmp/include/openssl/"
	rm -f "$entry_tmp/include/openssl/__DECC_"*.h
	printf '%s\n' "$recipe" >"$entry_tmp/BUILDINFO"
	chmod -R a+rX "$entry_tmp"
	# Under the lock; anything at the final name is incomplete (not renamed
	# there by this script), so replace it.
	rm -rf "$CACHE_DIR/openssl-$key"
	mv -T "$entry_tmp" "$CACHE_DIR/openssl-$key"
	rm -rf "$work"
	trap - EXIT
}

# ---------------------------------------------------------------- main
exec 9>"$CACHE_DIR/.openssl.lock"
flock 9
# Holding the lock, any temporary left here was abandoned by a killed run.
rm -rf "$CACHE_DIR"/.openssl-* "$CACHE_DIR/src"/.openssl.* "$OUT"/work.* \
	"$OUT/include.tmp" "$OUT/libcrypto.a.tmp"

[[ $CRYPTO_REFRESH == 1 ]] && apt_fetch
dscs=("$SRC_CACHE"/openssl_*.dsc)
if [[ ! -f ${dscs[0]} ]]; then
	apt_fetch
	dscs=("$SRC_CACHE"/openssl_*.dsc)
fi
[[ ${#dscs[@]} -eq 1 && -f ${dscs[0]} ]] || die "expected one .dsc in $SRC_CACHE"
dsc=${dscs[0]}
version=$(sed -n 's/^Version: *//p' "$dsc")
[[ -n $version ]] || die "no Version in $dsc"

recipe=$(
	printf '%s\n' \
		"openssl-debian-version=$version" \
		"dsc-sha256=$(sha256sum <"$dsc" | cut -d' ' -f1)" \
		"target=$TARGET" \
		"configure=${CONFIG_OPTS[*]}" \
		"cflags=$CFLAGS_BASE -include ../uefi-prelude.h" \
		"redefine=${REDEFINE_SYMS[*]}" \
		"remove-sections=${REMOVE_SECTIONS[*]}" \
		"asm=$CRYPTO_ASM" \
		"cc=$(gcc --version | head -1)" \
		"binutils=$(objcopy --version | head -1)" \
		"build.sh=$(sha256sum <"$here/build.sh" | cut -d' ' -f1)" \
		"uefi-prelude.h=$(sha256sum <"$here/uefi-prelude.h" | cut -d' ' -f1)" \
		"$ASM_CONF=$(sha256sum <"$here/$ASM_CONF" | cut -d' ' -f1)" \
		"patches=$(cd "$here" && sha256sum "${PATCHES[@]}" | cut -d' ' -f1 | tr '\n' ' ')"
)
key=$(sha256sum <<<"$recipe" | cut -c1-16)
entry=$CACHE_DIR/openssl-$key

if [[ ! -f $entry/BUILDINFO || ! -f $entry/libcrypto.a ||
	! -f $entry/include/openssl/configuration.h ]]; then
	build_entry "$key" "$dsc" "$recipe"
fi

# Publish to $OUT only when the entry differs from what is there, so make sees
# an unchanged libcrypto.a on a warm run.
if [[ $(cat "$OUT/.key" 2>/dev/null) != "$key" || ! -f $OUT/libcrypto.a ||
	! -f $OUT/include/openssl/configuration.h ]]; then
	rm -rf "$OUT/include.tmp" "$OUT/include"
	cp -R "$entry/include" "$OUT/include.tmp"
	mv -T "$OUT/include.tmp" "$OUT/include"
	cp "$entry/libcrypto.a" "$OUT/libcrypto.a.tmp"
	mv -f "$OUT/libcrypto.a.tmp" "$OUT/libcrypto.a"
	echo "$key" >"$OUT/.key"
	log "libcrypto $version ($key) -> $OUT/libcrypto.a"
fi
