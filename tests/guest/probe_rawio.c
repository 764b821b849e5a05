// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockshim guest probe: what the capability drop costs (probe.h). A locked
 * kernel takes CAP_SYS_RAWIO out of the bounding set; these are the tools
 * that need it, each tried on a SATA disk on q35's AHCI controller (the
 * scenario attaches it: an ext2 file system holding RAWIO_FILE) with the
 * call the tool makes:
 *   sg_io:ata_identify   SG_IO, ATA PASS-THROUGH(16) IDENTIFY DEVICE on the
 *                        disk: smartctl -i, hdparm -I (scsi_cmd_allowed()
 *                        lets only a list of read-safe SCSI commands through
 *                        without CAP_SYS_RAWIO; ATA pass-through is not one)
 *   sg_io:inquiry        SG_IO, INQUIRY: on that list, so allowed either way
 *                        (sg_inq, lsscsi): what the drop does not cost
 *   bsg:ata_identify     the same IDENTIFY through /dev/bsg (SG v4)
 *   hdio:drive_cmd       HDIO_DRIVE_CMD CHECK POWER MODE: hdparm -C (libata
 *                        wants CAP_SYS_ADMIN and CAP_SYS_RAWIO: EACCES)
 *   fibmap               FIBMAP of RAWIO_FILE's first block, and whether that
 *                        disk block holds the file's bytes: extlinux, LILO
 * Without the disk: one line, rawio untested.
 */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/bsg.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <scsi/sg.h>

#define RAWIO_DISK "/dev/sda"
#define RAWIO_MNT "/mnt"
#define RAWIO_FILE RAWIO_MNT "/rawio.txt"

/* ATA PASS-THROUGH(16), PIO data-in, IDENTIFY DEVICE (SAT-4 12.2.2; what smartctl -i sends). */
static const unsigned char ata16_identify[16] = {
	0x85, 4 << 1, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec, 0,
};
static const unsigned char inquiry[6] = { 0x12, 0, 0, 0, 96, 0 };

/* The model string of IDENTIFY DEVICE data (words 27-46, bytes swapped), trimmed. */
static void ata_model(const unsigned char *id, char *model, size_t size)
{
	size_t i, n = 0;

	for (i = 54; i < 94 && n + 1 < size; i += 2) {
		model[n++] = id[i + 1];
		model[n++] = id[i];
	}
	while (n && model[n - 1] == ' ')
		n--;
	model[n] = 0;
}

static void report_scsi(const char *check, const char *tried, long r, int e, int status,
			const unsigned char *data, int ata)
{
	char km[800], what[128] = "";

	if (r < 0) {
		report_op(check, tried, r, e);
		return;
	}
	kmsg_collect(km, sizeof(km));
	if (ata)
		ata_model(data, what, sizeof(what));
	else
		snprintf(what, sizeof(what), "%.8s %.16s", data + 8, data + 16);
	out(check, "allowed", "tried=%s ret=%ld status=0x%x model=\"%s\" %s", tried, r, status,
	    what, km);
}

static void sg_io(const char *check, int fd, const unsigned char *cdb, int cdb_len, int ata)
{
	unsigned char data[512] = { 0 }, sense[32];
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.dxfer_direction = SG_DXFER_FROM_DEV,
		.cmd_len = cdb_len,
		.mx_sb_len = sizeof(sense),
		.dxfer_len = ata ? 512 : 96,
		.dxferp = data,
		.cmdp = (unsigned char *)cdb,
		.sbp = sense,
		.timeout = 10000,
	};
	char tried[128];
	long r;
	int e;

	snprintf(tried, sizeof(tried), "ioctl(%s,SG_IO,%s)", RAWIO_DISK,
		 ata ? "ATA_16:IDENTIFY" : "INQUIRY");
	kmsg_skip();
	r = ioctl(fd, SG_IO, &h);
	e = errno;
	report_scsi(check, tried, r, e, h.status | h.host_status << 8 | h.driver_status << 16,
		    data, ata);
}

