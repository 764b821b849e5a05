#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# /sbin/lockshim-distro-init: PID 1 of make distro-test's Debian 12 guest
# (tests/distro/distro-test.sh), after the initramfs switched to its root.
# The root disk keeps a count of its boots; each boot does its part, says
# so on the serial console, then powers off:
#
#   1  dpkg -i the built lockshim-tools and lockshim-unsigned; lockshim
#      check on the machine; dpkg -i the kernel package signed by an
#      unrelated key (the hook must stop it)
#   2  (must still boot the first kernel) dpkg -i the kernel package
#      Debian signed
#   3  (must boot that kernel) lockshim check
#
# /etc/lockshim-distro.conf (written by the host) names the packages:
# ROGUE_DEB, GOOD_DEB, TOOLS_DEBS. Lines for the host: `DISTRO-TEST: ...`,
# each command as `DISTRO-TEST-RUN NAME: CMD`, its output prefixed `| `,
# then `DISTRO-TEST-RC NAME STATUS MILLISECONDS`.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LC_ALL=C TERM=dumb
exec </dev/null >/dev/ttyS0 2>&1
# What systemd (dev-setup) makes in /dev at boot, and bash's process
# substitution, in check-update, reads through: /dev/fd and the standard
# streams. Without it check-update says "/dev/fd/63: No such file".
ln -sfn /proc/self/fd /dev/fd
for i in 0:stdin 1:stdout 2:stderr; do ln -sfn "/proc/self/fd/${i%:*}" "/dev/${i#*:}"; done
. /etc/lockshim-distro.conf

count=/var/lib/lockshim-distro/boots
mkdir -p "${count%/*}" /run /tmp
n=$(($(cat "$count" 2>/dev/null || echo 0) + 1))
echo "$n" >"$count"
sync

say() { echo "DISTRO-TEST: $*"; }
run() {
	local name=$1 t0 rc
	shift
	echo "DISTRO-TEST-RUN $name: $*"
	t0=$(date +%s%N)
	"$@" >/tmp/run.out 2>&1
	rc=$?
	sed 's/^/| /' /tmp/run.out
	echo "DISTRO-TEST-RC $name $rc $((($(date +%s%N) - t0) / 1000000))"
}
# the entry update-grub made the default: the first kernel grub.cfg boots
default_entry() {
	say "default entry: $(sed -n 's/^[[:space:]]*linux \([^ ]*\).*/\1/p' /boot/grub/grub.cfg | head -n 1)"
}

say "boot $n: $(uname -r): $(cat /proc/cmdline)"
say "secure boot: $(od -An -tu1 -j4 /sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c | tr -d ' ')"
case $n in
1)
	run install-tools dpkg -i $TOOLS_DEBS
	run check lockshim check
	run install-rogue dpkg -i "$ROGUE_DEB"
	run packages dpkg -l 'linux-image-*'
	default_entry
	;;
2)
	run check lockshim check
	run install-good dpkg -i "$GOOD_DEB"
	run packages dpkg -l 'linux-image-*'
	default_entry
	;;
*)
	run check lockshim check
	;;
esac
say "boot $n done"
# No journal on the root (mke2fs -O ^has_journal): once synced, GRUB reads
# what was written. Power off as poweroff -f does, without util-linux.
sync
echo u >/proc/sysrq-trigger
sleep 1
echo o >/proc/sysrq-trigger
sleep 10
