# shellcheck shell=sh
# The check guest's steps (tests/qemu/test_check.sh), run by the guest's
# /init (tests/initramfs/mokutil-guest.sh) with busybox's sh. /data/phase
# says which boot this is:
#   s0  `lockshim check` today and with the dbx update, then the update
#       applied as dbxtool applies one: an append write through efivarfs
#   s1  the ESP mounted at /mnt/esp, found through /dev/disk/by-partuuid;
#       a lockshim update installed on it, `lockshim check
#       --sbat-level latest`, then SbatPolicy set to latest as `mokutil
#       --set-sbat-policy latest` does
# Each `check --json` is one line for the host: CHECK-JSON NAME {...}.
# In s0, `lockshim verify` with no list option answers from this machine's
# own lists, before and after the dbx update: VERIFY-RC NAME EXIT.

# check NAME ARGS...: `lockshim check ARGS` as a person reads it, then as
# the host compares it
check() {
	name=$1
	shift
	step lockshim check "$@"
	lockshim check --json "$@" >/tmp/$name.json 2>/tmp/$name.err
	echo "CHECK-RC $name $?"
	sed 's/^/CHECK-ERR /' /tmp/$name.err
	echo "CHECK-JSON $name $(cat /tmp/$name.json)"
}

# verify NAME IMAGE: `lockshim verify IMAGE` against the running machine's
# lists, as a person reads it, then its exit status alone (-q)
verify() {
	step lockshim verify "$2"
	lockshim verify -q "$2" >/tmp/verify.out
	echo "VERIFY-RC $1 $? $(wc -c </tmp/verify.out)"
}

# set_var NAME-GUID FILE: FILE (attributes, then data) written in one call,
# as efivarfs takes it
set_var() {
	dd if="$2" of="$EFIVARS/$1" bs=1M conv=notrunc 2>&1
}

# s0 mounts the ESP where Debian does; s1 away from every place `lockshim
# check` would look, with the by-partuuid link udev makes: it must find
# the ESP by LoaderDevicePartUUID
phase=$(cat /data/phase 2>/dev/null || echo s0)
mkdir -p /boot/efi
ESP=/boot/efi
if [ "$phase" = s1 ]; then
	ESP=/mnt/esp
	partuuid=$(tail -c +5 "$EFIVARS"/LoaderDevicePartUUID-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f |
		tr -d '\000' | tr A-F a-f)
	mkdir -p $ESP /dev/disk/by-partuuid
	step ln -s ../../vda1 "/dev/disk/by-partuuid/$partuuid" && echo "ESP-BY-PARTUUID $partuuid"
fi
step mount -t vfat /dev/vda1 $ESP
case $phase in
s0)
	# what lockshim did in this boot, and what bootctl makes of it
	mount -t securityfs securityfs /sys/kernel/security
	step lockshim status
	echo "STATUS-JSON $(lockshim status --json 2>&1)"
	step bootctl status --no-pager
	# the Boot Loader Interface's variables, UTF-16 text after 4 bytes of attributes
	for f in "$EFIVARS"/Loader*-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f; do
		echo "LOADER-VAR ${f##*/} $(tail -c +5 "$f" | tr -d '\000')"
	done
	check today
	check dbx --dbx-update /data/dbx-update.auth
	verify debian $ESP/EFI/lockshim/debian.efi
	verify mok $ESP/EFI/lockshim/mok.efi
	verify rogue $ESP/EFI/lockshim/rogue.efi
	dbx=dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f
	# efivarfs marks a variable it cannot delete immutable
	step chattr -i "$EFIVARS/$dbx"
	step set_var $dbx /data/dbx-update.var && echo "CHECK-APPLIED dbx"
	verify mok-revoked $ESP/EFI/lockshim/mok.efi
	;;
s1)
	step cp /data/lockshimx64-next.efi $ESP/EFI/lockshim/lockshimx64.efi
	check sbat --sbat-level latest
	step set_var SbatPolicy-605dab50-e046-4300-abb6-3dd810dd8b23 /data/SbatPolicy-latest.var &&
		echo "CHECK-APPLIED SbatPolicy"
	;;
esac
step umount $ESP
