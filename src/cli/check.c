// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * lockshim check [--efivars DIR] [--mok-variables DIR] [--esp DIR] [--boot DIR]
 *                [--dbx-update FILE] [--sbat-level FILE|latest|automatic]
 *                [--mok-import CERT]... [--mok-delete CERT]...
 *                [--event-log LOG] [--pcrlock DIR] [--json]
 *
 * For every BootOrder option and the removable path, the chain the next
 * boot runs and each image's verdict (boot_chain.c), from the variables
 * of this boot: db and dbx; the MOK lists, SbatLevel and MOK state from
 * lockshim's or shim's runtime mirrors (the MokVar table first, which only
 * the loader writes), since a running system cannot read the
 * boot-services-only originals. Pending MOK requests are said with what
 * they would change once confirmed. A what-if option answers for the
 * machine after that change, its difference from today's answer first.
 * With this boot's event log (--event-log, live the kernel's copy), each
 * chain lockshim starts also gets the PCR 4, 7 and 14 values its boot will
 * produce (pcrlock.c; --pcrlock DIR writes the first option's events as
 * systemd-pcrlock component files).
 * Exit status: 0 when the first BootOrder option ends in a kernel that
 * will run, 1 when not, 2 when an argument or input cannot be used.
 */
#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/x509.h>

#include "boot_chain.h"
#include "boot_option.h"
#include "buffer.h"
#include "efivars.h"
#include "esp.h"
#include "file.h"
#include "json.h"
#include "macro.h"
#include "pcrlock.h"
#include "policy_args.h"
#include "sbat.h"
#include "sbat_level.h"
#include "signature_list.h"
#include "tcg_log.h"
#include "variable_data.h"

#define EXIT_REFUSED 1
#define EXIT_USAGE   2

#define REMOVABLE_PATH "\\EFI\\BOOT\\BOOTX64.EFI"
#define MAX_OPTIONS    (BOOT_ORDER_MAX + 1)
#define MAX_MOK_EDITS  16

const char check_usage[] =
	"check [--efivars DIR] [--mok-variables DIR] [--esp DIR] [--boot DIR]\n"
	"                [--dbx-update FILE] [--sbat-level FILE|latest|automatic]\n"
	"                [--mok-import CERT]... [--mok-delete CERT]...\n"
	"                [--event-log LOG] [--pcrlock DIR] [--json]\n";

struct check_args {
	const char *efivars, *mokvars, *esp, *boot;
	const char *dbx_update, *sbat_level;
	const char *event_log, *pcrlock; /* PCR prediction: this boot's log; where to write */
	char esp_partuuid[64]; /* live: the ESP's partition GUID (LoaderDevicePartUUID); or empty */
	const char *mok_import[MAX_MOK_EDITS], *mok_delete[MAX_MOK_EDITS];
	size_t n_import, n_delete;
	bool json;
	bool offline; /* --efivars given: no live defaults for the others */
};

/* One option the firmware may start. */
struct option {
	char name[16];
	char path[BOOT_OPTION_MAX_PATH];
	char description[BOOT_OPTION_MAX_DESC];
	char skip[200]; /* why the firmware does not start a file from the ESP; or empty */
	uint8_t *options;
	size_t options_size;
};

struct answer {
	struct chain *chains; /* one per option */
	size_t n;
};

static int check_usage_error(void)
{
	fprintf(stderr, "usage: lockshim %s", check_usage);
	return EXIT_USAGE;
}

static int parse_check_args(int argc, char **argv, struct check_args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
		const char **slot = NULL;

		if (strcmp(arg, "--json") == 0) {
			a->json = true;
			continue;
		}
		if (strcmp(arg, "--efivars") == 0)
			slot = &a->efivars;
		else if (strcmp(arg, "--mok-variables") == 0)
			slot = &a->mokvars;
		else if (strcmp(arg, "--esp") == 0)
			slot = &a->esp;
		else if (strcmp(arg, "--boot") == 0)
			slot = &a->boot;
		else if (strcmp(arg, "--dbx-update") == 0)
			slot = &a->dbx_update;
		else if (strcmp(arg, "--sbat-level") == 0)
			slot = &a->sbat_level;
		else if (strcmp(arg, "--event-log") == 0)
			slot = &a->event_log;
		else if (strcmp(arg, "--pcrlock") == 0)
			slot = &a->pcrlock;
		else if (strcmp(arg, "--mok-import") == 0 && a->n_import < MAX_MOK_EDITS)
			slot = &a->mok_import[a->n_import++];
		else if (strcmp(arg, "--mok-delete") == 0 && a->n_delete < MAX_MOK_EDITS)
			slot = &a->mok_delete[a->n_delete++];
		if (!slot || !value || *slot)
			return -1;
		*slot = value;
		i++;
	}
	a->offline = a->efivars != NULL;
	return 0;
}

