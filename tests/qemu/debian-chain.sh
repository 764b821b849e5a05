# shellcheck shell=bash disable=SC2034  # its variables are read by the files that source it
# Debian's own Secure Boot chain with lockshim as its first stage:
# firmware -> lockshim (Debian's vendor certificate and dbx embedded) ->
# Debian's signed GRUB -> a kernel (or, for make bench, a payload GRUB
# chainloads). Shared by tests/qemu/test_debian_chain.sh and
# tests/bench/boot_overhead.sh; source it after tests/qemu/lib.sh.
#
# The ESP is laid out as Debian installs shim, with lockshim in shim's place:
#   \EFI\debian\<first stage>   lockshimx64.efi (or shimx64.efi), started by Boot0001
#   \EFI\debian\grubx64.efi     Debian's grubx64.efi.signed, bytes untouched
#   \EFI\debian\grub.cfg        read by that GRUB (prefix /EFI/debian)
#   \boot\vmlinuz, \boot\initrd.img   what grub.cfg boots (the bench: \boot\payload.efi)
# lockshim gives its own initrd only to a kernel it starts, never to GRUB
# (test_debian_chain.sh lays a decoy initrd.img beside grubx64.efi to show it).
#
# debian_chain_lockshim DIR [EXTRA_DBX.esl]
#     Build lockshim the way a Debian machine needs it: the vendor
#     certificate and vendor dbx of Debian's signed shim (shim-signed,
#     tests/qemu/debian-vendor-cert.sh) embedded, grubx64.efi as the default
#     loader: `make variant VARIANT=DIR`, a link of build/'s objects (the
#     test and the bench use DEBIAN_CHAIN_BUILD). DIR gets vendor.der,
#     vendor-dbx.esl and lockshimx64.efi (unsigned); prints the path of
#     lockshimx64.efi. EXTRA_DBX's lists are appended to the vendor dbx
#     (tests/differential revokes one of its images there).
# debian_chain_grub
#     Prints the path of Debian's grubx64.efi.signed (grub-efi-amd64-signed).
# debian_chain_grub_cfg OUT CMDLINE
#     Write a grub.cfg that boots \boot\vmlinuz with \boot\initrd.img and
#     CMDLINE at once (timeout 0), saying LOCKSHIM-GRUB lines on the console
#     before each step.
# debian_chain_grub_cfg_chainload OUT ESPPATH
#     Write a grub.cfg that chainloads \ESPPATH (an EFI application) at once
#     (timeout 0): GRUB asks SHIM_LOCK's Verify, then the firmware's LoadImage.
# debian_chain_esp IMG FIRST_STAGE_NAME FIRST_STAGE GRUB_CFG SRC ESPPATH...
#     The ESP above, FIRST_STAGE at \EFI\debian\FIRST_STAGE_NAME, and each
#     SRC that grub.cfg boots at its ESPPATH (e.g. KERNEL boot/vmlinuz).
# debian_chain_boot_entry OUT FIRST_STAGE_NAME
#     The Boot0001 load option for \EFI\debian\FIRST_STAGE_NAME, with no
#     optional data (as efibootmgr writes Debian's "debian" entry).
#
# Variables: DEBIAN_CHAIN_BUILD (build/debian-chain, absolute);
# DEBIAN_CHAIN_BOOT_VARS, the vars.sh --var arguments that make
# Boot0001 (from DEBIAN_CHAIN_BOOT_OPTION, a file debian_chain_boot_entry
# wrote) the only boot entry; GLOBAL_VARIABLE_GUID.

GLOBAL_VARIABLE_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
DEBIAN_CHAIN_GRUB_DIR=EFI/debian
DEBIAN_CHAIN_BUILD=$LOCKSHIM_ROOT/build/debian-chain

debian_chain_lockshim() {
	local dir shim_dir extra=${2:-}
	# absolute: make runs in the repository, the caller may not
	dir=$(mkdir -p "$1" && cd "$1" && pwd) || return 1
	shim_dir=$("$LOCKSHIM_ROOT/tests/qemu/debian-package.sh" shim-signed \
		usr/lib/shim/shimx64.efi.signed) || return 1
	"$LOCKSHIM_ROOT/tests/qemu/debian-vendor-cert.sh" "$shim_dir/shimx64.efi.signed" "$dir" >/dev/null ||
		return 1
	if [[ -n $extra ]]; then
		cat "$extra" >>"$dir/vendor-dbx.esl" || return 1
	fi
	"$LOCKSHIM_ROOT/tests/make-locked.sh" -s variant VARIANT="$dir" VARIANT_CERT="$dir/vendor.der" \
		VARIANT_DBX="$dir/vendor-dbx.esl" VARIANT_DEFAULT_LOADER=grubx64.efi >&2 ||
		return 1
	echo "$dir/lockshimx64.efi"
}

debian_chain_grub() {
	local grub_dir
	grub_dir=$("$LOCKSHIM_ROOT/tests/qemu/debian-package.sh" grub-efi-amd64-signed \
		usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed) || return 1
	echo "$grub_dir/grubx64.efi.signed"
}

# _debian_chain_grub_menu OUT: a grub.cfg whose one entry, run at once,
# holds the commands read from stdin.
_debian_chain_grub_menu() {
	{
		printf "set default=0\nset timeout=0\nmenuentry 'Debian GNU/Linux' {\n"
		cat
		printf '}\n'
	} >"$1"
}

debian_chain_grub_cfg() {
	local out=$1 cmdline=$2
	_debian_chain_grub_menu "$out" <<-EOF
		echo 'LOCKSHIM-GRUB: loading /boot/vmlinuz'
		linux /boot/vmlinuz $cmdline
		echo 'LOCKSHIM-GRUB: loading /boot/initrd.img'
		initrd /boot/initrd.img
		echo 'LOCKSHIM-GRUB: booting'
	EOF
}

debian_chain_grub_cfg_chainload() {
	local out=$1 path=/${2#/}
	_debian_chain_grub_menu "$out" <<-EOF
		echo 'LOCKSHIM-GRUB: chainloading $path'
		chainloader $path
		echo 'LOCKSHIM-GRUB: booting'
		boot
	EOF
}

debian_chain_esp() {
	local img=$1 name=$2 first=$3 cfg=$4 grub
	shift 4
	grub=$(debian_chain_grub) || return 1
	make_esp "$img" \
		"$first" "$DEBIAN_CHAIN_GRUB_DIR/$name" \
		"$grub" "$DEBIAN_CHAIN_GRUB_DIR/grubx64.efi" \
		"$cfg" "$DEBIAN_CHAIN_GRUB_DIR/grub.cfg" \
		"$@"
}

debian_chain_boot_entry() {
	local out=$1 name=$2
	python3 "$LOCKSHIM_ROOT/tests/qemu/mkloadoption.py" "$out" debian \
		"\\${DEBIAN_CHAIN_GRUB_DIR//\//\\}\\$name" || return 1
	printf '\x01\x00' >"$out.order"
	DEBIAN_CHAIN_BOOT_VARS=(
		--var "Boot0001:$GLOBAL_VARIABLE_GUID:0x7:$out"
		--var "BootOrder:$GLOBAL_VARIABLE_GUID:0x7:$out.order"
	)
}
