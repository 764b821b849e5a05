// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * lockshim status [--efivars DIR] [--securityfs DIR] [--json]
 *
 * What lockshim decided this boot, as it recorded it in LockshimBootLog
 * (src/core/boot_record.h): read from efivarfs (/sys/firmware/efi/efivars,
 * or a copy of it, --efivars DIR), with the kernel's lockdown state (the
 * word in brackets of /sys/kernel/security/lockdown; --securityfs DIR for
 * a copy, and with --efivars only then). Prints the record lines, then the image lockshim started and
 * its verdict, the Secure Boot state and the lockdown asked of the kernel
 * beside the kernel's own; --json prints one JSON document instead.
 * Without a record (shim, systemd-boot or an OS loader started this
 * boot), what mokutil --sb-state and bootctl status say: Secure Boot, MOK
 * validation, the option the firmware started, the loader, the lockdown.
 * Exit status: 0 when the record or the machine was read; 2 when the
 * record is unreadable, not lockshim's (attributes other than BS|RT: an
 * OS wrote it) or not a record lockshim writes, or an argument cannot be
 * used: never a guess.
 */
#include "status.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "boot_option.h"
#include "boot_record.h"
#include "cli_args.h"
#include "efivars.h"
#include "file.h"
#include "json.h"
#include "loader_interface.h"
#include "variable_data.h"

#define EXIT_USAGE 2

#define LIVE_SECURITYFS "/sys/kernel/security"
/* what lockshim writes it with: volatile, never NV */
#define BOOT_RECORD_ATTRIBUTES variables[VAR_LOCKSHIM_BOOT_LOG].attributes

const char status_usage[] = "status [--efivars DIR] [--securityfs DIR] [--json]\n";

struct status_args {
	const char *efivars, *securityfs;
	bool json;
};

enum {
	OPT_JSON = 0x100,
	OPT_EFIVARS,
	OPT_SECURITYFS,
};

static int take_status_arg(int code, const char *arg, void *ctx);

static const struct option status_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "efivars", required_argument, NULL, OPT_EFIVARS },
	{ "securityfs", required_argument, NULL, OPT_SECURITYFS },
	CLI_OPTION_HELP,
	{},
};

static const struct cli_command status_command = {
	"status", status_usage, status_options, "h", take_status_arg,
};

static int take_status_arg(int code, const char *arg, void *ctx)
{
	struct status_args *a = ctx;
	const char **slot = code == OPT_EFIVARS ? &a->efivars : &a->securityfs;

	if (code == OPT_JSON) {
		a->json = true;
		return 0;
	}
	if (code == CLI_OPERAND)
		return cli_usage_error(&status_command, "'%s': status takes no operand", arg);
	return cli_take_once(&status_command, code, slot, arg);
}

static enum cli_parsed parse_status_args(int argc, char **argv, struct status_args *a)
{
	enum cli_parsed parsed = cli_parse(&status_command, argc, argv, a);

	/* a copy of efivarfs is another machine's, or another time's: not this kernel's lockdown */
	if (!a->securityfs && !a->efivars)
		a->securityfs = LIVE_SECURITYFS;
	if (!a->efivars)
		a->efivars = LIVE_EFIVARS;
	return parsed;
}

/*
 * The kernel's lockdown level into @word (none, integrity, confidentiality):
 * the word in brackets of DIR/lockdown. Empty when there is no such file
 * (no securityfs, or a kernel without the lockdown LSM), it says no word,
 * or @dir is NULL: unknown, which is said, not an error.
 */
static void kernel_lockdown(const char *dir, char *word, size_t size)
{
	char path[4096];
	uint8_t *data;
	size_t n;
	struct stat st;
	const char *from, *to; /* the brackets */

	word[0] = '\0';
	if (!dir)
		return;
	if (snprintf(path, sizeof(path), "%s/lockdown", dir) >= (int)sizeof(path) ||
	    stat(path, &st) != 0 || read_file(path, &data, &n) < 0)
		return;
	from = memchr(data, '[', n);
	to = from ? memchr(from, ']', n - (size_t)(from - (const char *)data)) : NULL;
	if (to && (size_t)(to - from - 1) < size && to - from > 1) {
		bool lower = true;

		for (const char *c = from + 1; c < to; c++)
			lower = lower && *c >= 'a' && *c <= 'z';
		if (lower) {
			memcpy(word, from + 1, (size_t)(to - from - 1));
			word[to - from - 1] = '\0';
		}
	}
	free(data);
}

