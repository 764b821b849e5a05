// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockshim guest probe: runs in the test initramfs of a kernel carrying the
 * lockshim patch and reports, one line per check, what that kernel allows:
 *
 *     PROBE <check> <result> <detail>
 *
 * <check> names what was tried, <result> is one word, <detail> says what
 * exactly was called, what it returned and which errno (name and number),
 * and which kernel messages it caused (read from /dev/kmsg). Results:
 *   operations         allowed | refused (any error but the two below) |
 *                      untested (ENOSYS: the kernel lacks it; ENOENT: the
 *                      test file is missing)
 *   lockdown           none | integrity | confidentiality | unavailable
 *   capabilities       present | absent (CAP_SYS_RAWIO in that set)
 *   keys               present (one line per key in a system keyring)
 * The probe draws no conclusion itself: the test harness compares the
 * lines with what each scenario expects.
 *
 *     probe [--kexec-dir DIR] [--module-dir DIR]
 *           [--kexec-into IMAGE --kexec-initrd FILE --kexec-cmdline STR]
 *
 * Every DIR/<name>.efi is tried with kexec_file_load and every
 * DIR/<name>.ko with finit_module, in name order; the check is
 * kexec_file_load:<name> or finit_module:<name>.
 *
 * With --kexec-into, after every check (and the done line), IMAGE is loaded
 * with kexec_file_load(IMAGE, FILE, STR) (check kexec_into) and, when that
 * worked, the probe reboots into it with reboot(LINUX_REBOOT_CMD_KEXEC); it
 * returns (status 1) only when either call failed.
 *
 * Built with the host's gcc -static (glibc): no kernel headers beyond the
 * uapi ones, raw syscalls throughout so that nothing is hidden by a wrapper.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/kexec.h>
#include <linux/keyctl.h>
#include <linux/reboot.h>

#define CAP_BIT CAP_SYS_RAWIO	/* the capability the patch removes */

static int kmsg_fd = -1;
static int nchecks;

/* ---- output ---------------------------------------------------------------- */

/* One line, one write(): the line is never split by other output. */
static void out(const char *check, const char *result, const char *fmt, ...)
{
	char line[2048];
	int n;
	va_list ap;

	n = snprintf(line, sizeof(line), "PROBE %s %s ", check, result);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 2, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDOUT_FILENO, line, n) < 0)
		_exit(3);
	nchecks++;
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ENOEXEC: return "ENOEXEC";
	case EBADF: return "EBADF";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case EINVAL: return "EINVAL";
	case EFBIG: return "EFBIG";
	case ENOSYS: return "ENOSYS";
	case ENODATA: return "ENODATA";
	case EBADMSG: return "EBADMSG";
	case ENOPKG: return "ENOPKG";
	case ENOKEY: return "ENOKEY";
	case EKEYREJECTED: return "EKEYREJECTED";
	case EKEYREVOKED: return "EKEYREVOKED";
	case ENOTSUP: return "EOPNOTSUPP";
	case EROFS: return "EROFS";
	default: return "E?";
	}
}

/* ---- kernel messages caused by a check ------------------------------------- */

