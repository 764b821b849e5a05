// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockshim guest probe: what the command line's parameters reached (probe.h):
 * persistent memory devices (memmap=nn!ss), the consoles (earlycon= with
 * keep_bootcon), and a module parameter's value as sysfs shows it.
 */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/*
 * `PROBE pmem present /dev/pmemN(BYTES bytes)...` for the block devices
 * /dev/pmem* (the pmem driver's), or `PROBE pmem absent`.
 */
void probe_pmem(void)
{
	char found[512] = "";
	size_t used = 0;
	struct dirent *d;
	DIR *dir = opendir("/dev");

	if (!dir) {
		out("pmem", "untested", "opendir(/dev) errno=%s(%d)", errname(errno), errno);
		return;
	}
	while ((d = readdir(dir))) {
		char path[300];
		uint64_t bytes = 0;
		int fd, n;

		if (strncmp(d->d_name, "pmem", 4))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (ioctl(fd, BLKGETSIZE64, &bytes))
				bytes = 0;
			close(fd);
		}
		n = snprintf(found + used, sizeof(found) - used, " %s(%llu bytes)", path,
			     (unsigned long long)bytes);
		if (n > 0 && (size_t)n < sizeof(found) - used)
			used += n;
	}
	closedir(dir);
	if (used)
		out("pmem", "present", "%s", found + 1);
	else
		out("pmem", "absent", "no /dev/pmem*");
}

/*
 * One `PROBE console:NAME info FLAGS` line per line of /proc/consoles (its
 * flags: E enabled, C preferred, B boot console, p printed the buffer, a
 * callable from any CPU state), after a line of our own to the kernel log,
 * which every enabled console then writes out.
 */
void probe_consoles(void)
{
	static const char marker[] = "lockshim-probe: a line user space adds to the kernel log\n";
	char line[256];
	FILE *f;
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, marker, sizeof(marker) - 1) < 0)
			out("console", "untested", "write(/dev/kmsg) errno=%s(%d)", errname(errno),
			    errno);
		close(fd);
	}
	f = fopen("/proc/consoles", "re");
	if (!f) {
		out("console", "untested", "fopen(/proc/consoles) errno=%s(%d)", errname(errno),
		    errno);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[64], check[80];
		const char *open_paren = strchr(line, '('), *close_paren;

		if (sscanf(line, "%63s", name) != 1 || !open_paren)
			continue;
		close_paren = strchr(open_paren, ')');
		if (!close_paren)
			continue;
		snprintf(check, sizeof(check), "console:%s", name);
		out(check, "info", "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);
	}
	fclose(f);
}

/* `PROBE CHECK info VALUE`: the first line of PATH (a sysfs attribute). */
void probe_sysfs_value(const char *check, const char *path)
{
	char buf[128];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		out(check, "untested", "open(%s) errno=%s(%d)", path, errname(errno), errno);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	out(check, "info", "%s", buf);
}
