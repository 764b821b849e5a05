// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: modules, module.sig_enforce and the system keyrings (probe.h) */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/keyctl.h>

/* Try to turn module signature enforcement off through sysfs. */
void probe_sig_enforce_off(void)
{
	const char *path = "/sys/module/module/parameters/sig_enforce";
	char before[8] = "?", tried[160];
	long r;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, before, sizeof(before) - 1);

		before[n > 0 ? n - 1 : 0] = 0;
		close(fd);
	}
	kmsg_skip();
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(tried, sizeof(tried), "open(%s,O_WRONLY)", path);
		report_op("write:module.sig_enforce=0", tried, -1, e);
		return;
	}
	r = write(fd, "0", 1);
	e = errno;
	close(fd);
	snprintf(tried, sizeof(tried), "write(%s,\"0\")[was %s]", path, before);
	report_op("write:module.sig_enforce=0", tried, r, e);
}

/* A module from --module-dir (each_file() opened it). */
void probe_module(const char *check, const char *path, int fd, long long size)
{
	char tried[700];
	long r;
	int e;

	snprintf(tried, sizeof(tried), "finit_module(%s[%lld bytes],\"\",0)", path, size);
	r = syscall(SYS_finit_module, fd, "", 0);
	e = errno;
	report_op(check, tried, r, e);
}

/* ---- keyrings --------------------------------------------------------------- */

/*
 * The system keyrings (".builtin_trusted_keys", ".machine", ...) as
 * /proc/keys lists them, then their members through keyctl.
 */
void probe_keyrings(void)
{
	FILE *f = fopen("/proc/keys", "re");
	char line[1024];
	int nrings = 0;

	if (!f) {
		out("keyrings", "untested", "tried=fopen(/proc/keys) errno=%s(%d)", errname(errno), errno);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned int id;
		char type[32], desc[512], *colon;
		int32_t members[256];
		long n, i;

		/* id flags usage timeout perm uid gid type description */
		if (sscanf(line, "%x %*s %*s %*s %*s %*s %*s %31s %511[^\n]", &id, type, desc) != 3)
			continue;
		if (strcmp(type, "keyring") || desc[0] != '.')
			continue;
		colon = strchr(desc, ':');
		if (colon)
			*colon = 0;
		nrings++;
		n = syscall(SYS_keyctl, KEYCTL_READ, id, members, sizeof(members));
		if (n < 0) {
			out("keyring", desc, "tried=keyctl(KEYCTL_READ,%#x) errno=%s(%d)", id,
			    errname(errno), errno);
			continue;
		}
		if (n > (long)sizeof(members))
			n = sizeof(members);
		n /= sizeof(int32_t);
		out("keyring", desc, "members=%ld", n);
		for (i = 0; i < n; i++) {
			char d[600], check[600], *p, *ktype, *kdesc;
			int semis = 0;
			long m = syscall(SYS_keyctl, KEYCTL_DESCRIBE, members[i], d, sizeof(d) - 1);

			snprintf(check, sizeof(check), "key:%s", desc);
			if (m < 0) {
				out(check, "present", "id=%#x describe errno=%s(%d)", members[i],
				    errname(errno), errno);
				continue;
			}
			d[m < (long)sizeof(d) - 1 ? m : (long)sizeof(d) - 1] = 0;
			/* type;uid;gid;perm;description */
			ktype = d;
			kdesc = d;
			for (p = d; *p; p++) {
				if (*p == ';' && ++semis == 4) {
					kdesc = p + 1;
					break;
				}
			}
			p = strchr(d, ';');
			if (p)
				*p = 0;
			for (p = kdesc; *p; p++)
				if (*p == '"')
					*p = '\'';
			out(check, "present", "%s \"%s\"", ktype, kdesc);
		}
	}
	fclose(f);
	if (!nrings)
		out("keyrings", "untested", "no system keyring in /proc/keys");
}
