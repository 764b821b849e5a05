// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * lockshim install [--esp DIR] [--vendor NAME] [--first-stage FILE|DIR]...
 *                  [--mok-manager FILE] [--efivars DIR] [--mok-variables DIR]
 *                  [--boot DIR] [--xbootldr DIR] [--esp-partition UUID:NUMBER:START:SIZE]
 *                  [--no-variables] [--dry-run] [--force]
 *
 * What shim-signed's postinst (with grub-install) and `bootctl install` do:
 * the signed first stage and the MOK manager into \EFI\<vendor>\ on the ESP,
 * BOOTX64.CSV there for the fallback (written in the UCS-2 form shim's
 * fallback reads and parsed back with lockshim's own, fallback.h), and a
 * boot option starting it, on the ESP's partition by its GPT partition
 * GUID, first in BootOrder.
 *
 * Of several first stages (the variants signed per CA, and combined), the
 * one this machine's db and dbx let the firmware start is chosen
 * (firmware_verdict.h, the verdict `check` and `verify --as-firmware` give):
 * a single signature before a combined one, whose every CA a later dbx can
 * revoke, then the newest CA.
 *
 * Nothing is written before `lockshim check` answered for the machine as it
 * will be: a copy of the ESP made of symbolic links with the new files in
 * place, and of the variables with the new option first. When the next
 * boot would not reach a kernel through the new option, install refuses
 * with check's answer (--force installs anyway). The writes keep the old
 * boot path whole at every step: each file written beside its place,
 * synced and renamed over it; the variables only once the files are there;
 * the option before BootOrder names it.
 *
 * Exit status: 0 installed (--dry-run: would be), 1 refused (no first stage
 * the firmware accepts, or check says the result would not boot), 2 an
 * argument or input cannot be used, or a write failed.
 */
#include "install.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fs.h>
#include <openssl/x509.h>

#include "boot_option.h"
#include "check.h"
#include "cli_args.h"
#include "efivars.h"
#include "esp.h"
#include "fallback.h"
#include "file.h"
#include "firmware_verdict.h"
#include "machine_state.h"
#include "macro.h"
#include "signature_list.h"
#include "variables.h"

#define EXIT_REFUSED 1
#define EXIT_USAGE   2

#ifndef LOCKSHIM_LIBDIR
#define LOCKSHIM_LIBDIR "/usr/lib/lockshim" /* where make install and the packages put the images */
#endif

#define FIRST_STAGE     "lockshimx64.efi"
#define MOK_MANAGER     "mmx64.efi"
#define FALLBACK_CSV    "BOOTX64.CSV"
#define SIGNED_SUFFIX   ".signed" /* as shim-signed names its images: shimx64.efi.signed */
#define MAX_CANDIDATES  32
#define EFIVARFS_MAGIC  0xde5e81e4
#define LIVE_EFIVARS    "/sys/firmware/efi/efivars"
#define LIVE_MOKVARS    "/sys/firmware/efi/mok-variables"
#define EFI_GLOBAL_TEXT "8be4df61-93ca-11d2-aa0d-00e098032b8c"

const char install_usage[] =
	"install [--esp DIR] [--vendor NAME] [--first-stage FILE|DIR]...\n"
	"                [--mok-manager FILE] [--efivars DIR] [--mok-variables DIR]\n"
	"                [--boot DIR] [--xbootldr DIR] [--esp-partition UUID:NUMBER:START:SIZE]\n"
	"                [--no-variables] [--dry-run] [--force]\n"
	"exit status: 0 installed (--dry-run: would be), 1 refused: no first stage the\n"
	"             firmware accepts, or check says the machine would not boot after it,\n"
	"             2 an argument or input cannot be used, or a write failed\n";

struct install_args {
	const char *esp, *vendor, *mok_manager, *efivars, *mokvars, *boot, *xbootldr, *partition;
	const char *first_stage[MAX_CANDIDATES];
	size_t n_first_stage;
	bool no_variables, dry_run, force;
};

/* One first stage to choose from, and the firmware's verdict on it. */
struct candidate {
	char path[PATH_MAX];
	uint8_t *data;
	size_t size;
	struct firmware_verdict fv;
	bool single;               /* the firmware sees one signature and none is nested in it */
	const ASN1_TIME *ca_since; /* when the db certificate that allowed it was issued */
};

/* The ESP's partition, as a boot option's HD() node names it (UEFI 2.10, 10.3.5.1). */
struct partition {
	uint8_t guid[16];
	char guid_text[BOOT_OPTION_GUID_TEXT];
	uint32_t number;
	uint64_t start, size; /* in the disk's logical blocks */
};

/* What install writes. */
struct plan {
	char vendor_dir[PATH_MAX]; /* the host path of \EFI\<vendor>, existing or to create */
	char esp_efi[PATH_MAX];    /* the host path of \EFI */
	char file_name[3][FALLBACK_NAME_MAX + 1]; /* as found on the ESP (any case), or ours */
	const char *source[2];                    /* the first stage and MOK manager to copy */
	uint8_t csv[512];
	size_t csv_size;
	struct fallback_path path; /* \EFI\<vendor>\lockshimx64.efi */
	uint8_t option[FALLBACK_LOAD_OPTION_MAX];
	size_t option_size;
	char option_name[16]; /* Boot#### */
	bool option_same;     /* that option exists with these very bytes */
	uint16_t order[BOOT_ORDER_MAX];
	size_t order_count;
	bool order_changes;
};

enum {
	OPT_ESP = 256,
	OPT_VENDOR,
	OPT_FIRST,
	OPT_MM,
	OPT_EFIVARS,
	OPT_MOKVARS,
	OPT_BOOT,
	OPT_XBOOTLDR,
	OPT_PARTITION,
	OPT_NO_VARS,
	OPT_DRY_RUN,
	OPT_FORCE
};

static const struct option install_options[] = {
	{ "esp", required_argument, NULL, OPT_ESP },
	{ "vendor", required_argument, NULL, OPT_VENDOR },
	{ "first-stage", required_argument, NULL, OPT_FIRST },
	{ "mok-manager", required_argument, NULL, OPT_MM },
	{ "efivars", required_argument, NULL, OPT_EFIVARS },
	{ "mok-variables", required_argument, NULL, OPT_MOKVARS },
	{ "boot", required_argument, NULL, OPT_BOOT },
	{ "xbootldr", required_argument, NULL, OPT_XBOOTLDR },
	{ "esp-partition", required_argument, NULL, OPT_PARTITION },
	{ "no-variables", no_argument, NULL, OPT_NO_VARS },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "force", no_argument, NULL, OPT_FORCE },
	CLI_OPTION_HELP,
	{},
};