/* The record line @line of @len bytes, read as fields (boot_record_parse accepted it). */
static const struct record_fields *fields_of(const char *line, size_t len)
{
	static struct record_fields f;
	const char *reason;

	if (!line || record_parse(line, len, &f, &reason) < 0)
		f.n = 0;
	return &f;
}

/* The value of @key in the record line @line, copied into @out; "" when absent. */
static const char *value_of(const char *line, size_t len, const char *key, char *out, size_t size)
{
	const char *v = line ? record_value(fields_of(line, len), key) : NULL;

	snprintf(out, size, "%s", v ? v : "");
	return out;
}

static void print_json_value_or_null(const char *key, const char *value, bool comma)
{
	json_print_key(key, comma);
	if (value && *value)
		json_print_string(value);
	else
		printf("null");
}

static void print_json(const struct efivar *var, const struct boot_record_view *view,
		       const char *lockdown)
{
	char secure_boot[64], asked[64], why[64];
	const char *line;
	size_t at = 0, len;
	bool first = true;

	printf("{");
	json_print_header();
	json_print_key("record", true);
	printf("{");
	json_print_key("variable", false);
	json_print_string(strrchr(var->source, '/') ? strrchr(var->source, '/') + 1 : var->source);
	printf(", \"attributes\": %u, \"version\": %d", (unsigned int)var->attributes,
	       BOOT_RECORD_VERSION);
	json_print_key("lockshim", true);
	json_print_string(view->version);
	printf(", \"dropped\": %llu}", (unsigned long long)view->dropped);
	print_json_value_or_null("secure_boot",
				 value_of(view->secure_boot, view->secure_boot_len, "secure-boot",
					  secure_boot, sizeof(secure_boot)),
				 true);
	json_print_key("records", true);
	printf("[");
	while (boot_record_next_line(view->lines, view->lines_size, &at, &line, &len)) {
		const struct record_fields *f = fields_of(line, len);

		printf(first ? "{" : ", {");
		for (size_t i = 0; i < f->n; i++) {
			json_print_key(f->field[i].key, i > 0);
			json_print_string(f->field[i].value);
		}
		printf("}");
		first = false;
	}
	printf("]");
	/* the image lockshim started, its verdict as everywhere (no message: a record keeps none) */
	json_print_key("started", true);
	if (view->started) {
		const struct record_fields *f = fields_of(view->started, view->started_len);

		printf("{");
		json_print_key("image", false);
		json_print_string(record_value(f, "image"));
		json_print_verdict(record_value(f, "verdict"), record_value(f, "reason"),
				   record_value(f, "list"), record_value(f, "entry"), NULL);
		printf("}");
	} else {
		printf("null");
	}
	json_print_key("lockdown", true);
	printf("{");
	print_json_value_or_null("asked",
				 value_of(view->lockdown, view->lockdown_len, "lockdown", asked,
					  sizeof(asked)),
				 false);
	print_json_value_or_null(
		"reason", value_of(view->lockdown, view->lockdown_len, "reason", why, sizeof(why)),
		true);
	print_json_value_or_null("kernel", lockdown, true);
	printf("}}\n");
}

static void print_text(const struct efivar *var, const struct boot_record_view *view,
		       const char *securityfs, const char *lockdown)
{
	char value[VERDICT_RECORD_SIZE], reason[64], list[64], asked[64], why[64];
	const char *line;
	size_t at = 0, len;

	printf("lockshim %s recorded this boot in %s (%zu records", view->version, var->source,
	       view->n);
	if (view->dropped)
		printf(", %llu older ones gave way", (unsigned long long)view->dropped);
	printf("):\n");
	while (boot_record_next_line(view->lines, view->lines_size, &at, &line, &len))
		printf("  %.*s\n", (int)len, line);
	if (view->started) {
		const char *s = view->started;
		size_t n = view->started_len;

		printf("started: %s", value_of(s, n, "image", value, sizeof(value)));
		printf(": %s", value_of(s, n, "verdict", value, sizeof(value)));
		printf(" (%s", value_of(s, n, "reason", reason, sizeof(reason)));
		if (*value_of(s, n, "list", list, sizeof(list)))
			printf(", %s", list);
		if (*value_of(s, n, "entry", value, sizeof(value)))
			printf(" %s", value);
		printf(")\n");
	} else {
		printf("started: nothing recorded (lockshim decided on no image of its own)\n");
	}
	printf("Secure Boot: %s\n", view->secure_boot ?
					    value_of(view->secure_boot, view->secure_boot_len,
						     "secure-boot", value, sizeof(value)) :
					    "not recorded");
	if (view->lockdown)
		printf("lockdown: lockshim asked %s (%s); ",
		       value_of(view->lockdown, view->lockdown_len, "lockdown", asked,
				sizeof(asked)),
		       value_of(view->lockdown, view->lockdown_len, "reason", why, sizeof(why)));
	else
		printf("lockdown: lockshim asked nothing; ");
	if (*lockdown)
		printf("the kernel is at %s\n", lockdown);
	else if (securityfs)
		printf("the kernel's is unknown (no %s/lockdown)\n", securityfs);
	else
		printf("the kernel's is not read for a copy (--securityfs DIR)\n");
}