/* The bsg node of the first SCSI device (/sys/class/bsg/H:C:T:L) into PATH. */
static int bsg_node(char *path, size_t size)
{
	struct dirent **list;
	int n, i, found = -1;

	n = scandir("/sys/class/bsg", &list, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (found < 0 && strchr(list[i]->d_name, ':')) {
			snprintf(path, size, "/dev/bsg/%s", list[i]->d_name);
			found = 0;
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return found;
}

static void bsg_identify(void)
{
	unsigned char data[512] = { 0 }, sense[32];
	struct sg_io_v4 h = {
		.guard = 'Q',
		.protocol = BSG_PROTOCOL_SCSI,
		.subprotocol = BSG_SUB_PROTOCOL_SCSI_CMD,
		.request_len = sizeof(ata16_identify),
		.request = (unsigned long)ata16_identify,
		.max_response_len = sizeof(sense),
		.response = (unsigned long)sense,
		.din_xfer_len = sizeof(data),
		.din_xferp = (unsigned long)data,
		.timeout = 10000,
	};
	char path[300], tried[400];
	long r;
	int fd, e;

	if (bsg_node(path, sizeof(path)) < 0) {
		out("bsg:ata_identify", "untested", "no SCSI device in /sys/class/bsg");
		return;
	}
	snprintf(tried, sizeof(tried), "ioctl(%s,SG_IO,v4,ATA_16:IDENTIFY)", path);
	kmsg_skip();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	r = fd < 0 ? -1 : ioctl(fd, SG_IO, &h);
	e = errno;
	if (fd >= 0)
		close(fd);
	report_scsi("bsg:ata_identify", tried, r, e, h.device_status, data, 1);
}

static void hdio_drive_cmd(int fd)
{
	/* command, sector number, feature, sector count; 4 bytes back */
	unsigned char args[4] = { 0xe5, 0, 0, 0 };
	long r;
	int e;

	kmsg_skip();
	r = ioctl(fd, HDIO_DRIVE_CMD, args);
	e = errno;
	report_op("hdio:drive_cmd", "ioctl(" RAWIO_DISK ",HDIO_DRIVE_CMD,CHECK_POWER_MODE)", r, e);
}

static void fibmap(void)
{
	char tried[128], km[800], want[64], got[64];
	int fd, dfd, block = 0, bsize = 0, e;
	long r;

	kmsg_skip();
	if (mkdir(RAWIO_MNT, 0755) < 0 && errno != EEXIST) {
		e = errno;
		report_op("fibmap", "mkdir(" RAWIO_MNT ")", -1, e);
		return;
	}
	if (mount(RAWIO_DISK, RAWIO_MNT, "ext2", MS_RDONLY, NULL) < 0) {
		e = errno;
		report_op("fibmap", "mount(" RAWIO_DISK "," RAWIO_MNT ",ext2,ro)", -1, e);
		return;
	}
	fd = open(RAWIO_FILE, O_RDONLY | O_CLOEXEC);
	snprintf(tried, sizeof(tried), "ioctl(%s,FIBMAP,0)", RAWIO_FILE);
	kmsg_skip();
	r = fd < 0 ? -1 : ioctl(fd, FIBMAP, &block);
	e = errno;
	if (r < 0 || ioctl(fd, FIGETBSZ, &bsize) < 0) {
		report_op("fibmap", tried, r < 0 ? r : -1, r < 0 ? e : errno);
	} else {
		/* The block FIBMAP names must hold the file's first bytes. */
		dfd = open(RAWIO_DISK, O_RDONLY | O_CLOEXEC);
		memset(want, 0, sizeof(want));
		memset(got, 1, sizeof(got));
		if (pread(fd, want, sizeof(want), 0) < 0 || dfd < 0 ||
		    pread(dfd, got, sizeof(got), (off_t)block * bsize) < 0)
			memset(got, 1, sizeof(got));
		if (dfd >= 0)
			close(dfd);
		kmsg_collect(km, sizeof(km));
		out("fibmap", "allowed", "tried=%s ret=%ld block=%d block_size=%d on_disk=%s %s",
		    tried, r, block, bsize, memcmp(want, got, sizeof(want)) ? "differs" : "matches",
		    km);
	}
	if (fd >= 0)
		close(fd);
	umount(RAWIO_MNT);
}

void probe_rawio(void)
{
	int fd;

	if (access("/sys/block/sda", F_OK) < 0) {
		out("rawio", "untested", "no SATA disk (/sys/block/sda)");
		return;
	}
	/* smartctl and hdparm open the disk this way. */
	fd = open(RAWIO_DISK, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		report_op("rawio", "open(" RAWIO_DISK ")", -1, errno);
		return;
	}
	sg_io("sg_io:ata_identify", fd, ata16_identify, sizeof(ata16_identify), 1);
	sg_io("sg_io:inquiry", fd, inquiry, sizeof(inquiry), 0);
	hdio_drive_cmd(fd);
	close(fd);
	bsg_identify();
	fibmap();
}
