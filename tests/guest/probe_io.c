// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: raw I/O: iopl, ioperm, /dev/mem, /dev/port (probe.h) */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

void probe_iopl(void)
{
	long r;
	int e;

	kmsg_skip();
	r = syscall(SYS_iopl, 3);
	e = errno;
	report_op("iopl", "iopl(3)", r, e);
	if (r == 0)
		syscall(SYS_iopl, 0);
}

void probe_ioperm(void)
{
	long r;
	int e;

	kmsg_skip();
	r = syscall(SYS_ioperm, 0x80UL, 1UL, 1);
	e = errno;
	report_op("ioperm", "ioperm(0x80,1,1)", r, e);
	if (r == 0)
		syscall(SYS_ioperm, 0x80UL, 1UL, 0);
}

void probe_open(const char *check, const char *path)
{
	char tried[128];
	long r;
	int e;

	kmsg_skip();
	r = open(path, O_RDWR | O_CLOEXEC);
	e = errno;
	snprintf(tried, sizeof(tried), "open(%s,O_RDWR)", path);
	report_op(check, tried, r, e);
	if (r >= 0)
		close(r);
}