static int take_install_arg(int code, const char *arg, void *ctx);

static const struct cli_command install_command = {
	"install", install_usage, install_options, "h", take_install_arg,
};

/* One of install's options: it takes no operand. */
static int take_install_arg(int code, const char *arg, void *ctx)
{
	struct install_args *a = ctx;
	const struct cli_command *c = &install_command;

	switch (code) {
	case OPT_ESP:
		return cli_take_once(c, code, &a->esp, arg);
	case OPT_VENDOR:
		return cli_take_once(c, code, &a->vendor, arg);
	case OPT_MM:
		return cli_take_once(c, code, &a->mok_manager, arg);
	case OPT_EFIVARS:
		return cli_take_once(c, code, &a->efivars, arg);
	case OPT_MOKVARS:
		return cli_take_once(c, code, &a->mokvars, arg);
	case OPT_BOOT:
		return cli_take_once(c, code, &a->boot, arg);
	case OPT_XBOOTLDR:
		return cli_take_once(c, code, &a->xbootldr, arg);
	case OPT_PARTITION:
		return cli_take_once(c, code, &a->partition, arg);
	case OPT_NO_VARS:
		a->no_variables = true;
		return 0;
	case OPT_DRY_RUN:
		a->dry_run = true;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	case OPT_FIRST:
		if (a->n_first_stage == MAX_CANDIDATES)
			return cli_usage_error(c, "more than %d --first-stage", MAX_CANDIDATES);
		a->first_stage[a->n_first_stage++] = arg;
		return 0;
	case CLI_OPERAND:
		return cli_usage_error(c, "extra operand '%s'", arg);
	}
	return cli_usage_error(c, "option code %d unexpected", code);
}

/*
 * A vendor directory name the fallback takes (fallback_vendor_dir) and a
 * CSV label can hold: letters, digits, '.', '_' and '-', not BOOT.
 */
static bool vendor_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (!len || len > FALLBACK_NAME_MAX || strcasecmp(name, "BOOT") == 0 ||
	    strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
		    len ||
	    strspn(name, ".") == len)
		return false;
	return true;
}

/* ---- choosing the first stage ------------------------------------------------------ */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A variant's file name: lockshimx64.efi.signed, or .signed.<CA> with a CA
 * name as sign-variants.sh takes it; never dpkg's leftovers of an upgrade
 * (.dpkg-new, .dpkg-old...).
 */
