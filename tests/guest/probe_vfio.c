// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockshim guest probe: a PCI device driven from user space through VFIO
 * (probe.h). The device is QEMU's edu (docs/specs/edu.rst in QEMU): BAR0
 * holds an identification register and a DMA engine that copies between a
 * 4 KiB buffer of its own and a bus address.
 *
 * vfio:bind           edu bound to vfio-pci with driver_override
 * vfio:open_group     open(/dev/vfio/N), or /dev/vfio/noiommu-N for a
 *                     no-IOMMU group (vfio.enable_unsafe_noiommu_mode=1)
 * vfio:set_container  /dev/vfio/vfio, VFIO_GROUP_SET_CONTAINER
 * vfio:set_iommu      VFIO_SET_IOMMU: VFIO_TYPE1v2_IOMMU, or
 *                     VFIO_NOIOMMU_IOMMU for a no-IOMMU group
 * vfio:device_fd      VFIO_GROUP_GET_DEVICE_FD
 * vfio:mmap_bar0      VFIO_DEVICE_GET_REGION_INFO, memory decoding and bus
 *                     mastering on (config space), mmap of BAR0's first
 *                     page; the detail has the identification register
 * vfio:map_dma        VFIO_IOMMU_MAP_DMA of two pages of ours at two IOVAs
 *                     (type1 only: a no-IOMMU group has no IOVAs)
 * vfio:dma            edu copies a pattern from the first IOVA into its
 *                     buffer and from its buffer to the second: allowed
 *                     when the pattern landed in the second page
 * vfio:dma_unmapped   VFIO_IOMMU_UNMAP_DMA of the second IOVA, the page
 *                     cleared, edu's copy to that IOVA again: refused when
 *                     nothing landed (the kernel's messages show the
 *                     IOMMU's fault)
 * Each check runs only when the one before it worked.
 */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/pci_regs.h>
#include <linux/vfio.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define VFIO_DRIVER "/sys/bus/pci/drivers/vfio-pci"
#define EDU_VENDOR "0x1234"
#define EDU_DEVICE "0x11e8"

/* edu's BAR0 registers (32-bit below 0x80, 64-bit above) */
#define EDU_ID 0x00
#define EDU_DMA_SRC 0x80
#define EDU_DMA_DST 0x88
#define EDU_DMA_COUNT 0x90
#define EDU_DMA_CMD 0x98
#define EDU_DMA_RUN 0x1
#define EDU_DMA_TO_RAM 0x2 /* else from RAM to its buffer */
#define EDU_BUFFER 0x40000 /* its buffer, in its own DMA address space */

/* Below edu's 28-bit DMA mask; the size of one copy. */
#define IOVA_SRC 0x100000UL
#define IOVA_DST 0x200000UL
#define DMA_BYTES 256
#define PAGE 4096UL

struct vfio {
	const char *dev;
	int noiommu;
	int container, group, device;
	volatile uint8_t *bar0;
	uint8_t *src, *dst;
};

static uint64_t edu_read(struct vfio *v, unsigned int reg)
{
	if (reg < EDU_DMA_SRC)
		return *(volatile uint32_t *)(v->bar0 + reg);
	return *(volatile uint64_t *)(v->bar0 + reg);
}

static void edu_write(struct vfio *v, unsigned int reg, uint64_t val)
{
	*(volatile uint64_t *)(v->bar0 + reg) = val;
}

/* One DMA of DMA_BYTES: 0 once edu says it is done, -1 after 5 s. */
static int edu_dma(struct vfio *v, uint64_t src, uint64_t dst, uint64_t cmd)
{
	int i;

	edu_write(v, EDU_DMA_SRC, src);
	edu_write(v, EDU_DMA_DST, dst);
	edu_write(v, EDU_DMA_COUNT, DMA_BYTES);
	edu_write(v, EDU_DMA_CMD, cmd | EDU_DMA_RUN);
	for (i = 0; i < 500; i++) {
		if (!(edu_read(v, EDU_DMA_CMD) & EDU_DMA_RUN))
			return 0;
		usleep(10000);
	}
	return -1;
}

/* The group's device node, /dev/vfio/N or /dev/vfio/noiommu-N: 0, or -1. */
static int group_node(struct vfio *v, char *node, size_t size)
{
	char link[600], target[PATH_MAX];
	const char *name;
	ssize_t n;

	snprintf(link, sizeof(link), "%s/%s/iommu_group", PCI_DEVICES, v->dev);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = 0;
	name = strrchr(target, '/');
	name = name ? name + 1 : target;
	snprintf(node, size, "/dev/vfio/%.32s", name);
	if (!access(node, F_OK))
		return 0;
	snprintf(node, size, "/dev/vfio/noiommu-%.32s", name);
	v->noiommu = 1;
	return access(node, F_OK);
}

/* report_op for the call just made (R: what it returned): 0 if it worked, or -1. */
static int report_ioctl(const char *check, const char *tried, long r)
{
	report_op(check, tried, r, errno);
	return r < 0 ? -1 : 0;
}

static int open_group(struct vfio *v)
{
	char node[300], tried[400];

	if (group_node(v, node, sizeof(node))) {
		out("vfio:open_group", "untested", "no /dev/vfio node for %s's iommu_group",
		    v->dev);
		return -1;
	}
	snprintf(tried, sizeof(tried), "open(%s)", node);
	kmsg_skip();
	v->group = open(node, O_RDWR | O_CLOEXEC);
	return report_ioctl("vfio:open_group", tried, v->group);
}

static int set_container(struct vfio *v)
{
	int iommu = v->noiommu ? VFIO_NOIOMMU_IOMMU : VFIO_TYPE1v2_IOMMU;
	char tried[100];

	kmsg_skip();
	v->container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	if (v->container < 0)
		return report_ioctl("vfio:set_container", "open(/dev/vfio/vfio)", -1);
	if (report_ioctl("vfio:set_container", "VFIO_GROUP_SET_CONTAINER",
			 ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container)))
		return -1;

	snprintf(tried, sizeof(tried), "VFIO_SET_IOMMU(%s)",
		 v->noiommu ? "VFIO_NOIOMMU_IOMMU" : "VFIO_TYPE1v2_IOMMU");
	kmsg_skip();
	return report_ioctl("vfio:set_iommu", tried, ioctl(v->container, VFIO_SET_IOMMU, iommu));
}