/* ---- the machine's state ---------------------------------------------------------- */

static int blob_take(struct blob *b, const struct efivar *v)
{
	b->present = v->present;
	b->data = NULL;
	b->size = 0;
	if (!v->present)
		return 0;
	if (buffer_append(&b->data, &b->size, v->data, v->size) < 0) {
		say_error("out of memory");
		return -1;
	}
	return 0;
}

static int blob_dup(struct blob *to, const struct blob *from)
{
	struct efivar v = { .present = from->present, .data = from->data, .size = from->size };

	return blob_take(to, &v);
}

static void machine_state_free(struct machine_state *m)
{
	struct blob *blobs[] = { &m->db, &m->dbx, &m->mok_list, &m->mok_list_x, &m->sbat_level };

	for (size_t i = 0; i < sizeof(blobs) / sizeof(blobs[0]); i++)
		OPENSSL_free(blobs[i]->data);
	memset(m, 0, sizeof(*m));
}

static int machine_state_dup(struct machine_state *to, const struct machine_state *from)
{
	*to = *from;
	to->db.data = to->dbx.data = to->mok_list.data = to->mok_list_x.data = NULL;
	to->sbat_level.data = NULL;
	return blob_dup(&to->db, &from->db) < 0 || blob_dup(&to->dbx, &from->dbx) < 0 ||
			       blob_dup(&to->mok_list, &from->mok_list) < 0 ||
			       blob_dup(&to->mok_list_x, &from->mok_list_x) < 0 ||
			       blob_dup(&to->sbat_level, &from->sbat_level) < 0 ?
		       -1 :
		       0;
}

/* A one-byte variable's value (0 when absent); -1 (said) when it is not one byte. */
static int read_byte(const struct efivar *v, uint8_t *out)
{
	*out = 0;
	if (!v->present)
		return 0;
	if (v->size != 1) {
		say_error("%s: %zu bytes where one is expected", v->source, v->size);
		return -1;
	}
	*out = v->data[0];
	return 0;
}

/* A variable from the efivarfs copy. */
static int read_var(const struct check_args *a, const char *name, const char *guid,
		    struct efivar *v)
{
	return efivar_read(a->efivars, name, guid, v);
}

/* A mirror: the MokVar table's copy when there is one (only the loader writes it), else efivarfs. */
static int read_mirror(const struct check_args *a, const char *name, struct efivar *v)
{
	if (mokvar_read(a->mokvars, name, v) < 0)
		return -1;
	if (v->present)
		return 0;
	if (read_var(a, name, SHIM_GUID_TEXT, v) < 0)
		return -1;
	/*
	 * lockshim and shim write their mirrors volatile, BS|RT, at every boot:
	 * any other one was written by an OS (squatted, time-authenticated, so
	 * the loader could not replace it) and says nothing of the next boot
	 */
	if (v->present &&
	    v->attributes != (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)) {
		say_error("%s: attributes 0x%x, not a loader's mirror (BS|RT): the next boot's %s "
			  "cannot be known from it; give the MokVar table (--mok-variables)",
			  v->source, v->attributes, name);
		efivar_free(v);
		return -1;
	}
	return 0;
}