static void kmsg_skip(void)
{
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/*
 * The kernel messages logged since kmsg_skip(), as
 *   kmsg="first; second; ..." lockdown_msg=yes|no
 * lockdown_msg says whether the lockdown LSM said no ("Lockdown: ...").
 */
static void kmsg_collect(char *buf, size_t size)
{
	char rec[1024], msgs[600] = "";
	int lockdown = 0;
	size_t used = 0;

	while (kmsg_fd >= 0) {
		ssize_t n = read(kmsg_fd, rec, sizeof(rec) - 1);
		char *text, *nl;

		if (n < 0 && errno == EPIPE)	/* overwritten records: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		if (strstr(text, "Lockdown:"))
			lockdown = 1;
		for (char *q = text; *q; q++)
			if (*q == '"')
				*q = '\'';
		if (used < sizeof(msgs) - 1)
			used += snprintf(msgs + used, sizeof(msgs) - used, "%s%s",
					 used ? "; " : "", text);
		if (used > sizeof(msgs) - 1)
			used = sizeof(msgs) - 1;
	}
	snprintf(buf, size, "kmsg=\"%s\" lockdown_msg=%s", msgs, lockdown ? "yes" : "no");
}

/* ---- operations ------------------------------------------------------------- */

/*
 * Report an operation: ret is what the syscall returned, err its errno.
 * missing_ok: ENOENT means "test file missing", reported as untested.
 */
static void report_op(const char *check, const char *tried, long ret, int err)
{
	char km[800];
	const char *result;

	kmsg_collect(km, sizeof(km));
	if (ret >= 0)
		result = "allowed";
	else if (err == ENOSYS || err == ENOENT)
		result = "untested";
	else
		result = "refused";
	if (ret >= 0)
		out(check, result, "tried=%s ret=%ld %s", tried, ret, km);
	else
		out(check, result, "tried=%s ret=%ld errno=%s(%d) %s", tried, ret,
		    errname(err), err, km);
}

static void probe_iopl(void)
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

static void probe_ioperm(void)
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

static void probe_open(const char *check, const char *path)
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

/* Try to turn module signature enforcement off through sysfs. */
static void probe_sig_enforce_off(void)
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

static void probe_kexec_load(void)
{
	long r;
	int e;

	/*
	 * No segments: when permitted, this unloads the (absent) kexec image
	 * and returns 0; the permission and lockdown checks come first.
	 */
	kmsg_skip();
	r = syscall(SYS_kexec_load, 0UL, 0UL, NULL, (unsigned long)KEXEC_ARCH_DEFAULT);
	e = errno;
	report_op("kexec_load", "kexec_load(entry=0,nr_segments=0,KEXEC_ARCH_DEFAULT)", r, e);
}

static void probe_kexec_file(const char *dir, const char *name)
{
	char path[512], check[256], tried[700];
	struct stat st;
	long r;
	int fd, e;
	size_t len = strlen(name) - 4;	/* without .efi */

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(check, sizeof(check), "kexec_file_load:%.*s", (int)len, name);
	kmsg_skip();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(tried, sizeof(tried), "open(%s)", path);
		report_op(check, tried, -1, e);
		return;
	}
	fstat(fd, &st);
	snprintf(tried, sizeof(tried),
		 "kexec_file_load(%s[%lld bytes],initrd=-1,cmdline=\"\",KEXEC_FILE_NO_INITRAMFS)",
		 path, (long long)st.st_size);
	r = syscall(SYS_kexec_file_load, fd, -1, 1UL, "", (unsigned long)KEXEC_FILE_NO_INITRAMFS);
	e = errno;
	close(fd);
	report_op(check, tried, r, e);
	if (r == 0)	/* leave nothing loaded for the next image */
		syscall(SYS_kexec_file_load, -1, -1, 0UL, NULL, (unsigned long)KEXEC_FILE_UNLOAD);
}

static void probe_module(const char *dir, const char *name)
{
	char path[512], check[256], tried[700];
	struct stat st;
	long r;
	int fd, e;
	size_t len = strlen(name) - 3;	/* without .ko */

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(check, sizeof(check), "finit_module:%.*s", (int)len, name);
	kmsg_skip();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(tried, sizeof(tried), "open(%s)", path);
		report_op(check, tried, -1, e);
		return;
	}
	fstat(fd, &st);
	snprintf(tried, sizeof(tried), "finit_module(%s[%lld bytes],\"\",0)", path,
		 (long long)st.st_size);
	r = syscall(SYS_finit_module, fd, "", 0);
	e = errno;
	close(fd);
	report_op(check, tried, r, e);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static void each_file(const char *dir, const char *suffix, const char *what,
		      void (*fn)(const char *, const char *))
{
	struct dirent **list;
	int n, i, found = 0;

	if (!dir)
		return;
	n = scandir(dir, &list, NULL, by_name);
	if (n < 0) {
		out(what, "untested", "tried=scandir(%s) errno=%s(%d)", dir, errname(errno), errno);
		return;
	}
	for (i = 0; i < n; i++) {
		if (ends_with(list[i]->d_name, suffix)) {
			fn(dir, list[i]->d_name);
			found++;
		}
		free(list[i]);
	}
	free(list);
	if (!found)
		out(what, "untested", "no %s files in %s", suffix, dir);
}

/* ---- lockdown and capabilities ---------------------------------------------- */

static void probe_lockdown(void)
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

static void probe_capfield(const char *check, const char *pid, const char *field)
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
static void probe_regain(void)
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

/* ---- keyrings --------------------------------------------------------------- */

/*
 * The system keyrings (".builtin_trusted_keys", ".machine", ...) as
 * /proc/keys lists them, then their members through keyctl.
 */
static void probe_keyrings(void)
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

/* ---- the lockshim lines of the boot log ----------------------------------- */

static void probe_bootlog(void)
{
	char rec[1024];
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		out("bootlog", "untested", "tried=open(/dev/kmsg) errno=%s(%d)", errname(errno), errno);
		return;
	}
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *text, *nl;

		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = 0;
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		nl = strchr(text, '\n');
		if (nl)
			*nl = 0;
		if (!strncmp(text, "lockshim: ", 10) || strstr(text, "Kernel is locked down") ||
		    strstr(text, "invalid for parameter"))
			out("bootlog", "line", "%s", text);
	}
	close(fd);
}