static bool variant_name(const char *name)
{
	static const char base[] = FIRST_STAGE SIGNED_SUFFIX;
	size_t len = sizeof(base) - 1;
	const char *ca = name + len + 1;

	if (strncmp(name, base, len) != 0)
		return false;
	if (name[len] == '\0')
		return true;
	return name[len] == '.' && *ca && strncmp(ca, "dpkg-", 5) != 0 &&
	       strspn(ca, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") ==
		       strlen(ca);
}

static int add_candidate(struct candidate *c, size_t *n, const char *path)
{
	if (*n == MAX_CANDIDATES) {
		say_error("install: more than %d first stages to choose from", MAX_CANDIDATES);
		return -1;
	}
	if (snprintf(c[*n].path, sizeof(c[*n].path), "%s", path) >= (int)sizeof(c[*n].path)) {
		say_error("%s: path too long", path);
		return -1;
	}
	if (read_regular_file(path, &c[*n].data, &c[*n].size) < 0)
		return -1;
	(*n)++;
	return 0;
}

/* The variants in directory @dir, in name order. Returns 0, or -1 said. */
static int add_directory(struct candidate *c, size_t *n, const char *dir)
{
	char *names[MAX_CANDIDATES], path[PATH_MAX];
	size_t count = 0, before = *n;
	struct dirent *d;
	DIR *dh = opendir(dir);
	int r = -1;

	if (!dh) {
		say_error("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dh))) {
		if (!variant_name(d->d_name))
			continue;
		if (count == MAX_CANDIDATES || !(names[count] = strdup(d->d_name))) {
			say_error("%s: too many first stages, or out of memory", dir);
			goto out;
		}
		count++;
	}
	qsort(names, count, sizeof(names[0]), by_name);
	for (size_t i = 0; i < count; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= (int)sizeof(path)) {
			say_error("%s: path too long", dir);
			goto out;
		}
		if (add_candidate(c, n, path) < 0)
			goto out;
	}
	if (*n == before) {
		say_error("%s: no %s%s[.CA] in it", dir, FIRST_STAGE, SIGNED_SUFFIX);
		goto out;
	}
	r = 0;
out:
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	closedir(dh);
	return r;
}

/* Every --first-stage (a file, or a directory of variants), or the package's. */
static int read_candidates(const struct install_args *a, struct candidate *c, size_t *n)
{
	static const char *const fallback[] = { LOCKSHIM_LIBDIR };
	const char *const *given = a->n_first_stage ? a->first_stage : fallback;
	size_t count = a->n_first_stage ? a->n_first_stage : 1;
	struct stat st;

	for (size_t i = 0; i < count; i++) {
		if (stat(given[i], &st) < 0) {
			say_error("%s: %s", given[i], strerror(errno));
			return -1;
		}
		if (S_ISDIR(st.st_mode) ? add_directory(c, n, given[i]) < 0 :
					  add_candidate(c, n, given[i]) < 0)
			return -1;
	}
	return 0;
}

/* Does @a go before @b? Accepted first; one signature before several; the newest CA. */
static bool better(const struct candidate *a, const struct candidate *b)
{
	if (a->fv.verdict.allowed != b->fv.verdict.allowed)
		return a->fv.verdict.allowed;
	if (a->single != b->single)
		return a->single;
	return a->ca_since && b->ca_since && ASN1_TIME_compare(a->ca_since, b->ca_since) > 0;
}

/*
 * The first stage this machine's firmware starts, of @n at @c, said with
 * each one's verdict; its index, or -1 when it starts none (said why for
 * each). With Secure Boot off the firmware checks nothing: the best by db
 * and dbx still, the first given when none passes.
 */
static long choose_first_stage(struct candidate *c, size_t n, const struct machine_state *m,
			       bool have_machine, bool force)
{
	struct sig_db db, dbx;
	const char *reason;
	size_t best = 0;

	if (!have_machine) {
		if (n > 1) {
			say_error("install: %zu first stages and no machine's db to choose with: "
				  "give one --first-stage, or --efivars",
				  n);
			return -1;
		}
		printf("first stage: %s (not checked against any db: no variables)\n", c[0].path);
		return 0;
	}
	sig_db_init(&db, "db");
	sig_db_init(&dbx, "dbx");
	if ((m->db.present && sig_db_add_esl(&db, m->db.data, m->db.size, &reason) < 0) ||
	    (m->dbx.present && sig_db_add_esl(&dbx, m->dbx.data, m->dbx.size, &reason) < 0)) {
		say_error("out of memory");
		best = SIZE_MAX;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct verdict_authority *auth;

		firmware_verify_image(c[i].data, c[i].size, &db, &dbx, &c[i].fv);
		c[i].single = c[i].fv.signatures == 1 && c[i].fv.nested == 0;
		auth = &c[i].fv.verdict.authority;
		if (c[i].fv.verdict.allowed && auth->db && auth->cert)
			c[i].ca_since = X509_get0_notBefore(
				sk_X509_value(auth->db->certs, (int)auth->index));
		if (better(&c[i], &c[best]))
			best = i;
	}
	if (!c[best].fv.verdict.allowed && m->secure_boot) {
		for (size_t i = 0; i < n; i++)
			say_error("install: %s: the firmware would refuse it: %s", c[i].path,
				  c[i].fv.verdict.message);
		if (!force) {
			say_error("install: no first stage this machine's db and dbx accept: "
				  "refusing (--force installs %s anyway)",
				  c[best].path);
			best = SIZE_MAX;
			goto out;
		}
	}
	printf("first stage: %s: %s%s%s\n", c[best].path,
	       c[best].fv.verdict.allowed ? "the firmware accepts it: " :
	       m->secure_boot             ? "forced, the firmware refuses it: " :
					    "Secure Boot is off, and db would refuse it: ",
	       c[best].fv.verdict.message,
	       n > 1 && c[best].single && c[best].fv.verdict.allowed ? " (one signature)" : "");
	for (size_t i = 0; i < n; i++)
		if (i != best)
			printf("  not %s: %s: %s\n", c[i].path,
			       !c[i].fv.verdict.allowed ? "the firmware would refuse it" :
			       !c[i].single             ? "accepted, but signed by several CAs: a "
							  "dbx revoking any of them refuses it" :
			       better(&c[best], &c[i])  ? "accepted too, through an older db CA" :
							  "accepted too, given after it",
			       c[i].fv.verdict.message);
out:
	sig_db_free(&db);
	sig_db_free(&dbx);
	return best == SIZE_MAX ? -1 : (long)best;
}

/* ---- the ESP's partition ------------------------------------------------------------- */

/* 8-4-4-4-12 hex into the 16 bytes EFI stores (the first three fields little-endian). */
static bool guid_parse(const char *text, uint8_t guid[16])
{
	unsigned int a, b, c, d[8];
	int end = 0;

	if (strlen(text) != 36 ||
	    sscanf(text, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x%n", &a, &b, &c, &d[0], &d[1], &d[2],
		   &d[3], &d[4], &d[5], &d[6], &d[7], &end) != 11 ||
	    end != 36)
		return false;
	for (int i = 0; i < 4; i++)
		guid[i] = (uint8_t)(a >> (8 * i));
	guid[4] = (uint8_t)b, guid[5] = (uint8_t)(b >> 8);
	guid[6] = (uint8_t)c, guid[7] = (uint8_t)(c >> 8);
	for (int i = 0; i < 8; i++)
		guid[8 + i] = (uint8_t)d[i];
	return true;
}

static bool set_guid(struct partition *p, const char *text)
{
	if (!guid_parse(text, p->guid))
		return false;
	esl_guid_text(p->guid, p->guid_text);
	return true;
}

/* --esp-partition UUID:NUMBER:START:SIZE */
static int partition_given(const char *spec, struct partition *p)
{
	char guid[37];
	unsigned long long number, start, size;
	int end = 0;

	if (sscanf(spec, "%36[0-9a-fA-F-]:%llu:%llu:%llu%n", guid, &number, &start, &size, &end) !=
		    4 ||
	    spec[end] || !set_guid(p, guid) || number == 0 || number > UINT32_MAX || size == 0) {
		say_error("--esp-partition %s: not UUID:NUMBER:START:SIZE (a partition GUID, "
			  "its number from 1, its first block and its size in blocks)",
			  spec);
		return -1;
	}
	p->number = (uint32_t)number;
	p->start = start;
	p->size = size;
	return 0;
}

/* An unsigned number from the sysfs file @dir/@name. */
static bool sysfs_number(const char *dir, const char *name, unsigned long long *out)
{
	char path[PATH_MAX], line[64];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	ok = f && fgets(line, sizeof(line), f) && sscanf(line, "%llu", out) == 1;
	if (f)
		fclose(f);
	return ok;
}

/*
 * The partition mounted at @esp, as efibootmgr finds it: its number, start
 * and size from sysfs (in 512-byte sectors there), its GUID from the
 * /dev/disk/by-partuuid link that leads to it. Returns 0, or -1 said.
 */
static int partition_live(const char *esp, struct partition *p)
{
	char sys[PATH_MAX], disk[PATH_MAX], parent[PATH_MAX + 4], link[PATH_MAX + 300];
	unsigned long long number, start, size, block = 512;
	struct stat st, up, dev;
	struct dirent *d;
	DIR *dh;
	bool found = false;

	snprintf(parent, sizeof(parent), "%s/..", esp);
	if (stat(esp, &st) < 0 || stat(parent, &up) < 0) {
		say_error("%s: %s", esp, strerror(errno));
		return -1;
	}
	if (st.st_dev == up.st_dev && st.st_ino != up.st_ino) {
		say_error("%s: not where a partition is mounted: give the ESP's mount point, or "
			  "--esp-partition for a copy",
			  esp);
		return -1;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!sysfs_number(sys, "partition", &number) || !sysfs_number(sys, "start", &start) ||
	    !sysfs_number(sys, "size", &size)) {
		say_error("%s: mounted from %s, not a disk partition: give --esp-partition", esp,
			  sys);
		return -1;
	}
	snprintf(parent, sizeof(parent), "%s/..", sys);
	if (realpath(parent, disk)) {
		strncat(disk, "/queue", sizeof(disk) - strlen(disk) - 1);
		sysfs_number(disk, "logical_block_size", &block);
	}
	if (block < 512 || block % 512) {
		say_error("%s: logical block size %llu", sys, block);
		return -1;
	}
	dh = opendir("/dev/disk/by-partuuid");
	while (dh && !found && (d = readdir(dh))) {
		snprintf(link, sizeof(link), "/dev/disk/by-partuuid/%s", d->d_name);
		found = stat(link, &dev) == 0 && S_ISBLK(dev.st_mode) && dev.st_rdev == st.st_dev &&
			set_guid(p, d->d_name);
	}
	if (dh)
		closedir(dh);
	if (!found || number > UINT32_MAX) {
		say_error("%s: no GPT partition GUID in /dev/disk/by-partuuid for %s: a GPT "
			  "disk's partition is needed for the boot option",
			  esp, sys);
		return -1;
	}
	p->number = (uint32_t)number;
	p->start = start * 512 / block;
	p->size = size * 512 / block;
	return 0;
}

/* The HD() node: header, number, start, size, signature, MBR type 2 (GPT), signature type 2. */
static void hd_node(const struct partition *p, uint8_t node[FALLBACK_HD_NODE_SIZE])
{
	node[0] = 0x04, node[1] = 0x01, node[2] = FALLBACK_HD_NODE_SIZE, node[3] = 0;
	for (int i = 0; i < 4; i++)
		node[4 + i] = (uint8_t)(p->number >> (8 * i));
	for (int i = 0; i < 8; i++) {
		node[8 + i] = (uint8_t)(p->start >> (8 * i));
		node[16 + i] = (uint8_t)(p->size >> (8 * i));
	}
	memcpy(node + 24, p->guid, 16);
	node[40] = 2;
	node[41] = 2;
}

/* ---- the plan ------------------------------------------------------------------------ */

/* @text (ASCII) as UCS-2 into @out, appended at *@at; false when it does not fit. */
static bool put_ucs2(uint8_t *out, size_t size, size_t *at, const char *text)
{
	for (; *text; text++) {
		if (*at + 2 > size)
			return false;
		out[(*at)++] = (uint8_t)*text;
		out[(*at)++] = 0;
	}
	return true;
}

/*
 * BOOTX64.CSV as shim's fallback reads it (a byte order mark, UCS-2
 * little-endian, "file,label,options,comment" and CRLF), checked by
 * parsing it back as lockshim's fallback will, into @entry.
 */
static int plan_csv(struct plan *p, const char *vendor, struct fallback_entry *entry)
{
	static struct fallback_csv csv;
	struct reason_buf buf;
	const char *reason;
	char line[FALLBACK_NAME_MAX * 2 + 64];
	uint16_t dir[FALLBACK_NAME_MAX + 1];
	size_t len = strlen(vendor);

	snprintf(line, sizeof(line), "%s,%s,,This is the boot entry for %s\r\n", FIRST_STAGE,
		 vendor, vendor);
	p->csv[0] = 0xff, p->csv[1] = 0xfe;
	p->csv_size = 2;
	if (!put_ucs2(p->csv, sizeof(p->csv), &p->csv_size, line) ||
	    fallback_csv_parse(p->csv, p->csv_size, &csv, &buf, &reason) < 0 || csv.count != 1) {
		say_error("install: the %s written for '%s' does not parse: %s", FALLBACK_CSV,
			  vendor, csv.count == 1 ? reason : "too long");
		return -1;
	}
	*entry = csv.entry[0];
	for (size_t i = 0; i <= len; i++)
		dir[i] = (uint16_t)vendor[i];
	if (fallback_vendor_dir(dir, len, &reason) != 1) {
		say_error("install: --vendor %s: not a directory the fallback reads", vendor);
		return -1;
	}
	fallback_entry_path(dir, len, entry, &p->path);
	return 0;
}

/*
 * The host path of \EFI and \EFI\<vendor> (existing in any case, else as
 * they will be made), and of each file's name in it.
 */
static int plan_files(struct plan *p, const char *esp, const char *vendor)
{
	static const char *const names[] = { FIRST_STAGE, MOK_MANAGER, FALLBACK_CSV };
	char name[PATH_MAX];
	int r;

	r = esp_resolve(esp, "\\EFI", p->esp_efi, sizeof(p->esp_efi));
	if (r < 0)
		return -1;
	if (r == 0)
		snprintf(p->esp_efi, sizeof(p->esp_efi), "%s/EFI", esp);
	snprintf(name, sizeof(name), "\\EFI\\%s", vendor);
	r = esp_resolve(esp, name, p->vendor_dir, sizeof(p->vendor_dir));
	if (r < 0)
		return -1;
	if (r == 0 && snprintf(p->vendor_dir, sizeof(p->vendor_dir), "%s/%s", p->esp_efi, vendor) >=
			      (int)sizeof(p->vendor_dir)) {
		say_error("%s: path too long", p->esp_efi);
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char host[PATH_MAX];

		snprintf(name, sizeof(name), "\\EFI\\%s\\%s", vendor, names[i]);
		r = esp_resolve(esp, name, host, sizeof(host));
		if (r < 0)
			return -1;
		snprintf(p->file_name[i], sizeof(p->file_name[i]), "%s",
			 r ? strrchr(host, '/') + 1 : names[i]);
	}
	return 0;
}

/* Boot#### of the efivarfs file name @name ("Boot0001-<global GUID>"); -1 for any other. */
static long option_number_of(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "Boot", 4) != 0 || strlen(name) != 8 + 1 + 36 || name[8] != '-' ||
	    strcasecmp(name + 9, EFI_GLOBAL_TEXT) != 0)
		return -1;
	for (int i = 4; i < 8; i++)
		if (!strchr("0123456789ABCDEFabcdef", name[i]))
			return -1;
	n = strtol(name + 4, &end, 16);
	return end == name + 8 ? n : -1;
}

