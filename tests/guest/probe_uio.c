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

#define UIO_DRIVER "/sys/bus/pci/drivers/uio_pci_generic"
#define NETX_DRIVER "/sys/bus/pci/drivers/netx" /* uio_netx's pci_driver */
#define VIRTIO_VENDOR "0x1af4"
/* QEMU's pci-testdev: lib.sh gives it a 64 KiB BAR2, what uio_netx maps. */
#define TESTDEV_VENDOR "0x1b36"
#define TESTDEV_DEVICE "0x0005"

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
	char check[64], node[300], tried[700];
	void *map;
	int fd, e;

	snprintf(check, sizeof(check), "%s:bind", prefix);
	if (bind_device(check, driver, drvdir, dev))
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
