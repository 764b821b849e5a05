#!/usr/bin/env bash
# make install DESTDIR=... [PREFIX=...]: exactly the files promised (the
# CLI, the pages, bash completion, the unsigned EFI images, the hooks),
# with their modes, and the hooks pointing at check-update where PREFIX put it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/cli/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# listing DIR: "MODE PATH" of every file and link under DIR, sorted
listing() { (cd "$1" && find . ! -type d -printf '%m %P\n' | sort); }

pages=$(cd man && ls -- *.[17] | sort)
[[ -n $pages ]] || not_ok "install: no pages in man/"
want=$(
	{
		echo "755 etc/kernel/postinst.d/zz-lockshim"
		echo "644 etc/apt/apt.conf.d/60lockshim"
		echo "755 PREFIX/bin/lockshim"
		echo "644 PREFIX/lib/lockshim/lockshimx64.efi"
		echo "644 PREFIX/lib/lockshim/mmx64.efi"
		echo "755 PREFIX/lib/lockshim/check-update"
		echo "755 PREFIX/lib/lockshim/apt-hook"
		echo "755 PREFIX/lib/kernel/install.d/88-lockshim.install"
		echo "644 PREFIX/share/bash-completion/completions/lockshim"
		for p in $pages; do echo "644 PREFIX/share/man/man${p##*.}/$p"; done
	} | sort
)
for prefix in /usr /usr/local; do
	d=$tmp/root$prefix
	if ! out=$(tests/make-locked.sh -s install DESTDIR="$d" PREFIX="$prefix" BUILD="$BUILD" 2>&1); then
		not_ok "install: make install PREFIX=$prefix failed: $out"
		continue
	fi
	got=$(listing "$d")
	expected=$(sed "s|PREFIX/|${prefix#/}/|" <<<"$want" | sort)
	if [[ $got == "$expected" ]]; then
		ok "install: PREFIX=$prefix installs exactly the $(wc -l <<<"$got") files"
	else
		not_ok "install: PREFIX=$prefix: $(diff <(echo "$expected") <(echo "$got"))"
	fi
	cmp -s "$d$prefix/lib/lockshim/lockshimx64.efi" "$BUILD/lockshimx64.efi" &&
		cmp -s "$d$prefix/bin/lockshim" "$BUILD/lockshim" &&
		ok "install: PREFIX=$prefix: the images and the CLI are the build's" ||
		not_ok "install: PREFIX=$prefix: installed files differ from $BUILD's"
	# the hooks find check-update where this PREFIX put it, and nothing else
	refs=$(grep -ho '/usr[a-z/]*/lib/lockshim' "$d/etc/kernel/postinst.d/zz-lockshim" \
		"$d$prefix/lib/kernel/install.d/88-lockshim.install" "$d/etc/apt/apt.conf.d/60lockshim" \
		"$d$prefix/lib/lockshim/apt-hook" | sort -u)
	[[ $refs == "$prefix/lib/lockshim" ]] && ok "install: PREFIX=$prefix: the hooks name $refs" ||
		not_ok "install: PREFIX=$prefix: the hooks name '$refs'"
done
# the package's version is the release's (VERSION's first line)
deb_version=$(dpkg-parsechangelog -l debian/changelog -SVersion)
[[ $deb_version == "$(head -n 1 VERSION)" ]] && ok "install: debian/changelog is at release $deb_version" ||
	not_ok "install: debian/changelog is at $deb_version, VERSION at $(head -n 1 VERSION)"
exit $failed
