#!/usr/bin/env bash
# Install the Debian 12 packages lockshim builds and tests with, only those missing.
# Idempotent: when everything is present it costs one dpkg-query call.
set -euo pipefail

packages=(
	make gcc binutils libc6-dev xz-utils cpio dpkg-dev python3
	ccache                   # compiles a clean clone has seen before, from the cache
	gnu-efi                  # EFI headers, crt0, linker script, libefi/libgnuefi
	libssl-dev openssl       # host build of the core; test PKI
	ovmf qemu-system-x86     # Secure Boot firmware and the emulator
	sbsigntool efitools      # signing, signature lists, .auth payloads
	osslsigncode pesign libnss3-tools  # other signers, for interoperability tests
	clang libclang-rt-14-dev # libFuzzer targets and their sanitizer runtimes
	clang-format             # the C format (.clang-format, make format)
	mtools                   # FAT images without loop devices
	busybox-static           # test initramfs
	mokutil swtpm tpm2-tools  # MOK tests; measured boot (TPM emulator, event log replay)
	python3-jsonschema       # --json output against docs/lockshim.schema.json (test_json_schema.sh)
	libsystemd-shared e2fsprogs  # Debian's bootctl and chattr in the check guest (test_check.sh)
	linux-source-6.12 bc flex bison libelf-dev patch  # the companion kernel
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[[ $status == ii* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
	echo "bootstrap: missing packages: ${missing[*]}; run as root or install them" >&2
	exit 1
fi
echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
