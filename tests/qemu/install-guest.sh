# shellcheck shell=sh
# The install guest's steps (tests/qemu/test_install_live.sh), run by the
# guest's /init (tests/initramfs/mokutil-guest.sh) with busybox's sh: the
# ESP mounted where Debian mounts it, its /dev/disk/by-partuuid link as
# udev makes it, then `lockshim install` with the live defaults (efivarfs,
# the partition from sysfs), a dry run first, then `lockshim check`.
# INSTALL-RC NAME RC for the host.

mkdir -p /boot/efi /dev/disk/by-partuuid
partuuid=$(tail -c +5 "$EFIVARS"/LoaderDevicePartUUID-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f |
	tr -d '\000' | tr A-F a-f)
ln -s ../../vda1 "/dev/disk/by-partuuid/$partuuid"
step mount -t vfat /dev/vda1 /boot/efi
step lockshim install --vendor acme --first-stage /data/lockshim.efi --mok-manager /data/mmx64.efi --dry-run
echo "INSTALL-RC dry-run $?"
step lockshim install --vendor acme --first-stage /data/lockshim.efi --mok-manager /data/mmx64.efi
echo "INSTALL-RC install $?"
step lockshim check
echo "INSTALL-RC check $?"
step umount /boot/efi
