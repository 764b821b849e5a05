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
 * Image NAME (a file NAME.head in PARTS) into @fd: PARTS/NAME.head, @body
 * (PARTS/body, which all images share) and PARTS/NAME.tail, three writes
 * (build-probe.sh checked that these give the signed image's bytes). 0, or
 * -1 with errno.
 */
static int kexec_put_together(const char *parts, const char *name, const char *body,
			      long body_len, int fd)
{
	char path[512], *head = NULL, *tail = NULL;
	long head_len, tail_len;
	int ok;

	snprintf(path, sizeof(path), "%s/%s.head", parts, name);
	head_len = read_whole(path, &head);
	snprintf(path, sizeof(path), "%s/%s.tail", parts, name);
	tail_len = read_whole(path, &tail);
	ok = head_len >= 0 && tail_len >= 0 && write(fd, head, head_len) == head_len &&
	     write(fd, body, body_len) == body_len && write(fd, tail, tail_len) == tail_len;
	free(head);
	free(tail);
	return ok ? 0 : -1;
}

/*
 * Call @fn(parts, name, body, body_len, ctx) for each NAME.head in @parts, in
 * name order, with PARTS/body read once. -1 (errno set) when the directory
 * or the body cannot be read.
 */
typedef void parts_fn(const char *parts, const char *name, const char *body, long body_len,
		      void *ctx);
static int each_image(const char *parts, parts_fn *fn, void *ctx)
{
	char path[512], *body = NULL;
	struct dirent **list;
	long body_len;
	int n, i;

	snprintf(path, sizeof(path), "%s/body", parts);
	body_len = read_whole(path, &body);
	n = body_len < 0 ? -1 : scandir(parts, &list, NULL, alphasort);
	if (n < 0) {
		free(body);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		size_t len = strlen(name);

		if (len > 5 && !strcmp(name + len - 5, ".head")) {
			char stem[256];

			snprintf(stem, sizeof(stem), "%.*s", (int)(len - 5), name);
			fn(parts, stem, body, body_len, ctx);
		}
		free(list[i]);
	}
	free(list);
	free(body);
	return 0;
}

static void assemble_one(const char *parts, const char *name, const char *body, long body_len,
			 void *ctx)
{
	const char *dir = ctx;
	char path[512];
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s.efi", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	r = fd < 0 ? -1 : kexec_put_together(parts, name, body, body_len, fd);
	if (r < 0)
		out("kexec_file_load", "untested", "tried=assemble(%s) errno=%s(%d)", path,
		    errname(errno), errno);
	if (fd >= 0)
		close(fd);
}

/*
 * --kexec-parts: each slot's image, DIR/NAME.efi, from its parts. Says
 * "untested" for kexec_file_load when it cannot.
 */
void kexec_assemble(const char *parts, const char *dir)
{
	if (each_image(parts, assemble_one, (void *)dir) < 0)
		out("kexec_file_load", "untested", "tried=read(%s/body) errno=%s(%d)", parts,
		    errname(errno), errno);
}

static void corpus_one(const char *parts, const char *name, const char *body, long body_len,
		       void *ctx)
{
	const char *path = ctx;
	char check[300];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), r;

	snprintf(check, sizeof(check), "kexec_file_load:%s", name);
	r = fd < 0 ? -1 : kexec_put_together(parts, name, body, body_len, fd);
	if (fd >= 0 && close(fd) < 0)
		r = -1;
	/* read-only: kexec_file_load refuses a file open for writing (ETXTBSY) */
	fd = r < 0 ? -1 : open(path, O_RDONLY | O_CLOEXEC);
	kmsg_skip();
	if (fd < 0)
		out(check, "untested", "tried=assemble(%s) errno=%s(%d)", name, errname(errno), errno);
	else
		probe_kexec_file(check, name, fd, (long long)lseek(fd, 0, SEEK_END));
	if (fd >= 0)
		close(fd);
	unlink(path);
}

/*
 * --kexec-corpus: each image of PARTS (the differential corpus,
 * tests/qemu/kexec_corpus.sh) put together in one file of the initramfs,
 * loaded with kexec_file_load (check kexec_file_load:NAME) and removed
 * before the next (a hundred copies of the kernel would not fit in the
 * guest; the test kernel has no memfd_create).
 */
void kexec_corpus(const char *parts)
{
	if (each_image(parts, corpus_one, "/tmp/kexec-corpus.efi") < 0)
		out("kexec_corpus", "untested", "tried=read(%s/body) errno=%s(%d)", parts,
		    errname(errno), errno);
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