/* Each variable the answer depends on, read into @m. Returns 0, or -1 having named the bad one. */
static int read_machine_state(const struct check_args *a, struct machine_state *m)
{
	struct efivar v;
	uint8_t secure_boot, setup_mode, byte;
	struct {
		const char *name;
		bool mirror;
		struct blob *to;
	} lists[] = {
		{ "db", false, &m->db },
		{ "dbx", false, &m->dbx },
		{ "MokListRT", true, &m->mok_list },
		{ "MokListXRT", true, &m->mok_list_x },
		{ "SbatLevelRT", true, &m->sbat_level },
	};

	memset(m, 0, sizeof(*m));
	if (read_var(a, "SecureBoot", EFI_GLOBAL_GUID_TEXT, &v) < 0 ||
	    read_byte(&v, &secure_boot) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	if (read_var(a, "SetupMode", EFI_GLOBAL_GUID_TEXT, &v) < 0 ||
	    read_byte(&v, &setup_mode) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	m->secure_boot = secure_boot == 1 && setup_mode == 0;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		int r = lists[i].mirror ? read_mirror(a, lists[i].name, &v) :
					  read_var(a, lists[i].name, EFI_SECURITY_GUID_TEXT, &v);

		if (r < 0 || blob_take(lists[i].to, &v) < 0)
			return efivar_free(&v), -1;
		efivar_free(&v);
	}
	if (m->sbat_level.present) {
		struct reason_buf why_buf;
		const char *why;
		struct sbat level;

		if (sbat_parse(m->sbat_level.data, m->sbat_level.size, SBAT_LEVEL, &level, &why,
			       &why_buf) < 0) {
			say_error("SbatLevelRT: not a usable SbatLevel: %s", why);
			return -1;
		}
	}
	if (read_mirror(a, "MokSBStateRT", &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->validation_off = byte == 1;
	efivar_free(&v);
	if (read_mirror(a, "MokListTrustedRT", &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->mok_list_trusted = byte == 1;
	efivar_free(&v);
	if (read_mirror(a, "MokIgnoreDB", &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->ignore_db = byte == 1;
	efivar_free(&v);
	if (read_var(a, "SbatPolicy", SHIM_GUID_TEXT, &v) < 0 || read_byte(&v, &m->sbat_policy) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	return 0;
}

/* ---- the options ---------------------------------------------------------------- */

static int read_option(const struct check_args *a, uint16_t number, struct option *o)
{
	struct boot_option *bo = malloc(sizeof(*bo));
	const char *reason;
	struct efivar v;
	int r = -1;

	memset(o, 0, sizeof(*o));
	snprintf(o->name, sizeof(o->name), "Boot%04X", number);
	if (!bo || read_var(a, o->name, EFI_GLOBAL_GUID_TEXT, &v) < 0)
		goto out;
	if (!v.present) {
		snprintf(o->skip, sizeof(o->skip), "BootOrder names %s, which does not exist",
			 o->name);
		r = 0;
		goto out;
	}
	if (boot_option_parse(v.data, v.size, bo, &reason) < 0) {
		say_error("%s: %s", v.source, reason);
		goto out_var;
	}
	snprintf(o->description, sizeof(o->description), "%s", bo->description);
	snprintf(o->path, sizeof(o->path), "%s", bo->path);
	if (bo->partition_guid[0] && a->esp_partuuid[0] &&
	    strcasecmp(bo->partition_guid, a->esp_partuuid) != 0)
		snprintf(o->skip, sizeof(o->skip),
			 "on partition %s, not the ESP this boot used: check it with --esp",
			 bo->partition_guid);
	else if (!(bo->attributes & LOAD_OPTION_ACTIVE))
		snprintf(o->skip, sizeof(o->skip), "inactive: the firmware skips it");
	else if (bo->target == BOOT_TARGET_FIRMWARE)
		snprintf(o->skip, sizeof(o->skip), "an application inside the firmware");
	else if (bo->target == BOOT_TARGET_OTHER)
		snprintf(o->skip, sizeof(o->skip), "no file on a disk (network, removable media)");
	if (bo->optional_data && buffer_append(&o->options, &o->options_size, bo->optional_data,
					       bo->optional_data_size) < 0) {
		say_error("out of memory");
		goto out_var;
	}
	r = 0;
out_var:
	efivar_free(&v);
out:
	free(bo);
	return r;
}

/* BootOrder's options, then the removable path. Returns the count, or -1 having said why. */
static long read_options(const struct check_args *a, struct option *options)
{
	uint16_t order[BOOT_ORDER_MAX];
	const char *reason;
	struct efivar v;
	size_t n = 0, count = 0;

	if (read_var(a, "BootOrder", EFI_GLOBAL_GUID_TEXT, &v) < 0)
		return -1;
	if (v.present && boot_order_parse(v.data, v.size, order, &count, &reason) < 0) {
		say_error("%s: %s", v.source, reason);
		efivar_free(&v);
		return -1;
	}
	efivar_free(&v);
	for (n = 0; n < count; n++)
		if (read_option(a, order[n], &options[n]) < 0)
			return -1;
	memset(&options[n], 0, sizeof(options[n]));
	snprintf(options[n].name, sizeof(options[n].name), "removable");
	snprintf(options[n].path, sizeof(options[n].path), "%s", REMOVABLE_PATH);
	return (long)n + 1;
}

/* ---- the answer ------------------------------------------------------------------ */

static int answer_machine(const struct chain_files *files, const struct machine_state *today,
			  const struct option *options, size_t n, struct answer *out)
{
	struct machine_state next;
	int r = -1;

	out->n = 0;
	out->chains = calloc(n, sizeof(*out->chains));
	if (!out->chains || machine_state_dup(&next, today) < 0) {
		say_error("out of memory");
		return -1;
	}
	/* the first option's boot stores the SbatLevel every later boot sees */
	for (size_t i = 0; i < n; i++)
		if (!options[i].skip[0]) {
			if (chain_next_sbat_level(files, options[i].path, &next) < 0)
				goto out;
			break;
		}
	for (size_t i = 0; i < n; i++) {
		struct chain *c = &out->chains[i];

		snprintf(c->option, sizeof(c->option), "%s", options[i].name);
		snprintf(c->description, sizeof(c->description), "%s",
			 options[i].description[0] ? options[i].description : options[i].path);
		if (options[i].skip[0]) {
			snprintf(c->why, sizeof(c->why), "%s", options[i].skip);
		} else if (chain_evaluate(files, &next, options[i].path, options[i].options,
					  options[i].options_size, c) < 0) {
			goto out;
		}
		out->n++;
	}
	r = 0;
out:
	machine_state_free(&next);
	return r;
}

static const char *verdict_word(bool allowed)
{
	return allowed ? "allowed" : "refused";
}

static void print_chain_text(const struct chain *c, const struct option *o)
{
	if (o->description[0])
		printf("%s \"%s\"", c->option, o->description);
	else
		printf("%s %s", c->option, o->path);
	printf(": %s: %s\n", c->boots ? "boots" : "does not boot", c->why);
	for (size_t i = 0; i < c->n_steps; i++) {
		const struct chain_step *s = &c->steps[i];

		printf("  %s %s (%s): reason=%s", verdict_word(s->allowed), s->image, s->role,
		       verdict_reason_name(s->reason));
		if (s->list[0])
			printf(" list=%s", s->list);
		if (s->entry[0])
			printf(" entry=%s", s->entry);
		printf(": %s\n", s->message);
	}
	chain_pcrs_print_text(&c->pcrs);
}

static void print_chain_json(const struct chain *c, const struct option *o)
{
	printf("{");
	json_print_key("option", false);
	json_print_string(c->option);
	json_print_key("description", true);
	json_print_string(o->description);
	json_print_key("path", true);
	json_print_string(o->path);
	json_print_key("boots", true);
	printf("%s", c->boots ? "true" : "false");
	json_print_key("why", true);
	json_print_string(c->why);
	json_print_key("chain", true);
	printf("[");
	for (size_t i = 0; i < c->n_steps; i++) {
		const struct chain_step *s = &c->steps[i];

		printf("%s{", i ? ", " : "");
		json_print_key("image", false);
		json_print_string(s->image);
		json_print_key("role", true);
		json_print_string(s->role);
		json_print_key("verdict", true);
		json_print_string(verdict_word(s->allowed));
		json_print_key("reason", true);
		json_print_string(verdict_reason_name(s->reason));
		json_print_key("list", true);
		json_print_string(s->list);
		json_print_key("entry", true);
		json_print_string(s->entry);
		json_print_key("message", true);
		json_print_string(s->message);
		printf("}");
	}
	printf("]");
	chain_pcrs_print_json(&c->pcrs);
	printf("}");
}

/* One change of answer: an option's, or one image's in it (@step NULL: the whole option). */
static void print_change(const struct chain *c, const struct chain_step *step, bool boots_before,
			 bool json, size_t n)
{
	bool now = step ? step->allowed : c->boots;

	if (json) {
		printf("%s{", n ? ", " : "");
		json_print_key("option", false);
		json_print_string(c->option);
		if (step) {
			json_print_key("image", true);
			json_print_string(step->image);
			json_print_key("role", true);
			json_print_string(step->role);
			json_print_key("verdict", true);
			json_print_string(verdict_word(now));
			json_print_key("reason", true);
			json_print_string(verdict_reason_name(step->reason));
		} else {
			json_print_key("boots_before", true);
			printf("%s", boots_before ? "true" : "false");
			json_print_key("boots_after", true);
			printf("%s", now ? "true" : "false");
		}
		json_print_key("why", true);
		json_print_string(step ? step->message : c->why);
		printf("}");
	} else if (step) {
		printf("after this update %s: %s (%s) will be %s: %s\n", c->option, step->image,
		       step->role, now ? "allowed" : "refused", step->message);
	} else {
		printf("after this update %s will %s: %s\n", c->option,
		       now ? "boot again" : "no longer boot", c->why);
	}
}

/* The step of @b with @s's image and role; NULL when @b has none. */
static const struct chain_step *same_step(const struct chain *b, const struct chain_step *s)
{
	for (size_t i = 0; i < b->n_steps; i++)
		if (strcmp(b->steps[i].image, s->image) == 0 &&
		    strcmp(b->steps[i].role, s->role) == 0)
			return &b->steps[i];
	return NULL;
}

/*
 * How @after differs from @before, said first: each option that stops or
 * starts booting, then, where its answer is the same, each image of its
 * chain whose verdict changes (a recovery kernel in a GRUB submenu).
 */
static size_t print_changes(const struct answer *before, const struct answer *after, bool json)
{
	size_t changed = 0;

	for (size_t i = 0; i < after->n && i < before->n; i++) {
		const struct chain *b = &before->chains[i], *c = &after->chains[i];

		if (b->boots != c->boots) {
			print_change(c, NULL, b->boots, json, changed++);
			continue;
		}
		for (size_t k = 0; k < c->n_steps; k++) {
			const struct chain_step *was = same_step(b, &c->steps[k]);

			if (was && was->allowed != c->steps[k].allowed)
				print_change(c, &c->steps[k], b->boots, json, changed++);
		}
	}
	if (!changed && !json)
		printf("after this update every option boots as it does today\n");
	return changed;
}

/* ---- pending MOK requests ------------------------------------------------------------ */

static int describe_entry(const struct esl_entry *e, void *ctx)
{
	char *out = ctx;
	size_t len = strlen(out);
	char subject[200] = "";

	if (e->type == ESL_X509) {
		const unsigned char *p = e->data;
		X509 *cert = d2i_X509(NULL, &p, (long)e->size);

		if (cert)
			X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof(subject));
		X509_free(cert);
	} else {
		for (size_t i = 0; i < e->size && i < 32; i++)
			snprintf(subject + 2 * i, sizeof(subject) - 2 * i, "%02x", e->data[i]);
	}
	snprintf(out + len, 600 - len, "%s%s %s", len ? "; " : "", esl_type_name(e->type), subject);
	return 0;
}

/* The requests mokutil leaves for the MOK manager, said with what each would change. */
static int print_pending(const struct check_args *a, bool json)
{
	static const struct {
		const char *name, *effect;
		bool list;
	} requests[] = {
		{ "MokNew", "adds to MokList", true },
		{ "MokDel", "deletes from MokList", true },
		{ "MokXNew", "adds to MokListX", true },
		{ "MokXDel", "deletes from MokListX", true },
		{ "MokSB", "turns validation off or on (MokSBState)", false },
		{ "MokDB", "stops or starts trusting db (MokDBState)", false },
		{ "MokPW", "sets or clears the MOK password", false },
		{ "MokTML", "trusts MOK keys for modules or stops (MokListTrusted)", false },
		{ "SbatPolicy", "asks for another SbatLevel at the next boot", false },
	};
	size_t shown = 0;

	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		char what[600] = "";
		const char *reason;
		struct efivar v;

		if (read_var(a, requests[i].name, SHIM_GUID_TEXT, &v) < 0)
			return -1;
		if (!v.present)
			continue;
		if (requests[i].list &&
		    esl_walk(v.data, v.size, describe_entry, what, &reason) > 0) {
			say_error("%s: malformed request: %s", v.source, reason);
			efivar_free(&v);
			return -1;
		}
		efivar_free(&v);
		if (json) {
			printf("%s{", shown ? ", " : "");
			json_print_key("variable", false);
			json_print_string(requests[i].name);
			json_print_key("effect", true);
			json_print_string(requests[i].effect);
			json_print_key("entries", true);
			json_print_string(what);
			printf("}");
		} else {
			printf("pending %s: once confirmed at the console, %s%s%s\n",
			       requests[i].name, requests[i].effect, what[0] ? ": " : "", what);
		}
		shown++;
	}
	return 0;
}

/* ---- what if ------------------------------------------------------------------------ */

/* esl_walk_lists's visitor when only its count of rejected lists matters */
static int accept_list(const struct esl_list *list, void *ctx)
{
	(void)list;
	(void)ctx;
	return 0;
}

/* A dbx update: a signature list, or a signed .auth whose payload is one. Appended to dbx. */
static int apply_dbx_update(const char *path, struct machine_state *m)
{
	const uint8_t *payload;
	size_t size, payload_size;
	const char *reason = "", *auth_reason;
	uint8_t *data;
	int r = -1;

	if (read_file(path, &data, &size) < 0)
		return -1;
	payload = data;
	payload_size = size;
	if (size == 0 || esl_walk_lists(data, size, accept_list, NULL, &reason) != 0) {
		if (auth2_payload(data, size, &payload, &payload_size, &auth_reason) < 0) {
			say_error(
				"%s: malformed update: neither a signature list (%s) nor a signed "
				"update (%s)",
				path, size ? reason : "empty", auth_reason);
			goto out;
		}
		if (payload_size == 0 ||
		    esl_walk_lists(payload, payload_size, accept_list, NULL, &reason) != 0) {
			say_error("%s: malformed update: its payload is not a signature list (%s)",
				  path, payload_size ? reason : "empty");
			goto out;
		}
	}
	m->dbx.present = true;
	if (buffer_append(&m->dbx.data, &m->dbx.size, payload, payload_size) < 0) {
		say_error("out of memory");
		goto out;
	}
	r = 0;
out:
	free(data);
	return r;
}

static int apply_sbat_level(const char *arg, struct machine_state *m)
{
	struct reason_buf why_buf;
	struct sbat level;
	const char *why;
	uint8_t *data;
	size_t size;

	if (strcmp(arg, "latest") == 0 || strcmp(arg, "automatic") == 0) {
		m->sbat_policy = arg[0] == 'l' ? SBAT_POLICY_LATEST : SBAT_POLICY_AUTOMATIC;
		return 0;
	}
	if (read_file(arg, &data, &size) < 0)
		return -1;
	if (sbat_parse(data, size, SBAT_LEVEL, &level, &why, &why_buf) < 0) {
		say_error("%s: not a usable SbatLevel: %s", arg, why);
		free(data);
		return -1;
	}
	OPENSSL_free(m->sbat_level.data);
	m->sbat_level = (struct blob){ true, NULL, 0 };
	if (buffer_append(&m->sbat_level.data, &m->sbat_level.size, data, size) < 0) {
		say_error("out of memory");
		free(data);
		return -1;
	}
	free(data);
	m->sbat_policy = SBAT_POLICY_NONE;
	return 0;
}

/* The certificates to delete: a signature list as policy_list_file_bytes makes of a file. */
struct mok_delete {
	const uint8_t *esl;
	size_t size;
};

/* esl_walk's visitor: 1 (stop) when @e is the certificate @ctx points at. */
static int same_cert(const struct esl_entry *e, void *ctx)
{
	const struct esl_entry *wanted = ctx;

	return e->type == ESL_X509 && e->size == wanted->size &&
	       memcmp(e->data, wanted->data, e->size) == 0;
}

static bool keep_unless_deleted(const struct esl_entry *e, void *ctx)
{
	const struct mok_delete *d = ctx;
	const char *reason;

	return e->type != ESL_X509 || esl_walk(d->esl, d->size, same_cert, (void *)e, &reason) != 1;
}

struct list_rebuild {
	struct mok_delete del;
	uint8_t *data;
	size_t size, dropped;
	int failed;
};

static int rebuild_list(const struct esl_list *list, void *ctx)
{
	struct list_rebuild *r = ctx;
	size_t dropped = 0;

	if (esl_append_list(list, keep_unless_deleted, &r->del, &r->data, &r->size, &dropped) < 0)
		return r->failed = -1;
	r->dropped += dropped;
	return 0;
}

/* MokList without the certificates of the file at @path (mokutil --delete). */
static int apply_mok_delete(const char *path, struct machine_state *m)
{
	struct list_rebuild r = { 0 };
	uint8_t *certs = NULL;
	size_t size = 0;
	const char *reason = "";
	int rejected = 0;

	if (policy_list_file_bytes(path, &certs, &size) < 0)
		return -1;
	r.del = (struct mok_delete){ certs, size };
	if (m->mok_list.present)
		rejected = esl_walk_lists(m->mok_list.data, m->mok_list.size, rebuild_list, &r,
					  &reason);
	OPENSSL_free(certs);
	if (rejected != 0) {
		say_error("MokListRT cannot be rewritten: %s", r.failed ? "out of memory" : reason);
		OPENSSL_free(r.data);
		return -1;
	}
	if (!r.dropped) {
		say_error("%s: not in MokList: nothing to delete", path);
		OPENSSL_free(r.data);
		return -1;
	}
	OPENSSL_free(m->mok_list.data);
	m->mok_list = (struct blob){ r.data != NULL, r.data, r.size };
	return 0;
}

static int apply_what_if(const struct check_args *a, struct machine_state *m)
{
	if (a->dbx_update && apply_dbx_update(a->dbx_update, m) < 0)
		return -1;
	if (a->sbat_level && apply_sbat_level(a->sbat_level, m) < 0)
		return -1;
	for (size_t i = 0; i < a->n_import; i++) {
		if (policy_list_file_bytes(a->mok_import[i], &m->mok_list.data, &m->mok_list.size) <
		    0)
			return -1;
		m->mok_list.present = true;
	}
	for (size_t i = 0; i < a->n_delete; i++)
		if (apply_mok_delete(a->mok_delete[i], m) < 0)
			return -1;
	return 0;
}

static bool has_what_if(const struct check_args *a)
{
	return a->dbx_update || a->sbat_level || a->n_import || a->n_delete;
}

/* ---- the command ------------------------------------------------------------------- */

/*
 * The variables, the ESP (and /boot, when given) must be directories that
 * can be read: else nothing can be said. The MokVar table may be absent
 * (no loader installed one).
 */
static int readable_dirs(const struct check_args *a)
{
	const char *dirs[] = { a->efivars, a->esp, a->boot };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		DIR *d = dirs[i] ? opendir(dirs[i]) : NULL;

		if (dirs[i] && !d) {
			say_error("%s: %s", dirs[i], strerror(errno));
			return -1;
		}
		if (d)
			closedir(d);
	}
	return 0;
}

/* The live defaults for what was not given (unless --efivars says this is a copy). */
static int live_defaults(struct check_args *a, char *esp, size_t esp_size)
{
	char partuuid[64] = "";
	struct efivar v;

	if (a->offline) {
		if (!a->esp) {
			say_error("--efivars without --esp: give the ESP's copy too");
			return -1;
		}
		return readable_dirs(a);
	}
	a->efivars = "/sys/firmware/efi/efivars";
	if (!a->mokvars)
		a->mokvars = "/sys/firmware/efi/mok-variables";
	if (readable_dirs(&(struct check_args){ .efivars = a->efivars }) < 0)
		return -1; /* not booted through UEFI, or efivarfs not mounted */
	if (!a->boot)
		a->boot = "/boot";
	if (a->esp)
		return 0;
	if (efivar_read(a->efivars, "LoaderDevicePartUUID", LOADER_GUID_TEXT, &v) < 0)
		return -1;
	if (v.present && !efivar_ascii(&v, partuuid, sizeof(partuuid)))
		partuuid[0] = '\0';
	snprintf(a->esp_partuuid, sizeof(a->esp_partuuid), "%s", partuuid);
	efivar_free(&v);
	if (esp_find_live(partuuid, esp, esp_size) < 0)
		return -1;
	a->esp = esp;
	return readable_dirs(a);
}

/*
 * The firmware's part of this boot's event log (--event-log, or live the
 * kernel's copy when there is one) into @bank, and the first stage it
 * measured into @first_stage. Returns 1 loaded, 0 when there is none to
 * predict from, -1 having said why the log cannot be used.
 */
static int load_event_log(struct check_args *a, struct pcr_bank *bank, uint8_t first_stage[32])
{
	static const char live_log[] = "/sys/kernel/security/tpm0/binary_bios_measurements";
	const char *reason;
	uint8_t *log;
	size_t size;
	int r;

	if (!a->event_log && !a->offline && access(live_log, R_OK) == 0)
		a->event_log = live_log;
	if (!a->event_log) {
		if (a->pcrlock)
			say_error("--pcrlock: no event log to predict from: give --event-log LOG");
		return a->pcrlock ? -1 : 0;
	}
	if (read_file(a->event_log, &log, &size) < 0)
		return -1;
	pcr_bank_reset(bank);
	r = tcg_log_replay_until_application(log, size, bank, first_stage, &reason);
	if (r < 0)
		say_error("%s: %s", a->event_log, reason);
	free(log);
	return r < 0 ? -1 : 1;
}

/* --pcrlock DIR: the first option's events; an option that cannot be predicted is an error. */
static int write_pcrlock(const char *dir, const struct answer *answer)
{
	const struct chain *first = answer->n ? &answer->chains[0] : NULL;

	if (!first || !first->pcrs.predicted) {
		say_error("--pcrlock: %s's PCRs cannot be predicted: %s",
			  first ? first->option : "",
			  first && first->pcrs.note[0] ? first->pcrs.note :
							 "lockshim does not start it");
		return -1;
	}
	return pcrlock_write(dir, &first->pcrs);
}

static void answer_free(struct answer *a)
{
	free(a->chains);
	a->chains = NULL;
}

int cmd_check(int argc, char **argv)
{
	struct check_args args = { 0 };
	struct machine_state today = { 0 }, after = { 0 };
	struct answer before = { 0 }, answer = { 0 };
	struct option *options = calloc(MAX_OPTIONS, sizeof(*options));
	struct chain_files files = { 0 };
	const struct answer *final;
	struct pcr_bank firmware;
	uint8_t first_stage[32];
	char esp[4096];
	int log;
	long n = 0;
	int r = EXIT_USAGE;

	if (!options || parse_check_args(argc, argv, &args) < 0) {
		free(options);
		return check_usage_error();
	}
	if (live_defaults(&args, esp, sizeof(esp)) < 0 || read_machine_state(&args, &today) < 0)
		goto out;
	log = load_event_log(&args, &firmware, first_stage);
	if (log < 0)
		goto out;
	files = (struct chain_files){ args.esp, args.boot, image_cache_new(),
				      log ? &firmware : NULL, log ? first_stage : NULL };
	if (!files.cache || (n = read_options(&args, options)) < 0)
		goto out;
	if (answer_machine(&files, &today, options, (size_t)n, &before) < 0)
		goto out;
	final = &before;
	if (has_what_if(&args)) {
		if (machine_state_dup(&after, &today) < 0 || apply_what_if(&args, &after) < 0 ||
		    answer_machine(&files, &after, options, (size_t)n, &answer) < 0)
			goto out;
		final = &answer;
	}
	if (args.pcrlock && write_pcrlock(args.pcrlock, final) < 0)
		goto out;
	if (args.json) {
		printf("{");
		if (has_what_if(&args)) {
			json_print_key("changes", false);
			printf("[");
			print_changes(&before, &answer, true);
			printf("], ");
		}
		json_print_key("entries", false);
		printf("[");
		for (size_t i = 0; i < final->n; i++) {
			printf("%s", i ? ", " : "");
			print_chain_json(&final->chains[i], &options[i]);
		}
		printf("], ");
		json_print_key("pending", false);
		printf("[");
		if (print_pending(&args, true) < 0)
			goto out;
		printf("]}\n");
	} else {
		if (has_what_if(&args))
			print_changes(&before, &answer, false);
		for (size_t i = 0; i < final->n; i++)
			print_chain_text(&final->chains[i], &options[i]);
		if (print_pending(&args, false) < 0)
			goto out;
	}
	r = final->n && final->chains[0].boots ? EXIT_SUCCESS : EXIT_REFUSED;
out:
	fflush(stdout);
	for (long i = 0; i < n; i++)
		free(options[i].options);
	free(options);
	answer_free(&before);
	answer_free(&answer);
	image_cache_free(files.cache);
	machine_state_free(&today);
	machine_state_free(&after);
	return r;
}
