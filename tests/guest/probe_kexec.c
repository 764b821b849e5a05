// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: kexec_load, kexec_file_load and the kexec into a next kernel (probe.h) */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kexec.h>
#include <linux/reboot.h>

void probe_kexec_load(void)
{
	long r;
	int e;

	/*
	 * No segments: when permitted, this unloads the (absent) kexec image
	 * and returns 0; the permission and lockdown checks come first.
	 */
	kmsg_skip();
	r = syscall(SYS_kexec_load, 0UL, 0UL, NULL, (unsigned long)KEXEC_ARCH_DEFAULT);
	e = errno;
	report_op("kexec_load", "kexec_load(entry=0,nr_segments=0,KEXEC_ARCH_DEFAULT)", r, e);
}

/* An image from --kexec-dir (each_file() opened it). */
void probe_kexec_file(const char *check, const char *path, int fd, long long size)
{
	char tried[700];
	long r;
	int e;

	snprintf(tried, sizeof(tried),
		 "kexec_file_load(%s[%lld bytes],initrd=-1,cmdline=\"\",KEXEC_FILE_NO_INITRAMFS)",
		 path, size);
	r = syscall(SYS_kexec_file_load, fd, -1, 1UL, "", (unsigned long)KEXEC_FILE_NO_INITRAMFS);
	e = errno;
	report_op(check, tried, r, e);
	if (r == 0)	/* leave nothing loaded for the next image */
		syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL, (unsigned long)KEXEC_FILE_UNLOAD);
}

/*
 * Load IMAGE with INITRD and CMDLINE and reboot into it: the kexec that the
 * harness checks the next kernel of. Returns only on failure.
 */
int kexec_into(const char *image, const char *initrd, const char *cmdline)
{
	char tried[1024];
	long r;
	int kfd, ifd, e;

	kmsg_skip();
	kfd = open(image, O_RDONLY | O_CLOEXEC);
	ifd = open(initrd, O_RDONLY | O_CLOEXEC);
	snprintf(tried, sizeof(tried), "kexec_file_load(%s,initrd=%s,cmdline=\"%s\")",
		 image, initrd, cmdline);
	if (kfd < 0 || ifd < 0) {
		e = errno;
		report_op("kexec_into", tried, -1, e);
		return 1;
	}
	r = syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline, 0UL);
	e = errno;
	close(kfd);
	close(ifd);
	report_op("kexec_into", tried, r, e);
	if (r != 0)
		return 1;
	out("kexec_into", "info", "rebooting with LINUX_REBOOT_CMD_KEXEC");
	sync();
	r = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		    LINUX_REBOOT_CMD_KEXEC, NULL);
	e = errno;
	report_op("reboot:kexec", "reboot(LINUX_REBOOT_CMD_KEXEC)", r, e);
	return 1;
}