/* Memory decoding and bus mastering on, through VFIO's config region. */
static int enable_device(struct vfio *v)
{
	struct vfio_region_info cfg = { .argsz = sizeof(cfg),
					.index = VFIO_PCI_CONFIG_REGION_INDEX };
	uint16_t cmd;

	if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &cfg) ||
	    pread(v->device, &cmd, 2, cfg.offset + PCI_COMMAND) != 2)
		return -1;
	cmd |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	return pwrite(v->device, &cmd, 2, cfg.offset + PCI_COMMAND) == 2 ? 0 : -1;
}

static int map_bar0(struct vfio *v)
{
	struct vfio_region_info bar = { .argsz = sizeof(bar),
					.index = VFIO_PCI_BAR0_REGION_INDEX };
	char tried[200], km[800];
	void *map;
	int e;

	kmsg_skip();
	if (ioctl(v->device, VFIO_DEVICE_GET_REGION_INFO, &bar))
		return report_ioctl("vfio:mmap_bar0", "VFIO_DEVICE_GET_REGION_INFO(BAR0)", -1);
	if (!(bar.flags & VFIO_REGION_INFO_FLAG_MMAP) || bar.size < PAGE) {
		out("vfio:mmap_bar0", "untested", "BAR0 flags=0x%x size=%llu: not mappable",
		    bar.flags, (unsigned long long)bar.size);
		return -1;
	}
	if (enable_device(v))
		return report_ioctl("vfio:mmap_bar0", "write(config, PCI_COMMAND)", -1);
	map = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, v->device, bar.offset);
	e = errno;
	snprintf(tried, sizeof(tried), "mmap(device,4096,BAR0 of %llu bytes)",
		 (unsigned long long)bar.size);
	if (map == MAP_FAILED) {
		report_op("vfio:mmap_bar0", tried, -1, e);
		return -1;
	}
	v->bar0 = map;
	kmsg_collect(km, sizeof(km));
	out("vfio:mmap_bar0", "allowed", "tried=%s id=0x%08llx %s", tried,
	    (unsigned long long)edu_read(v, EDU_ID), km);
	return 0;
}

static int map_dma(struct vfio *v, uint8_t *page, unsigned long iova)
{
	struct vfio_iommu_type1_dma_map map = {
		.argsz = sizeof(map),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uintptr_t)page,
		.iova = iova,
		.size = PAGE,
	};

	return ioctl(v->container, VFIO_IOMMU_MAP_DMA, &map);
}

