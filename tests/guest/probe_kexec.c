// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: kexec_load, kexec_file_load and the kexec into a next kernel (probe.h) */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* The whole of @path, in @buf (malloc'd): its size, or -1. */
static long read_whole(const char *path, char **buf)
{
	struct stat st;
	long got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*buf = NULL;
	if (fd < 0 || fstat(fd, &st) < 0 || !(*buf = malloc(st.st_size ? st.st_size : 1))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (got < st.st_size && (n = read(fd, *buf + got, st.st_size - got)) > 0)
		got += n;
	close(fd);
	if (got != st.st_size) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return got;
}

/*
 * --kexec-parts: each slot's image, DIR/NAME.efi, from PARTS/NAME.head, the
 * body all slots share (PARTS/body) and PARTS/NAME.tail, three writes each
 * (build-probe.sh checked that these are sbsign's bytes). Says "untested"
 * for kexec_file_load when it cannot.
 */
void kexec_assemble(const char *parts, const char *dir)
{
	char path[512], *body = NULL, *head = NULL, *tail = NULL;
	long body_len, head_len, tail_len;
	struct dirent **list;
	int n, i, fd, ok;

	snprintf(path, sizeof(path), "%s/body", parts);
	body_len = read_whole(path, &body);
	n = body_len < 0 ? -1 : scandir(parts, &list, NULL, alphasort);
	if (n < 0) {
		out("kexec_file_load", "untested", "tried=read(%s) errno=%s(%d)", path, errname(errno), errno);
		free(body);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		size_t len = strlen(name);

		if (len > 5 && !strcmp(name + len - 5, ".head")) {
			snprintf(path, sizeof(path), "%s/%s", parts, name);
			head_len = read_whole(path, &head);
			snprintf(path, sizeof(path), "%s/%.*s.tail", parts, (int)(len - 5), name);
			tail_len = read_whole(path, &tail);
			snprintf(path, sizeof(path), "%s/%.*s.efi", dir, (int)(len - 5), name);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			ok = head_len >= 0 && tail_len >= 0 && fd >= 0 &&
			     write(fd, head, head_len) == head_len &&
			     write(fd, body, body_len) == body_len &&
			     write(fd, tail, tail_len) == tail_len;
			if (fd >= 0)
				close(fd);
			if (!ok)
				out("kexec_file_load", "untested", "tried=assemble(%s) errno=%s(%d)",
				    path, errname(errno), errno);
			free(head);
			free(tail);
		}
		free(list[i]);
	}
	free(list);
	free(body);
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
