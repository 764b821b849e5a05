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
 *   a device's DMA     allowed (its bytes landed) | refused (they did not) |
 *                      untested (probe_vfio.c)
 *   lockdown           none | integrity | confidentiality | unavailable
 *   capabilities       present | absent (CAP_SYS_RAWIO in that set)
 *   keys               present (one line per key in a system keyring)
 *   ACPI table         present | absent (the test SSDT an initrd or an EFI
 *                      variable may carry, OEM table ID LSEARLY1:
 *                      tests/qemu/test_lockdown_early.sh, test_lockdown_params.sh)
 *   pmem               present | absent (/dev/pmem*: probe_params.c)
 *   console, param     info (/proc/consoles, a module parameter in sysfs)
 *   variable_info      line | absent (the MokVar table's VariableInfo);
 *   efivarfs_statfs    info (the store's bytes as efivarfs reports them)
 *   tpm                pcr | log | log-end | absent | unreadable (probe_tpm.c)
 * The probe draws no conclusion itself: the test harness compares the
 * lines with what each scenario expects.
 *
 *     probe [--kexec-dir DIR [--kexec-parts DIR]] [--kexec-corpus DIR]
 *           [--module-dir DIR]
 *           [--kexec-into IMAGE --kexec-initrd FILE --kexec-cmdline STR]
 *
 * Every DIR/<name>.efi is tried with kexec_file_load and every
 * DIR/<name>.ko with finit_module, in name order; the check is
 * kexec_file_load:<name> or finit_module:<name>. --kexec-parts puts the
 * slot images into the kexec DIR first; --kexec-corpus tries each image of
 * the differential corpus, put together in memory (probe_kexec.c).
 *
 * With --kexec-into, after every check (and the done line), IMAGE is loaded
 * with kexec_file_load(IMAGE, FILE, STR) (check kexec_into) and, when that
 * worked, the probe reboots into it with reboot(LINUX_REBOOT_CMD_KEXEC); it
 * returns (status 1) only when either call failed.
 *
 * Built with the host's gcc -static (glibc): no kernel headers beyond the
 * uapi ones, raw syscalls throughout so that nothing is hidden by a wrapper.
 */
#include "probe.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#define ACPI_TEST_TABLE_ID "LSEARLY1"
static int kmsg_fd = -1;
static int nchecks;

/* ---- output ---------------------------------------------------------------- */

/* One line, one write(): the line is never split by other output. */
void out(const char *check, const char *result, const char *fmt, ...)
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

const char *errname(int e)
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

void kmsg_skip(void)
{
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/*
 * The kernel messages logged since kmsg_skip(), as
 *   kmsg="first; second; ..." lockdown_msg=yes|no
 * lockdown_msg says whether the lockdown LSM said no ("Lockdown: ...").
 */
void kmsg_collect(char *buf, size_t size)
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
void report_op(const char *check, const char *tried, long ret, int err)
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

/* ---- files to try, in name order ------------------------------------------- */

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/*
 * The check "WHAT:<NAME without SUFFIX>" on DIR/NAME: FN gets the file open
 * (an open that fails is reported as the check's result).
 */
static void check_file(const char *dir, const char *name, const char *suffix,
		       const char *what, file_check_fn *fn)
{
	char path[512], check[256], tried[600];
	struct stat st;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(check, sizeof(check), "%s:%.*s", what, (int)(strlen(name) - strlen(suffix)), name);
	kmsg_skip();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(tried, sizeof(tried), "open(%s)", path);
		report_op(check, tried, -1, e);
		return;
	}
	fstat(fd, &st);
	fn(check, path, fd, (long long)st.st_size);
	close(fd);
}

void each_file(const char *dir, const char *suffix, const char *what, file_check_fn *fn)
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
			check_file(dir, list[i]->d_name, suffix, what, fn);
			found++;
		}
		free(list[i]);
	}
	free(list);
	if (!found)
		out(what, "untested", "no %s files in %s", suffix, dir);
}

/* ---- the lockshim (and earlycon) lines of the boot log ------------------- */

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
		if (!strncmp(text, "lockshim: ", 10) || !strncmp(text, "earlycon: ", 10) ||
		    strstr(text, "Kernel is locked down") || strstr(text, "invalid for parameter"))
			out("bootlog", "line", "%s", text);
	}
	close(fd);
}
int main(int argc, char **argv)
{
	const char *kexec_dir = NULL, *kexec_parts = NULL, *kexec_corpus_dir = NULL;
	const char *module_dir = NULL;
	const char *into = NULL, *into_initrd = NULL, *into_cmdline = "";
	struct utsname u;
	char buf[1024];
	int i, fd;
	ssize_t n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kexec-dir") && i + 1 < argc)
			kexec_dir = argv[++i];
		else if (!strcmp(argv[i], "--kexec-parts") && i + 1 < argc)
			kexec_parts = argv[++i];
		else if (!strcmp(argv[i], "--kexec-corpus") && i + 1 < argc)
			kexec_corpus_dir = argv[++i];
		else if (!strcmp(argv[i], "--module-dir") && i + 1 < argc)
			module_dir = argv[++i];
		else if (!strcmp(argv[i], "--kexec-into") && i + 1 < argc)
			into = argv[++i];
		else if (!strcmp(argv[i], "--kexec-initrd") && i + 1 < argc)
			into_initrd = argv[++i];
		else if (!strcmp(argv[i], "--kexec-cmdline") && i + 1 < argc)
			into_cmdline = argv[++i];
		else {
			fprintf(stderr, "usage: probe [--kexec-dir DIR [--kexec-parts DIR]] [--kexec-corpus DIR]"
				" [--module-dir DIR]"
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
	probe_variable_store();

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
	probe_uio();
	probe_vfio();
	probe_acpi_table(ACPI_TEST_TABLE_ID);
	probe_rawio();
	probe_pmem();
	probe_consoles();
	probe_sysfs_value("param:firewire_ohci.remote_dma",
			  "/sys/module/firewire_ohci/parameters/remote_dma");

	probe_sig_enforce_off();
	probe_kexec_load();
	if (kexec_dir && kexec_parts)
		kexec_assemble(kexec_parts, kexec_dir);
	each_file(kexec_dir, ".efi", "kexec_file_load", probe_kexec_file);
	if (kexec_corpus_dir)
		kexec_corpus(kexec_corpus_dir);
	each_file(module_dir, ".ko", "finit_module", probe_module);

	probe_keyrings();
	probe_tpm();

	out("done", "ok", "checks=%d", nchecks + 1);
	if (into)
		return kexec_into(into, into_initrd ? into_initrd : "/dev/null", into_cmdline);
	return 0;
}
