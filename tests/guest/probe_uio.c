// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: PCI memory mapped to user space by UIO drivers (probe.h) */
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
#define NETX_DRIVER "/sys/bus/pci/drivers/netx" /* uio_netx's pci_driver */
#define VIRTIO_VENDOR "0x1af4"
/* QEMU's pci-testdev: lib.sh gives it a 64 KiB BAR2, what uio_netx maps. */
#define TESTDEV_VENDOR "0x1b36"
#define TESTDEV_DEVICE "0x0005"

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

/*
 * The first PCI device without a driver whose vendor is VENDOR (and whose
 * device is DEVICE, unless NULL) into NAME; 0, or -1 when there is none.
 */
static int unbound_device(const char *vendor, const char *device, char *name, size_t size)
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

/* The /dev/uioN of PCI device DEV into PATH: 0, or -1. */
static int uio_node(const char *dev, char *path, size_t size)
{
	char dir[600];
	struct dirent *d;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/%s/uio", PCI_DEVICES, dev);
	dp = opendir(dir);
	if (!dp)
		return -1;
	while ((d = readdir(dp))) {
		if (!strncmp(d->d_name, "uio", 3)) {
			snprintf(path, size, "/dev/%s", d->d_name);
			closedir(dp);
			return 0;
		}
	}
	closedir(dp);
	return -1;
}

/*
 * Bind DEV to the UIO driver DRIVER (its sysfs directory DRVDIR) with
 * driver_override, then map the first page of its map 0: checks
 * PREFIX:bind (the bind reports the driver's probe error) and, once bound,
 * PREFIX:mmap.
 */
static void bind_and_map(const char *prefix, const char *driver, const char *drvdir,
			 const char *dev)
{
	char check[64], path[600], node[300], tried[700];
	void *map;
	long r;
	int fd, e;

	snprintf(check, sizeof(check), "%s:bind", prefix);
	snprintf(path, sizeof(path), "%s/%s/driver_override", PCI_DEVICES, dev);
	if (write_text(path, driver)) {
		e = errno;
		snprintf(tried, sizeof(tried), "write(%s)", path);
		report_op(check, tried, -1, e);
		return;
	}

	kmsg_skip();
	snprintf(path, sizeof(path), "%s/bind", drvdir);
	snprintf(tried, sizeof(tried), "write(%s,%s)", path, dev);
	r = write_text(path, dev);
	e = errno;
	report_op(check, tried, r, e);
	if (r)
		return;

	snprintf(check, sizeof(check), "%s:mmap", prefix);
	if (uio_node(dev, node, sizeof(node))) {
		out(check, "untested", "no uio device under %s/%s", PCI_DEVICES, dev);
		return;
	}
	kmsg_skip();
	fd = open(node, O_RDWR | O_CLOEXEC);
	map = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	snprintf(tried, sizeof(tried), "mmap(%s,4096,map 0)", node);
	report_op(check, tried, map == MAP_FAILED ? -1 : 0, e);
	if (map != MAP_FAILED)
		munmap(map, 4096);
	if (fd >= 0)
		close(fd);
}

/*
 * uio:*: a virtio device (the ESP's disk: the test kernel has no virtio
 * driver) bound to uio_pci_generic, which maps its memory BARs.
 * uio_netx:*: QEMU's pci-testdev bound to uio_netx, which binds to any
 * device through driver_override and maps its BAR2: the UIO core's own
 * refusal, whatever driver registered the map.
 */
void probe_uio(void)
{
	char dev[256];

	if (access(UIO_DRIVER, F_OK))
		out("uio:bind", "untested", "no %s", UIO_DRIVER);
	else if (unbound_device(VIRTIO_VENDOR, NULL, dev, sizeof(dev)))
		out("uio:bind", "untested", "no virtio PCI device without a driver");
	else
		bind_and_map("uio", "uio_pci_generic", UIO_DRIVER, dev);

	if (access(NETX_DRIVER, F_OK))
		out("uio_netx:bind", "untested", "no %s", NETX_DRIVER);
	else if (unbound_device(TESTDEV_VENDOR, TESTDEV_DEVICE, dev, sizeof(dev)))
		out("uio_netx:bind", "untested", "no pci-testdev without a driver");
	else
		bind_and_map("uio_netx", "netx", NETX_DRIVER, dev);
}