/*
 * The option's number: one that already starts this file on this
 * partition (fallback_option_matches, as the fallback reuses it), else
 * the lowest free one; and the new BootOrder with it first.
 */
static int plan_variables(struct plan *p, const char *efivars, const struct partition *part)
{
	static uint8_t used[0x10000];
	struct boot_option *bo = malloc(sizeof(*bo));
	const char *reason;
	struct efivar v;
	struct dirent *d;
	DIR *dh = opendir(efivars);
	long number = -1, n;
	uint16_t old[BOOT_ORDER_MAX], first;
	size_t count = 0;
	int r = -1;

	memset(used, 0, sizeof(used));
	if (!dh || !bo) {
		say_error("%s: %s", efivars, bo ? strerror(errno) : "out of memory");
		goto out;
	}
	while ((d = readdir(dh))) {
		char name[16];

		if ((n = option_number_of(d->d_name)) < 0)
			continue;
		used[n] = 1;
		snprintf(name, sizeof(name), "Boot%04X", (unsigned int)(uint16_t)n);
		if (efivar_read_var(efivars, VAR_BOOT_OPTION, name, &v) < 0)
			goto out;
		if (v.present && boot_option_parse(v.data, v.size, bo, &reason) == 0 &&
		    fallback_option_matches(bo, p->path.ascii, part->guid_text) &&
		    (number < 0 || n < number)) {
			number = n;
			p->option_same = v.size == p->option_size &&
					 memcmp(v.data, p->option, v.size) == 0;
		}
		efivar_free(&v);
	}
	for (n = 0; number < 0 && n < 0x10000; n++)
		if (!used[n])
			number = n;
	if (number < 0) {
		say_error("%s: every Boot#### is taken", efivars);
		goto out;
	}
	snprintf(p->option_name, sizeof(p->option_name), "Boot%04X",
		 (unsigned int)(uint16_t)number);
	if (efivar_read_var(efivars, VAR_BOOT_ORDER, NULL, &v) < 0)
		goto out;
	if (v.present && boot_order_parse(v.data, v.size, old, &count, &reason) < 0) {
		say_error("%s: %s", v.source, reason);
		efivar_free(&v);
		goto out;
	}
	efivar_free(&v);
	first = (uint16_t)number;
	n = fallback_boot_order(old, count, &first, 1, p->order, &p->order_count, &reason);
	if (n < 0) {
		say_error("BootOrder: %s", reason);
		goto out;
	}
	p->order_changes = n > 0 || !count;
	r = 0;
out:
	if (dh)
		closedir(dh);
	free(bo);
	return r;
}

