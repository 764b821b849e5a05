# shellcheck shell=sh
# make distro-test's initramfs steps (tests/initramfs/mokutil-guest.sh
# --steps): sourced by its /init with the modules loaded and efivarfs
# mounted; mounts the root the command line names (root=, the ext4 disk),
# the ESP at /boot/efi, moves /dev, /proc and /sys (efivarfs with it) there,
# and hands over to the Debian system's /sbin/lockshim-distro-init
# (tests/distro/guest-init.sh) with switch_root, so that PID 1's root is
# the system's (ischroot, which the hooks ask, says no).
root=$(sed -n 's/.* root=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p /newroot
if mount -t ext4 -o rw "$root" /newroot && mount -t vfat /dev/vda1 /newroot/boot/efi &&
	mount --move /sys /newroot/sys && mount --move /proc /newroot/proc &&
	mount --move /dev /newroot/dev; then
	exec /bin/busybox switch_root /newroot /sbin/lockshim-distro-init
fi
echo "DISTRO-TEST-ERROR cannot mount the root ($root) or the ESP"
