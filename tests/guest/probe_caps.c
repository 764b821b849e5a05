// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: the lockdown level and CAP_SYS_RAWIO (probe.h) */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void probe_lockdown(void)
{
	char buf[256] = "", level[64], *l, *r;
	ssize_t n;
	int fd = open("/sys/kernel/security/lockdown", O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		out("lockdown", "unavailable", "tried=open(/sys/kernel/security/lockdown) errno=%s(%d)",
		    errname(errno), errno);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = 0;
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!l || !r) {
		out("lockdown", "unavailable", "read=\"%s\"", buf);
		return;
	}
	snprintf(level, sizeof(level), "%.*s", (int)(r - l - 1), l + 1);
	out("lockdown", level, "tried=read(/sys/kernel/security/lockdown) read=\"%s\"", buf);
}

/* The hex value of field @field ("CapBnd:") in /proc/@pid/status, or -1. */
static int read_capfield(const char *pid, const char *field, unsigned long long *val)
{
	char path[64], line[256];
	FILE *f;
	int found = -1;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, field, strlen(field))) {
			*val = strtoull(line + strlen(field), NULL, 16);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

void probe_capfield(const char *check, const char *pid, const char *field)
{
	unsigned long long v;

	if (read_capfield(pid, field, &v)) {
		out(check, "untested", "tried=read(/proc/%s/status %s) errno=%s(%d)", pid, field,
		    errname(errno), errno);
		return;
	}
	out(check, (v >> CAP_BIT) & 1 ? "present" : "absent",
	    "/proc/%s/status %s%016llx CAP_SYS_RAWIO=bit%d", pid, field, v, CAP_BIT);
}

/* Try to get CAP_SYS_RAWIO back: into the inheritable set, then ambient. */
void probe_regain(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	char km[800];
	long r;
	int e;

	kmsg_skip();
	r = prctl(PR_CAPBSET_READ, CAP_BIT, 0, 0, 0);
	e = errno;
	kmsg_collect(km, sizeof(km));
	if (r < 0)
		out("capbnd:prctl", "untested", "tried=prctl(PR_CAPBSET_READ,CAP_SYS_RAWIO) errno=%s(%d)",
		    errname(e), e);
	else
		out("capbnd:prctl", r ? "present" : "absent",
		    "tried=prctl(PR_CAPBSET_READ,CAP_SYS_RAWIO) ret=%ld", r);

	kmsg_skip();
	if (syscall(SYS_capget, &hdr, data)) {
		e = errno;
		out("regain:inheritable", "untested", "tried=capget errno=%s(%d)", errname(e), e);
		return;
	}
	data[CAP_TO_INDEX(CAP_BIT)].inheritable |= CAP_TO_MASK(CAP_BIT);
	r = syscall(SYS_capset, &hdr, data);
	e = errno;
	report_op("regain:inheritable", "capset(inheritable|=CAP_SYS_RAWIO)", r, e);

	kmsg_skip();
	r = prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_BIT, 0, 0);
	e = errno;
	report_op("regain:ambient", "prctl(PR_CAP_AMBIENT_RAISE,CAP_SYS_RAWIO)", r, e);
	if (r == 0)
		prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
}
