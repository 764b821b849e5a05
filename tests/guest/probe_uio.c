// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: PCI memory mapped to user space by uio_pci_generic (probe.h) */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PCI_DEVICES "/sys/bus/pci/devices"
#define UIO_DRIVER "/sys/bus/pci/drivers/uio_pci_generic"
#define VIRTIO_VENDOR "0x1af4"

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

/*
 * The first virtio PCI device without a driver (the ESP's disk: the test
 * kernel has no virtio driver) into NAME; 0, or -1 when there is none.
 */
static int unbound_virtio_device(char *name, size_t size)
{
	char path[600], vendor[16] = "";
	struct dirent *d;
	DIR *dir = opendir(PCI_DEVICES);

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		int fd;
		ssize_t n;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/driver", PCI_DEVICES, d->d_name);
		if (!access(path, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s/vendor", PCI_DEVICES, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, vendor, sizeof(vendor) - 1);
		close(fd);
		vendor[n > 0 ? n : 0] = 0;
		if (!strncmp(vendor, VIRTIO_VENDOR, strlen(VIRTIO_VENDOR))) {
			snprintf(name, size, "%s", d->d_name);
			closedir(dir);
			return 0;
		}
	}
	closedir(dir);
	return -1;
}

/*
 * Bind a device to uio_pci_generic (driver_override, then bind: the bind
 * reports the driver's probe error) and map its first memory BAR through
 * /dev/uio0: checks uio:bind and, once bound, uio:mmap.
 */
void probe_uio(void)
{
	char dev[256], path[600], tried[700];
	void *map;
	long r;
	int fd, e;

	if (access(UIO_DRIVER, F_OK)) {
		out("uio:bind", "untested", "no %s", UIO_DRIVER);
		return;
	}
	if (unbound_virtio_device(dev, sizeof(dev))) {
		out("uio:bind", "untested", "no virtio PCI device without a driver");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s/driver_override", PCI_DEVICES, dev);
	if (write_text(path, "uio_pci_generic")) {
		e = errno;
		snprintf(tried, sizeof(tried), "write(%s)", path);
		report_op("uio:bind", tried, -1, e);
		return;
	}

	kmsg_skip();
	snprintf(tried, sizeof(tried), "write(%s/bind,%s)", UIO_DRIVER, dev);
	r = write_text(UIO_DRIVER "/bind", dev);
	e = errno;
	report_op("uio:bind", tried, r, e);
	if (r)
		return;

	kmsg_skip();
	fd = open("/dev/uio0", O_RDWR | O_CLOEXEC);
	map = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	report_op("uio:mmap", "mmap(/dev/uio0,4096,map 0)", map == MAP_FAILED ? -1 : 0, e);
	if (map != MAP_FAILED)
		munmap(map, 4096);
	if (fd >= 0)
		close(fd);
}