/*
 * The machine as mokutil --sb-state and bootctl status show it, for a boot
 * lockshim did not record (shim, systemd-boot or an OS loader started it):
 * Secure Boot, MokSBState's mirror, the option the firmware started
 * (BootCurrent) and the Boot Loader Interface's loader, each read with the
 * attributes its writer gives it (efivar_read_var).
 */
struct machine_view {
	const char *secure_boot;            /* "enabled", "disabled", "setup-mode" */
	int mok_validation;                 /* 1, 0 (MokSBStateRT 1), -1 unknown */
	char boot_current[9];               /* "Boot0001"; empty when unknown */
	struct boot_option option;          /* its option, when boot_current */
	char loader_info[LOADER_TEXT_MAX];  /* LoaderInfo; empty when none */
	char loader_image[LOADER_TEXT_MAX]; /* LoaderImageIdentifier */
};

/* A one-byte variable's value; -1 when absent or of another size. */
static int read_byte_var(const char *efivars, enum variable_id id, int *value)
{
	struct efivar v;

	*value = -1;
	if (efivar_read_var(efivars, id, NULL, &v) < 0)
		return -1;
	if (v.present && v.size == 1)
		*value = v.data[0];
	efivar_free(&v);
	return 0;
}

/* A UTF-16 variable as ASCII into @out; empty when absent or not ASCII. */
static int read_text_var(const char *efivars, enum variable_id id, char *out, size_t size)
{
	struct efivar v;

	out[0] = '\0';
	if (efivar_read_var(efivars, id, NULL, &v) < 0)
		return -1;
	if (v.present && !efivar_ascii(&v, out, size))
		out[0] = '\0';
	efivar_free(&v);
	return 0;
}

static int read_machine(const char *efivars, struct machine_view *m)
{
	int secure_boot, setup_mode, mok_sb_state;
	const char *reason;
	struct efivar v;

	memset(m, 0, sizeof(*m));
	if (read_byte_var(efivars, VAR_SECURE_BOOT, &secure_boot) < 0 ||
	    read_byte_var(efivars, VAR_SETUP_MODE, &setup_mode) < 0 ||
	    read_byte_var(efivars, VAR_MOK_SB_STATE_RT, &mok_sb_state) < 0 ||
	    read_text_var(efivars, VAR_LOADER_INFO, m->loader_info, sizeof(m->loader_info)) < 0 ||
	    read_text_var(efivars, VAR_LOADER_IMAGE_IDENTIFIER, m->loader_image,
			  sizeof(m->loader_image)) < 0)
		return -1;
	m->secure_boot = setup_mode == 1 ? "setup-mode" : secure_boot == 1 ? "enabled" : "disabled";
	m->mok_validation = mok_sb_state == 1 ? 0 : 1;
	if (efivar_read_var(efivars, VAR_BOOT_CURRENT, NULL, &v) < 0)
		return -1;
	if (v.present && v.size == 2)
		snprintf(m->boot_current, sizeof(m->boot_current), "Boot%04X",
			 (unsigned int)(v.data[0] | v.data[1] << 8));
	efivar_free(&v);
	if (!m->boot_current[0])
		return 0;
	if (efivar_read_var(efivars, VAR_BOOT_OPTION, m->boot_current, &v) < 0)
		return -1;
	if (!v.present || boot_option_parse(v.data, v.size, &m->option, &reason) < 0)
		memset(&m->option, 0, sizeof(m->option));
	efivar_free(&v);
	return 0;
}

