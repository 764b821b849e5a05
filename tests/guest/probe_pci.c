// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: PCI devices in sysfs, found and bound to a driver (probe.h) */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Write TEXT to PATH: 0, or -1 with errno. */
static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The start of PCI_DEVICES/DEV/ATTR into BUF: 0, or -1. */
static int read_attr(const char *dev, const char *attr, char *buf, size_t size)
{
	char path[600];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", PCI_DEVICES, dev, attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n > 0 ? 0 : -1;
}

int unbound_device(const char *vendor, const char *device, char *name, size_t size)
{
	char path[600], buf[16];
	struct dirent *d;
	DIR *dir = opendir(PCI_DEVICES);

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/driver", PCI_DEVICES, d->d_name);
		if (!access(path, F_OK))
			continue;
		if (read_attr(d->d_name, "vendor", buf, sizeof(buf)) ||
		    strncmp(buf, vendor, strlen(vendor)))
			continue;
		if (device && (read_attr(d->d_name, "device", buf, sizeof(buf)) ||
			       strncmp(buf, device, strlen(device))))
			continue;
		snprintf(name, size, "%s", d->d_name);
		closedir(dir);
		return 0;
	}
	closedir(dir);
	return -1;
}

int bind_device(const char *check, const char *driver, const char *drvdir, const char *dev)
{
	char path[600], tried[700];
	long r;
	int e;

	snprintf(path, sizeof(path), "%s/%s/driver_override", PCI_DEVICES, dev);
	if (write_text(path, driver)) {
		e = errno;
		snprintf(tried, sizeof(tried), "write(%s)", path);
		report_op(check, tried, -1, e);
		return -1;
	}

	kmsg_skip();
	snprintf(path, sizeof(path), "%s/bind", drvdir);
	snprintf(tried, sizeof(tried), "write(%s,%s)", path, dev);
	r = write_text(path, dev);
	e = errno;
	report_op(check, tried, r, e);
	return r ? -1 : 0;
}