static int map_buffers(struct vfio *v)
{
	char tried[200];
	void *p;

	if (v->noiommu) {
		out("vfio:map_dma", "untested",
		    "a no-IOMMU group has no IOVAs: its device reaches physical addresses");
		return -1;
	}
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return report_ioctl("vfio:map_dma", "mmap(2 pages)", -1);
	v->src = p;
	v->dst = v->src + PAGE;
	memset(v->dst, 0, PAGE);
	for (unsigned int i = 0; i < PAGE; i++)
		v->src[i] = (uint8_t)(i * 7 + 1);

	snprintf(tried, sizeof(tried), "VFIO_IOMMU_MAP_DMA(iova 0x%lx and 0x%lx, a page each)",
		 IOVA_SRC, IOVA_DST);
	kmsg_skip();
	return report_ioctl("vfio:map_dma", tried,
			    map_dma(v, v->src, IOVA_SRC) ?: map_dma(v, v->dst, IOVA_DST));
}

/* edu copies DMA_BYTES from its buffer to IOVA_DST: CHECK says whether they landed. */
static void dma_to_dst(struct vfio *v, const char *check, const char *tried)
{
	const char *result = "untested";
	char km[800];
	int r;

	kmsg_skip();
	r = edu_dma(v, EDU_BUFFER, IOVA_DST, EDU_DMA_TO_RAM);
	usleep(100000); /* an IOMMU fault's interrupt, then its message */
	kmsg_collect(km, sizeof(km));
	if (!r)
		result = memcmp(v->src, v->dst, DMA_BYTES) ? "refused" : "allowed";
	out(check, result, "tried=%s (%d bytes)%s landed=%s %s", tried, DMA_BYTES,
	    r ? " timed out" : "", !strcmp(result, "allowed") ? "yes" : "no", km);
}

static void dma(struct vfio *v)
{
	struct vfio_iommu_type1_dma_unmap unmap = {
		.argsz = sizeof(unmap), .iova = IOVA_DST, .size = PAGE };

	if (edu_dma(v, IOVA_SRC, EDU_BUFFER, 0)) {
		out("vfio:dma", "untested", "edu's copy from iova 0x%lx timed out", IOVA_SRC);
		return;
	}
	dma_to_dst(v, "vfio:dma", "edu copy iova 0x100000 -> buffer -> iova 0x200000");
	if (memcmp(v->src, v->dst, DMA_BYTES))
		return;

	if (ioctl(v->container, VFIO_IOMMU_UNMAP_DMA, &unmap) < 0) {
		out("vfio:dma_unmapped", "untested", "tried=VFIO_IOMMU_UNMAP_DMA errno=%s(%d)",
		    errname(errno), errno);
		return;
	}
	memset(v->dst, 0, PAGE);
	dma_to_dst(v, "vfio:dma_unmapped", "edu copy buffer -> iova 0x200000 once unmapped");
}

void probe_vfio(void)
{
	char dev[256], tried[300];
	struct vfio v = { .dev = dev, .container = -1, .group = -1, .device = -1 };

	if (access(VFIO_DRIVER, F_OK)) {
		out("vfio:bind", "untested", "no %s", VFIO_DRIVER);
		return;
	}
	if (unbound_device(EDU_VENDOR, EDU_DEVICE, dev, sizeof(dev))) {
		out("vfio:bind", "untested", "no edu device without a driver");
		return;
	}
	if (bind_device("vfio:bind", "vfio-pci", VFIO_DRIVER, dev) || open_group(&v) ||
	    set_container(&v))
		goto out;

	snprintf(tried, sizeof(tried), "VFIO_GROUP_GET_DEVICE_FD(%s)", dev);
	kmsg_skip();
	v.device = ioctl(v.group, VFIO_GROUP_GET_DEVICE_FD, dev);
	if (report_ioctl("vfio:device_fd", tried, v.device) || map_bar0(&v) || map_buffers(&v))
		goto out;
	dma(&v);
out:
	if (v.src)
		munmap(v.src, 2 * PAGE);
	if (v.bar0)
		munmap((void *)v.bar0, PAGE);
	if (v.device >= 0)
		close(v.device);
	if (v.group >= 0)
		close(v.group);
	if (v.container >= 0)
		close(v.container);
}