static void print_machine_text(const struct machine_view *m, const char *securityfs,
			       const char *lockdown)
{
	printf("Secure Boot: %s\n", m->secure_boot);
	if (!m->mok_validation)
		printf("MOK validation: disabled (MokSBState: the first stage verifies nothing)\n");
	if (m->boot_current[0])
		printf("booted: %s \"%s\" %s (BootCurrent)\n", m->boot_current,
		       m->option.description,
		       m->option.path[0] ? m->option.path : "(no file path)");
	else
		printf("booted: unknown (no BootCurrent)\n");
	if (m->loader_info[0] || m->loader_image[0])
		printf("boot loader: %s %s (LoaderInfo, LoaderImageIdentifier)\n",
		       m->loader_info[0] ? m->loader_info : "(no LoaderInfo)", m->loader_image);
	else
		printf("boot loader: none set the Boot Loader Interface (shim, GRUB alone)\n");
	if (*lockdown)
		printf("lockdown: the kernel is at %s\n", lockdown);
	else if (securityfs)
		printf("lockdown: the kernel's is unknown (no %s/lockdown)\n", securityfs);
	else
		printf("lockdown: the kernel's is not read for a copy (--securityfs DIR)\n");
}

static void print_machine_json(const struct machine_view *m, const char *lockdown)
{
	printf("{");
	json_print_header();
	json_print_key("record", true);
	printf("null");
	json_print_key("secure_boot", true);
	json_print_string(m->secure_boot);
	printf(", \"mok_validation\": %s", m->mok_validation ? "true" : "false");
	json_print_key("boot_current", true);
	if (m->boot_current[0]) {
		printf("{");
		json_print_key("option", false);
		json_print_string(m->boot_current);
		json_print_key("description", true);
		json_print_string(m->option.description);
		json_print_key("path", true);
		json_print_string(m->option.path);
		printf("}");
	} else {
		printf("null");
	}
	json_print_key("loader", true);
	printf("{");
	print_json_value_or_null("info", m->loader_info[0] ? m->loader_info : NULL, false);
	print_json_value_or_null("image", m->loader_image[0] ? m->loader_image : NULL, true);
	printf("}");
	json_print_key("lockdown", true);
	printf("{");
	print_json_value_or_null("asked", NULL, false);
	print_json_value_or_null("reason", NULL, true);
	print_json_value_or_null("kernel", *lockdown ? lockdown : NULL, true);
	printf("}}\n");
}

int cmd_status(int argc, char **argv)
{
	struct status_args args = { 0 };
	struct boot_record_view view;
	struct reason_buf buf;
	struct efivar var;
	const char *reason;
	char lockdown[32], guid[VARIABLE_GUID_TEXT_SIZE];
	enum cli_parsed parsed;
	DIR *dir;

	parsed = parse_status_args(argc, argv, &args);
	if (parsed != CLI_PARSED)
		return parsed == CLI_HELP_SHOWN ? EXIT_SUCCESS : EXIT_USAGE;
	dir = opendir(args.efivars);
	if (!dir) {
		say_error("%s: %s (not booted through UEFI, or efivarfs not mounted)", args.efivars,
			  strerror(errno));
		return EXIT_USAGE;
	}
	closedir(dir);
	/* its attributes are checked below: status refuses one an OS wrote */
	variable_vendor_guid_text(variables[VAR_LOCKSHIM_BOOT_LOG].vendor, guid);
	if (efivar_read(args.efivars, variables[VAR_LOCKSHIM_BOOT_LOG].name, guid, &var) < 0)
		return EXIT_USAGE; /* said */
	if (!var.present) {
		struct machine_view m;

		/* another first stage started this boot: what the machine says of it */
		if (read_machine(args.efivars, &m) < 0)
			return EXIT_USAGE; /* said */
		kernel_lockdown(args.securityfs, lockdown, sizeof(lockdown));
		if (args.json) {
			print_machine_json(&m, lockdown);
		} else {
			printf("no record of this boot (%s): lockshim did not start it, or could "
			       "not write it (its console says why)\n",
			       variables[VAR_LOCKSHIM_BOOT_LOG].name);
			print_machine_text(&m, args.securityfs, lockdown);
		}
		return EXIT_SUCCESS;
	}
	if (var.attributes != BOOT_RECORD_ATTRIBUTES) {
		say_error("%s: attributes 0x%x, not lockshim's volatile BS|RT (0x%x): not this "
			  "boot's record (an OS wrote it, and lockshim could not delete it)",
			  var.source, (unsigned int)var.attributes, BOOT_RECORD_ATTRIBUTES);
		efivar_free(&var);
		return EXIT_USAGE;
	}
	if (boot_record_parse(var.data, var.size, &view, &reason, &buf) < 0) {
		say_error("%s: not a record lockshim writes: %s", var.source, reason);
		efivar_free(&var);
		return EXIT_USAGE;
	}
	kernel_lockdown(args.securityfs, lockdown, sizeof(lockdown));
	if (args.json)
		print_json(&var, &view, lockdown);
	else
		print_text(&var, &view, args.securityfs, lockdown);
	efivar_free(&var);
	return EXIT_SUCCESS;
}