/* BootOrder's data: the numbers, little-endian. */
static size_t order_bytes(const struct plan *p, uint8_t *out)
{
	for (size_t i = 0; i < p->order_count; i++) {
		out[2 * i] = (uint8_t)p->order[i];
		out[2 * i + 1] = (uint8_t)(p->order[i] >> 8);
	}
	return 2 * p->order_count;
}

/* ---- writing --------------------------------------------------------------------------- */

/* @fd's whole @size bytes at @data; false with errno set. */
static bool write_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		data += n;
		size -= (size_t)n;
	}
	return true;
}

/*
 * @dir/@name replaced by @size bytes at @data (and @more, @more_size after
 * them): written to a file beside it, synced, renamed over it and the
 * directory synced, so a power cut leaves the old file or the new one.
 */
static int write_replace(const char *dir, const char *name, const uint8_t *more, size_t more_size,
			 const uint8_t *data, size_t size)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	int fd, dfd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.new", dir, name) >= (int)sizeof(tmp)) {
		say_error("%s: path too long", dir);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || !write_all(fd, more, more_size) || !write_all(fd, data, size) ||
	    fsync(fd) < 0 || close(fd) < 0) {
		say_error("%s: %s", tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	if (rename(tmp, path) < 0) {
		say_error("%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0) {
		say_error("%s: %s", dir, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	close(dfd);
	return 0;
}

/*
 * Variable @name (of the global GUID) in @efivars: on efivarfs one write of
 * the attributes and the data, which the firmware's SetVariable makes whole
 * or nothing, after clearing the immutable flag efivarfs sets on existing
 * variables (as efivar and efibootmgr do); in a copy, as a file replaced.
 */
static int write_variable(const char *efivars, const char *name, uint32_t attributes,
			  const uint8_t *data, size_t size)
{
	uint8_t attr[4] = { (uint8_t)attributes, (uint8_t)(attributes >> 8),
			    (uint8_t)(attributes >> 16), (uint8_t)(attributes >> 24) };
	char file[128], path[PATH_MAX];
	struct statfs fs;
	uint8_t *buf;
	int fd, flags;
	bool ok;

	snprintf(file, sizeof(file), "%s-%s", name, EFI_GLOBAL_TEXT);
	if (statfs(efivars, &fs) < 0) {
		say_error("%s: %s", efivars, strerror(errno));
		return -1;
	}
	if ((unsigned long)fs.f_type != EFIVARFS_MAGIC)
		return write_replace(efivars, file, attr, sizeof(attr), data, size);
	snprintf(path, sizeof(path), "%s/%s", efivars, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
			flags &= ~FS_IMMUTABLE_FL;
			if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0) {
				say_error("%s: cannot clear the immutable flag: %s", path,
					  strerror(errno));
				close(fd);
				return -1;
			}
		}
		close(fd);
	}
	buf = malloc(sizeof(attr) + size);
	if (!buf) {
		say_error("out of memory");
		return -1;
	}
	memcpy(buf, attr, sizeof(attr));
	memcpy(buf + sizeof(attr), data, size);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	/* one write: efivarfs passes it to SetVariable whole */
	ok = fd >= 0 && write(fd, buf, sizeof(attr) + size) == (ssize_t)(sizeof(attr) + size);
	if (!ok)
		say_error("%s: %s", path, strerror(errno));
	if (fd >= 0 && close(fd) < 0 && ok) {
		say_error("%s: %s", path, strerror(errno));
		ok = false;
	}
	free(buf);
	return ok ? 0 : -1;
}

static int make_dir(const char *path)
{
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		say_error("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the machine as it will be, and check's answer on it ----------------------------- */

/* @dir's entries as symbolic links in @shadow, but those named (any case) in @except. */
static int link_entries(const char *dir, const char *shadow, const char *const *except,
			size_t n_except)
{
	char from[PATH_MAX], to[PATH_MAX + 300], real[PATH_MAX];
	struct dirent *d;
	DIR *dh = opendir(dir);
	int r = 0;

	if (!dh)
		return errno == ENOENT ? 0 : (say_error("%s: %s", dir, strerror(errno)), -1);
	while (r == 0 && (d = readdir(dh))) {
		bool skip = strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0;

		for (size_t i = 0; i < n_except; i++)
			skip = skip || strcasecmp(d->d_name, except[i]) == 0;
		if (skip)
			continue;
		snprintf(from, sizeof(from), "%s/%s", dir, d->d_name);
		snprintf(to, sizeof(to), "%s/%s", shadow, d->d_name);
		if (!realpath(from, real))
			snprintf(real, sizeof(real), "%s", from); /* dangling: the same */
		if (symlink(real, to) < 0) {
			say_error("%s: %s", to, strerror(errno));
			r = -1;
		}
	}
	closedir(dh);
	return r;
}

static int link_to(const char *target, const char *dir, const char *name)
{
	char real[PATH_MAX], to[PATH_MAX + 300];

	snprintf(to, sizeof(to), "%s/%s", dir, name);
	if (!realpath(target, real) || symlink(real, to) < 0) {
		say_error("%s: %s", to, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The ESP as it will be, in @tmp/esp: symbolic links to the ESP's files,
 * \EFI\<vendor>'s three files the new ones.
 */
static int shadow_esp(const char *tmp, const char *esp, const struct plan *p, const char *csv_file)
{
	const char *efi_name = strrchr(p->esp_efi, '/') + 1;
	const char *vendor_name = strrchr(p->vendor_dir, '/') + 1;
	const char *files[] = { p->file_name[0], p->file_name[1], p->file_name[2] };
	char root[PATH_MAX], efi[PATH_MAX + 300], dir[PATH_MAX + 600];

	snprintf(root, sizeof(root), "%s/esp", tmp);
	snprintf(efi, sizeof(efi), "%s/%s", root, efi_name);
	snprintf(dir, sizeof(dir), "%s/%s", efi, vendor_name);
	if (make_dir(root) < 0 || link_entries(esp, root, &efi_name, 1) < 0 || make_dir(efi) < 0 ||
	    link_entries(p->esp_efi, efi, &vendor_name, 1) < 0 || make_dir(dir) < 0 ||
	    link_entries(p->vendor_dir, dir, files, ARRAY_SIZE(files)) < 0 ||
	    link_to(p->source[0], dir, files[0]) < 0 || link_to(p->source[1], dir, files[1]) < 0 ||
	    link_to(csv_file, dir, files[2]) < 0)
		return -1;
	return 0;
}

/* The variables as they will be, in @tmp/vars: a copy, the new option and BootOrder in it. */
static int shadow_variables(const char *tmp, const char *efivars, const struct plan *p)
{
	char dir[PATH_MAX];
	uint8_t order[2 * BOOT_ORDER_MAX];
	struct dirent *d;
	DIR *dh = opendir(efivars);
	int r = 0;

	snprintf(dir, sizeof(dir), "%s/vars", tmp);
	if (!dh || make_dir(dir) < 0) {
		if (dh)
			closedir(dh);
		else
			say_error("%s: %s", efivars, strerror(errno));
		return -1;
	}
	while (r == 0 && (d = readdir(dh))) {
		uint8_t *data;
		size_t size;
		struct stat st;
		char from[PATH_MAX + 300];

		snprintf(from, sizeof(from), "%s/%s", efivars, d->d_name);
		if (lstat(from, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		r = read_regular_file(from, &data, &size);
		if (r == 0) {
			r = write_replace(dir, d->d_name, NULL, 0, data, size);
			free(data);
		}
	}
	closedir(dh);
	if (r < 0 ||
	    write_variable(dir, p->option_name, variables[VAR_BOOT_OPTION].attributes, p->option,
			   p->option_size) < 0 ||
	    write_variable(dir, "BootOrder", variables[VAR_BOOT_ORDER].attributes, order,
			   order_bytes(p, order)) < 0)
		return -1;
	return 0;
}

/* `lockshim check` @argv in a child, its output (stdout and stderr) into @out. */
static int run_check(char **argv, int argc, FILE *out)
{
	pid_t pid;
	int status;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		say_error("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int r;

		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(out), STDERR_FILENO);
		r = cmd_check(argc, argv);
		fflush(stdout);
		fflush(stderr);
		_exit(r);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
		say_error("lockshim check did not finish");
		return -1;
	}
	return WEXITSTATUS(status);
}

/*
 * Check the machine as the install leaves it (@efivars, @esp: the copies).
 * Returns 0 when the next boot reaches a kernel and the new option
 * (@option, described @description; NULL: none) boots on its own (BootNext
 * may come first), 1 when not, -1 when check could not answer; check's
 * whole answer is printed on stderr unless it is 0.
 */
static int check_after(const struct install_args *a, const char *efivars, const char *esp,
		       const char *option, const char *description)
{
	char *argv[16], line[1024], want[FALLBACK_NAME_MAX + 64];
	int argc = 0, rc;
	bool boots = !option, line_start = true;
	FILE *out = tmpfile();

	if (!out) {
		say_error("tmpfile: %s", strerror(errno));
		return -1;
	}
	argv[argc++] = "check";
	argv[argc++] = "--efivars";
	argv[argc++] = (char *)efivars;
	argv[argc++] = "--esp";
	argv[argc++] = (char *)esp;
	if (a->mokvars) {
		argv[argc++] = "--mok-variables";
		argv[argc++] = (char *)a->mokvars;
	}
	if (a->boot) {
		argv[argc++] = "--boot";
		argv[argc++] = (char *)a->boot;
	}
	if (a->xbootldr) {
		argv[argc++] = "--xbootldr";
		argv[argc++] = (char *)a->xbootldr;
	}
	argv[argc] = NULL;
	rc = run_check(argv, argc, out);
	if (rc < 0) {
		fclose(out);
		return -1;
	}
	/* the option's own answer, as check prints it: BootNNNN "DESCRIPTION": boots: ... */
	snprintf(want, sizeof(want), "%s \"%s\": boots:", option ? option : "", description);
	rewind(out);
	while (fgets(line, sizeof(line), out)) {
		if (option && line_start && strncmp(line, want, strlen(want)) == 0)
			boots = true;
		line_start = strchr(line, '\n') != NULL;
	}
	if (rc == 0 && boots) {
		fclose(out);
		return 0;
	}
	fprintf(stderr, "lockshim check, for the machine after this install (exit %d):\n", rc);
	rewind(out);
	while (fgets(line, sizeof(line), out))
		fprintf(stderr, "  %s", line);
	fclose(out);
	if (rc == 2)
		return -1;
	if (!boots)
		say_error("install: the new option %s would not boot (its line above)", option);
	return 1;
}

/* rm -r of the shadow copies: only what this run made there. */
static void remove_tree(const char *path)
{
	struct stat st;
	struct dirent *d;
	DIR *dh;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode) && (dh = opendir(path))) {
		while ((d = readdir(dh))) {
			char sub[PATH_MAX];

			if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
				continue;
			if (snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name) < (int)sizeof(sub))
				remove_tree(sub);
		}
		closedir(dh);
		rmdir(path);
		return;
	}
	unlink(path);
}

/* ---- the command ------------------------------------------------------------------------ */

/* Where the ESP is: --esp, else as check finds it live. */
static int find_esp(struct install_args *a, char *out, size_t size)
{
	char partuuid[64] = "";
	struct efivar v;

	if (a->esp)
		return 0;
	if (a->efivars && efivar_read_var(a->efivars, VAR_LOADER_DEVICE_PART_UUID, NULL, &v) == 0) {
		if (v.present && !efivar_ascii(&v, partuuid, sizeof(partuuid)))
			partuuid[0] = '\0';
		efivar_free(&v);
	}
	if (esp_find_live(partuuid, out, size) < 0)
		return -1;
	a->esp = out;
	return 0;
}

/* The files, then the option, then BootOrder: each step leaves a machine that boots. */
static int write_all_of(const struct install_args *a, const struct plan *p,
			const struct candidate *fs, const uint8_t *mm, size_t mm_size)
{
	uint8_t order[2 * BOOT_ORDER_MAX];
	char vendor_esp[FALLBACK_PATH_MAX + 1];

	snprintf(vendor_esp, sizeof(vendor_esp), "\\EFI\\%s\\", a->vendor);
	printf("%s %s%s (from %s)\n", a->dry_run ? "would install" : "installing", vendor_esp,
	       p->file_name[0], fs->path);
	printf("%s %s%s (from %s)\n", a->dry_run ? "would install" : "installing", vendor_esp,
	       p->file_name[1], p->source[1]);
	printf("%s %s%s: %s,%s,,...\n", a->dry_run ? "would write" : "writing", vendor_esp,
	       p->file_name[2], FIRST_STAGE, a->vendor);
	if (!a->dry_run &&
	    (make_dir(p->esp_efi) < 0 || make_dir(p->vendor_dir) < 0 ||
	     write_replace(p->vendor_dir, p->file_name[0], NULL, 0, fs->data, fs->size) < 0 ||
	     write_replace(p->vendor_dir, p->file_name[1], NULL, 0, mm, mm_size) < 0 ||
	     write_replace(p->vendor_dir, p->file_name[2], NULL, 0, p->csv, p->csv_size) < 0))
		return -1;
	if (a->no_variables) {
		printf("no variables written (--no-variables)\n");
		return 0;
	}
	if (p->option_same)
		printf("%s already starts %s\n", p->option_name, p->path.ascii);
	else
		printf("%s %s \"%s\": %s\n", a->dry_run ? "would write" : "writing", p->option_name,
		       a->vendor, p->path.ascii);
	if (!a->dry_run && !p->option_same &&
	    write_variable(a->efivars, p->option_name, variables[VAR_BOOT_OPTION].attributes,
			   p->option, p->option_size) < 0)
		return -1;
	if (!p->order_changes) {
		printf("BootOrder already starts with %s\n", p->option_name);
		return 0;
	}
	printf("%s BootOrder:", a->dry_run ? "would write" : "writing");
	for (size_t i = 0; i < p->order_count; i++)
		printf("%s%04X", i ? "," : " ", p->order[i]);
	printf("\n");
	if (!a->dry_run &&
	    write_variable(a->efivars, "BootOrder", variables[VAR_BOOT_ORDER].attributes, order,
			   order_bytes(p, order)) < 0)
		return -1;
	return 0;
}

int cmd_install(int argc, char **argv)
{
	struct install_args args = { 0 };
	struct candidate *cands = calloc(MAX_CANDIDATES, sizeof(*cands));
	struct plan *plan = calloc(1, sizeof(*plan));
	struct machine_state m = { 0 };
	struct partition part = { 0 };
	struct fallback_entry entry;
	uint8_t hd[FALLBACK_HD_NODE_SIZE], *mm = NULL;
	char esp[PATH_MAX], xbootldr[PATH_MAX], tmp[PATH_MAX], shadow[PATH_MAX + 16],
		shadow_esp_dir[PATH_MAX + 16], csv_file[PATH_MAX + 16];
	size_t n = 0, mm_size = 0;
	bool have_machine, live;
	long chosen;
	int r = EXIT_USAGE, checked;
	enum cli_parsed parsed;

	tmp[0] = '\0';
	if (!cands || !plan) {
		say_error("out of memory");
		goto out;
	}
	parsed = cli_parse(&install_command, argc, argv, &args);
	if (parsed != CLI_PARSED) {
		r = parsed == CLI_HELP_SHOWN ? EXIT_SUCCESS : EXIT_USAGE;
		goto out;
	}
	if (!args.vendor)
		args.vendor = "lockshim";
	if (!vendor_name_ok(args.vendor)) {
		say_error("--vendor %s: a directory name of letters, digits, '.', '_' and '-' "
			  "(not BOOT)",
			  args.vendor);
		goto out;
	}
	if (!args.mok_manager)
		args.mok_manager = LOCKSHIM_LIBDIR "/" MOK_MANAGER SIGNED_SUFFIX;
	/* image builders: files only, and the variables only when a copy is given to check with */
	if (!args.efivars && !args.no_variables) {
		args.efivars = LIVE_EFIVARS;
		if (!args.mokvars && access(LIVE_MOKVARS, F_OK) == 0)
			args.mokvars = LIVE_MOKVARS;
		if (!args.boot)
			args.boot = "/boot";
	}
	have_machine = args.efivars != NULL;
	live = args.efivars && strcmp(args.efivars, LIVE_EFIVARS) == 0;
	if (find_esp(&args, esp, sizeof(esp)) < 0)
		goto out;
	/* as check finds it live: by its partition type on the ESP's disk */
	if (live && !args.xbootldr && xbootldr_find_live(args.esp, xbootldr, sizeof(xbootldr)))
		args.xbootldr = xbootldr;
	if ((!args.no_variables && (args.partition ? partition_given(args.partition, &part) :
						     partition_live(args.esp, &part)) < 0) ||
	    (have_machine && machine_state_read(args.efivars, args.mokvars, &m) < 0) ||
	    read_candidates(&args, cands, &n) < 0 ||
	    read_regular_file(args.mok_manager, &mm, &mm_size) < 0)
		goto out;
	chosen = choose_first_stage(cands, n, &m, have_machine, args.force);
	if (chosen < 0) {
		r = have_machine && n ? EXIT_REFUSED : EXIT_USAGE;
		goto out;
	}
	plan->source[0] = cands[chosen].path;
	plan->source[1] = args.mok_manager;
	if (plan_csv(plan, args.vendor, &entry) < 0 || plan_files(plan, args.esp, args.vendor) < 0)
		goto out;
	if (!args.no_variables) {
		hd_node(&part, hd);
		plan->option_size = fallback_load_option(hd, &entry, &plan->path, plan->option);
		if (plan_variables(plan, args.efivars, &part) < 0)
			goto out;
	}

	/* the machine as it will be: nothing is written before check answered */
	snprintf(tmp, sizeof(tmp), "%s/lockshim-install.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp)) {
		say_error("%s: %s", tmp, strerror(errno));
		tmp[0] = '\0';
		goto out;
	}
	snprintf(csv_file, sizeof(csv_file), "%s/csv", tmp);
	if (write_replace(tmp, "csv", NULL, 0, plan->csv, plan->csv_size) < 0 ||
	    shadow_esp(tmp, args.esp, plan, csv_file) < 0 ||
	    (!args.no_variables && shadow_variables(tmp, args.efivars, plan) < 0))
		goto out;
	if (!have_machine) {
		printf("not checked: no variables to check the machine with (--efivars)\n");
	} else {
		snprintf(shadow, sizeof(shadow), "%s/vars", tmp);
		snprintf(shadow_esp_dir, sizeof(shadow_esp_dir), "%s/esp", tmp);
		checked = check_after(&args, args.no_variables ? args.efivars : shadow,
				      shadow_esp_dir, args.no_variables ? NULL : plan->option_name,
				      args.vendor);
		if (checked < 0 && !args.force)
			goto out; /* check could not answer: exit 2, as check */
		if (checked > 0 && !args.force) {
			say_error(
				"install: refusing: after it the next boot would not reach a kernel%s%s "
				"(--force installs anyway)",
				args.no_variables ? "" : " through ",
				args.no_variables ? "" : plan->option_name);
			r = EXIT_REFUSED;
			goto out;
		}
		printf("check: %s\n",
		       checked == 0 ? "the next boot reaches a kernel" :
		       checked > 0  ? "it would not boot: installing anyway (--force)" :
				      "no answer: installing anyway (--force)");
	}
	if (write_all_of(&args, plan, &cands[chosen], mm, mm_size) < 0)
		goto out;
	r = EXIT_SUCCESS;
out:
	if (tmp[0])
		remove_tree(tmp);
	for (size_t i = 0; cands && i < n; i++)
		free(cands[i].data);
	free(cands);
	free(plan);
	free(mm);
	machine_state_free(&m);
	return r;
}