/*
 * Load IMAGE with INITRD and CMDLINE and reboot into it: the kexec that the
 * harness checks the next kernel of. Returns only on failure.
 */
static int kexec_into(const char *image, const char *initrd, const char *cmdline)
{
	char tried[1024];
	long r;
	int kfd, ifd, e;

	kmsg_skip();
	kfd = open(image, O_RDONLY | O_CLOEXEC);
	ifd = open(initrd, O_RDONLY | O_CLOEXEC);
	snprintf(tried, sizeof(tried), "kexec_file_load(%s,initrd=%s,cmdline=\"%s\")",
		 image, initrd, cmdline);
	if (kfd < 0 || ifd < 0) {
		e = errno;
		report_op("kexec_into", tried, -1, e);
		return 1;
	}
	r = syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline, 0UL);
	e = errno;
	close(kfd);
	close(ifd);
	report_op("kexec_into", tried, r, e);
	if (r != 0)
		return 1;
	out("kexec_into", "info", "rebooting with LINUX_REBOOT_CMD_KEXEC");
	sync();
	r = syscall(SYS_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		    LINUX_REBOOT_CMD_KEXEC, NULL);
	e = errno;
	report_op("reboot:kexec", "reboot(LINUX_REBOOT_CMD_KEXEC)", r, e);
	return 1;
}

int main(int argc, char **argv)
{
	const char *kexec_dir = NULL, *module_dir = NULL;
	const char *into = NULL, *into_initrd = NULL, *into_cmdline = "";
	struct utsname u;
	char buf[1024];
	int i, fd;
	ssize_t n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kexec-dir") && i + 1 < argc)
			kexec_dir = argv[++i];
		else if (!strcmp(argv[i], "--module-dir") && i + 1 < argc)
			module_dir = argv[++i];
		else if (!strcmp(argv[i], "--kexec-into") && i + 1 < argc)
			into = argv[++i];
		else if (!strcmp(argv[i], "--kexec-initrd") && i + 1 < argc)
			into_initrd = argv[++i];
		else if (!strcmp(argv[i], "--kexec-cmdline") && i + 1 < argc)
			into_cmdline = argv[++i];
		else {
			fprintf(stderr, "usage: probe [--kexec-dir DIR] [--module-dir DIR]"
				" [--kexec-into IMAGE --kexec-initrd FILE --kexec-cmdline STR]\n");
			return 2;
		}
	}

	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	uname(&u);
	out("uname", "info", "%s %s", u.release, u.version);
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	out("cmdline", "info", "%s", buf);
	out("identity", "info", "pid=%d uid=%d euid=%d", getpid(), getuid(), geteuid());
	probe_bootlog();

	probe_lockdown();
	probe_capfield("capbnd:init", "1", "CapBnd:");
	probe_capfield("capbnd:self", "self", "CapBnd:");
	probe_capfield("capprm:self", "self", "CapPrm:");
	probe_capfield("capeff:self", "self", "CapEff:");
	probe_regain();

	/* First, while the lockdown messages are not yet rate-limited. */
	probe_iopl();
	probe_ioperm();
	probe_open("open:/dev/mem", "/dev/mem");
	probe_open("open:/dev/port", "/dev/port");

	probe_sig_enforce_off();
	probe_kexec_load();
	each_file(kexec_dir, ".efi", "kexec_file_load", probe_kexec_file);
	each_file(module_dir, ".ko", "finit_module", probe_module);

	probe_keyrings();

	out("done", "ok", "checks=%d", nchecks + 1);
	if (into)
		return kexec_into(into, into_initrd ? into_initrd : "/dev/null", into_cmdline);
	return 0;
}
