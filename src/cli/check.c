// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * lockshim check [--efivars DIR] [--mok-variables DIR] [--esp DIR] [--boot DIR]
 *                [--xbootldr DIR]
 *                [--dbx-update FILE] [--db-update FILE] [--kek-update FILE]
 *                [--dbx-replace FILE] [--db-replace FILE] [--kek-replace FILE]
 *                [--sbat-level FILE|windows|latest|automatic]
 *                [--mok-import CERT]... [--mok-delete CERT]...
 *                [--event-log LOG] [--pcrlock DIR] [--json | -q]
 *
 * For every option the firmware's boot manager tries at the next boot
 * (boot_manager.h: BootNext, BootOrder's, the removable path), the chain it
 * runs and each image's verdict (boot_chain.c), from the variables
 * of this boot: db and dbx; the MOK lists, SbatLevel and MOK state from
 * lockshim's or shim's runtime mirrors (the MokVar table first, which only
 * the loader writes), since a running system cannot read the
 * boot-services-only originals. Pending MOK requests are said with what
 * they would change once confirmed. A what-if option answers for the
 * machine after that change, its difference from today's answer first.
 * With this boot's event log (--event-log, live the kernel's copy), each
 * chain lockshim starts also gets the PCR 4, 7 and 14 values its boot will
 * produce (pcrlock.c; --pcrlock DIR writes the events of the option the
 * next boot ends at as systemd-pcrlock component files).
 * Exit status: where the next boot ends, the first option that does not
 * fall through to the next: 0 it reaches a kernel, 1 it will not boot, 3
 * check cannot tell (an image it does not follow), 2 when an argument or
 * input cannot be used. -q prints nothing: the exit status answers.
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

#include "boot_chain.h"
#include "boot_manager.h"
#include "boot_option.h"
#include "boot_plan.h"
#include "buffer.h"
#include "ca_names.h"
#include "check_args.h"
#include "dbx_warning.h"
#include "efivars.h"
#include "esp.h"
#include "file.h"
#include "json.h"
#include "machine_state.h"
#include "macro.h"
#include "mok_pending.h"
#include "pcrlock.h"
#include "tcg_log.h"
#include "what_if.h"

#define EXIT_REFUSED     1
#define EXIT_USAGE       2
#define EXIT_CANNOT_TELL 3

#define MAX_OPTIONS (BOOT_ORDER_MAX + 2) /* BootNext, BootOrder's, the removable path */

/* One option the firmware may start. */
struct option {
	char name[16];
	char path[BOOT_OPTION_MAX_PATH];
	char description[BOOT_OPTION_MAX_DESC];
	char skip[200]; /* why the firmware does not start a file from the ESP; or empty */
	enum boot_outcome skip_outcome; /* what that comes to */
	bool boot_next;                 /* tried first as BootNext */
	uint8_t *options;
	size_t options_size;
};

struct answer {
	struct chain *chains; /* one per option */
	size_t n;
	size_t next;             /* where the next boot ends (n: after every option) */
	enum boot_result result; /* and what it comes to */
};

/* ---- the options ---------------------------------------------------------------- */

static int read_option(const struct check_args *a, uint16_t number, bool boot_next,
		       struct option *o)
{
	struct boot_option *bo = malloc(sizeof(*bo));
	const char *reason, *passed_over;
	struct efivar v;
	int r = -1;

	memset(o, 0, sizeof(*o));
	o->boot_next = boot_next;
	snprintf(o->name, sizeof(o->name), "Boot%04X", number);
	if (!bo || efivar_read_var(a->efivars, VAR_BOOT_OPTION, o->name, &v) < 0)
		goto out;
	o->skip_outcome = BOOT_OUTCOME_FALLS_THROUGH;
	if (!v.present) {
		snprintf(o->skip, sizeof(o->skip), "no %s: the firmware goes on", o->name);
		r = 0;
		goto out;
	}
	if (boot_option_parse(v.data, v.size, bo, &reason) < 0) {
		say_error("%s: %s", v.source, reason);
		goto out_var;
	}
	snprintf(o->description, sizeof(o->description), "%s", bo->description);
	snprintf(o->path, sizeof(o->path), "%s", bo->path);
	o->skip_outcome = BOOT_OUTCOME_UNKNOWN;
	passed_over = boot_manager_passes_over(bo->attributes, boot_next);
	if (passed_over) {
		snprintf(o->skip, sizeof(o->skip), "%s", passed_over);
		o->skip_outcome = BOOT_OUTCOME_FALLS_THROUGH;
	} else if (bo->partition_guid[0] && a->esp_partuuid[0] &&
		   strcasecmp(bo->partition_guid, a->esp_partuuid) != 0) {
		snprintf(o->skip, sizeof(o->skip),
			 "on partition %s, not the ESP this boot used: check it with --esp",
			 bo->partition_guid);
	} else if (bo->target == BOOT_TARGET_FIRMWARE) {
		snprintf(o->skip, sizeof(o->skip),
			 "an application inside the firmware: starts, not followed");
		o->skip_outcome = BOOT_OUTCOME_NOT_FOLLOWED;
	} else if (bo->target == BOOT_TARGET_OTHER) {
		snprintf(o->skip, sizeof(o->skip), "no file on a disk (network, removable media)");
	}
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

/*
 * BootNext, when set as the firmware takes it (one option number: it
 * deletes any other without trying it), into *@next. Returns 1 set, 0 not,
 * -1 having said why it cannot be read.
 */
static int read_boot_next(const struct check_args *a, uint16_t *next)
{
	const char *reason;
	struct efivar v;
	int r = 0;

	if (efivar_read_var(a->efivars, VAR_BOOT_NEXT, NULL, &v) < 0)
		return -1;
	if (v.present && boot_next_parse(v.data, v.size, next, &reason) < 0)
		say_error("%s: %s: the firmware deletes it and goes on without it", v.source,
			  reason);
	else
		r = v.present;
	efivar_free(&v);
	return r;
}

/*
 * The options in the order the firmware tries them (BootNext, BootOrder's),
 * then the removable path. Returns the count, or -1 having said why.
 */
static long read_options(const struct check_args *a, struct option *options)
{
	uint16_t order[BOOT_ORDER_MAX], tried[BOOT_ORDER_MAX + 1], next = 0;
	const char *reason;
	struct efivar v;
	size_t n = 0, count = 0;
	int has_next = read_boot_next(a, &next);

	if (has_next < 0 || efivar_read_var(a->efivars, VAR_BOOT_ORDER, NULL, &v) < 0)
		return -1;
	if (v.present && boot_order_parse(v.data, v.size, order, &count, &reason) < 0) {
		say_error("%s: %s", v.source, reason);
		efivar_free(&v);
		return -1;
	}
	efivar_free(&v);
	count = boot_manager_order(has_next > 0, next, order, count, tried);
	for (n = 0; n < count; n++) {
		if (read_option(a, tried[n], has_next > 0 && n == 0, &options[n]) < 0)
			return -1;
	}
	memset(&options[n], 0, sizeof(options[n]));
	snprintf(options[n].name, sizeof(options[n].name), "removable");
	snprintf(options[n].path, sizeof(options[n].path), "%s", BOOT_PLAN_REMOVABLE_PATH);
	return (long)n + 1;
}

/* ---- the answer ------------------------------------------------------------------ */

/* Where the next boot ends over @a's chains (boot_manager.c); 0, or -1 out of memory. */
static int boot_manager_next_boot_of(struct answer *a)
{
	enum boot_outcome *outcomes = calloc(a->n + 1, sizeof(*outcomes));

	if (!outcomes) {
		say_error("out of memory");
		return -1;
	}
	for (size_t i = 0; i < a->n; i++)
		outcomes[i] = a->chains[i].outcome;
	a->next = boot_manager_next_boot(outcomes, a->n, &a->result);
	free(outcomes);
	return 0;
}

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
			c->outcome = options[i].skip_outcome;
		} else if (chain_evaluate(files, &next, options[i].path, options[i].options,
					  options[i].options_size, c) < 0) {
			goto out;
		}
		out->n++;
	}
	r = boot_manager_next_boot_of(out);
out:
	machine_state_free(&next);
	return r;
}

static const char *verdict_word(bool allowed)
{
	return allowed ? "allowed" : "refused";
}

/* An option's answer, in words: an image check does not follow is never "does not boot". */
static const char *outcome_words(enum boot_outcome outcome)
{
	switch (outcome) {
	case BOOT_OUTCOME_BOOTS:
		return "boots";
	case BOOT_OUTCOME_FALLS_THROUGH:
	case BOOT_OUTCOME_STOPS:
		return "does not boot";
	case BOOT_OUTCOME_NOT_FOLLOWED:
		return "starts, not followed";
	case BOOT_OUTCOME_UNKNOWN:
		break;
	}
	return "cannot tell";
}

static const char *result_name(enum boot_result result)
{
	return result == BOOT_RESULT_BOOTS         ? "boots" :
	       result == BOOT_RESULT_WILL_NOT_BOOT ? "will-not-boot" :
						     "cannot-tell";
}

static void print_chain_text(const struct chain *c, const struct option *o)
{
	if (o->description[0])
		printf("%s \"%s\"", c->option, o->description);
	else if (o->path[0])
		printf("%s %s", c->option, o->path);
	else
		printf("%s", c->option); /* BootOrder names one that does not exist */
	printf("%s: %s: %s%s\n", o->boot_next ? " (BootNext)" : "", outcome_words(c->outcome),
	       c->why, c->outcome == BOOT_OUTCOME_FALLS_THROUGH ? " (the firmware goes on)" : "");
	for (size_t i = 0; i < c->n_steps; i++) {
		const struct chain_step *s = &c->steps[i];

		printf("  %s %s (%s): reason=%s", verdict_word(s->allowed), s->image, s->role,
		       verdict_reason_name(s->reason));
		if (s->list[0])
			printf(" list=%s", s->list);
		if (s->entry[0])
			printf(" entry=%s", s->entry);
		if (s->id[0])
			printf(" id='%s'", s->id);
		printf(": %s\n", s->message);
	}
	chain_pcrs_print_text(&c->pcrs);
}

/* One image of a chain: its path, role, entry id and verdict (json_print_verdict). */
static void print_step_json(const struct chain_step *s)
{
	printf("{");
	json_print_key("image", false);
	json_print_string(s->image);
	json_print_key("role", true);
	json_print_string(s->role);
	json_print_key("id", true);
	json_print_string_or_null(s->id);
	json_print_verdict(verdict_word(s->allowed), verdict_reason_name(s->reason), s->list,
			   s->entry, s->message);
	printf("}");
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
	json_print_key("boot_next", true);
	printf("%s", o->boot_next ? "true" : "false");
	json_print_key("boots", true);
	printf("%s", c->boots ? "true" : "false");
	json_print_key("outcome", true);
	json_print_string(boot_outcome_name(c->outcome));
	json_print_key("why", true);
	json_print_string(c->why);
	json_print_key("chain", true);
	printf("[");
	for (size_t i = 0; i < c->n_steps; i++) {
		printf("%s", i ? ", " : "");
		print_step_json(&c->steps[i]);
	}
	printf("]");
	chain_pcrs_print_json(&c->pcrs);
	printf("}");
}

/* The top-level answer: where the next boot ends, and what it comes to. */
static void print_next_boot(const struct answer *a, bool json)
{
	const struct chain *c = a->next < a->n ? &a->chains[a->next] : NULL;

	if (json) {
		json_print_key("next_boot", true);
		printf("{");
		json_print_key("result", false);
		json_print_string(result_name(a->result));
		json_print_key("option", true);
		json_print_string_or_null(c ? c->option : NULL);
		json_print_key("why", true);
		json_print_string(c ? c->why : "every option falls through");
		printf("}");
	} else if (!c) {
		printf("next boot: will not boot: every option falls through\n");
	} else {
		printf("next boot: %s at %s: %s\n",
		       a->result == BOOT_RESULT_BOOTS         ? "boots" :
		       a->result == BOOT_RESULT_WILL_NOT_BOOT ? "will not boot" :
								"cannot tell",
		       c->option, c->why);
	}
}

/*
 * One change of answer: an option's, or one image's in it (@step NULL: the
 * whole option); in JSON one shape for both, "step" null for an option's.
 */
static void print_change(const struct chain *c, const struct chain_step *step, bool boots_before,
			 bool json, size_t n)
{
	bool now = step ? step->allowed : c->boots;

	if (json) {
		printf("%s{", n ? ", " : "");
		json_print_key("option", false);
		json_print_string(c->option);
		json_print_key("boots_before", true);
		printf("%s", boots_before ? "true" : "false");
		json_print_key("boots_after", true);
		printf("%s", c->boots ? "true" : "false");
		json_print_key("step", true);
		if (step)
			print_step_json(step);
		else
			printf("null");
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

/* The state the answer was decided with (after the update, for a what-if). */
static void print_machine_json(const struct machine_state *m)
{
	json_print_key("machine", true);
	printf("{");
	json_print_key("secure_boot", false);
	printf("%s", m->secure_boot_var ? "true" : "false");
	json_print_key("setup_mode", true);
	printf("%s", m->setup_mode ? "true" : "false");
	json_print_key("mok_validation", true);
	printf("%s", m->validation_off ? "false" : "true");
	json_print_key("sbat_level", true);
	if (m->sbat_level.present)
		json_print_counted(m->sbat_level.data, m->sbat_level.size);
	else
		printf("null");
	printf("}");
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

/* ---- the command ------------------------------------------------------------------- */

/*
 * The variables, the ESP (and /boot, when given) must be directories that
 * can be read: else nothing can be said. The MokVar table may be absent
 * (no loader installed one).
 */
static int readable_dirs(const struct check_args *a)
{
	const char *dirs[] = { a->efivars, a->mokvars, a->esp, a->boot, a->xbootldr };

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
static int live_defaults(struct check_args *a, char *esp, size_t esp_size, char *xbootldr,
			 size_t xbootldr_size)
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
	a->efivars = LIVE_EFIVARS;
	/* no MokVar table at this boot (no loader installed one): none, not an error */
	if (!a->mokvars && access(LIVE_MOKVARS, F_OK) == 0)
		a->mokvars = LIVE_MOKVARS;
	if (readable_dirs(&(struct check_args){ .efivars = a->efivars }) < 0)
		return -1; /* not booted through UEFI, or efivarfs not mounted */
	if (!a->boot)
		a->boot = "/boot";
	if (a->esp) {
		if (!a->xbootldr && xbootldr_find_live(a->esp, xbootldr, xbootldr_size))
			a->xbootldr = xbootldr;
		return 0;
	}
	/* only as a loader set it at this boot (BS|RT): one an OS wrote is ignored */
	if (efivar_read_var(a->efivars, VAR_LOADER_DEVICE_PART_UUID, NULL, &v) < 0)
		return -1;
	if (v.present && !efivar_ascii(&v, partuuid, sizeof(partuuid)))
		partuuid[0] = '\0';
	snprintf(a->esp_partuuid, sizeof(a->esp_partuuid), "%s", partuuid);
	efivar_free(&v);
	if (esp_find_live(partuuid, esp, esp_size) < 0)
		return -1;
	a->esp = esp;
	if (!a->xbootldr && xbootldr_find_live(esp, xbootldr, xbootldr_size))
		a->xbootldr = xbootldr;
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

/*
 * --pcrlock DIR: the events of the option the next boot ends at, else the
 * first's; an option that cannot be predicted is an error.
 */
static int write_pcrlock(const char *dir, const struct answer *answer)
{
	const struct chain *first = answer->next < answer->n ? &answer->chains[answer->next] :
				    answer->n                ? &answer->chains[0] :
							       NULL;

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

/* The CAs of KEK and db (ca_names.h), as text or the "cas" object: which first stage each allows. */
static int print_cas(const struct machine_state *m, const struct answer *a, bool json)
{
	struct ca_dependent *dependents = calloc(a->n ? a->n : 1, sizeof(*dependents));
	size_t n = 0;
	int r = -1;

	if (!dependents) {
		say_error("out of memory");
		return -1;
	}
	/* the firmware's verdict on each option's first stage, when db allowed it */
	for (size_t i = 0; i < a->n; i++) {
		const struct chain *c = &a->chains[i];

		if (c->n_steps && c->steps[0].allowed && strcmp(c->steps[0].list, "db") == 0)
			dependents[n++] = (struct ca_dependent){ c->steps[0].entry, c->option,
								 c->steps[0].image };
	}
	if (json) {
		json_print_key("cas", true);
		printf("{");
		json_print_key("kek", false);
		printf("[");
	}
	if (ca_names_print(variables[VAR_KEK].name, m->kek.data, m->kek.size, NULL, 0, json) < 0)
		goto out;
	if (json) {
		printf("], ");
		json_print_key("db", false);
		printf("[");
	}
	if (ca_names_print(variables[VAR_DB].name, m->db.data, m->db.size, dependents, n, json) < 0)
		goto out;
	if (json)
		printf("]}");
	r = 0;
out:
	free(dependents);
	return r;
}

int cmd_check(int argc, char **argv)
{
	struct check_args args = { 0 };
	struct machine_state today = { 0 }, after = { 0 };
	struct answer before = { 0 }, answer = { 0 };
	struct option *options = calloc(MAX_OPTIONS, sizeof(*options));
	struct chain_files files = { 0 };
	const struct answer *final;
	const struct machine_state *final_state;
	struct pcr_bank firmware;
	uint8_t first_stage[32];
	char esp[4096], xbootldr[4096];
	int log, parsed;
	long n = 0;
	int r = EXIT_USAGE;

	if (!options)
		return EXIT_USAGE;
	parsed = check_args_parse(argc, argv, &args);
	if (parsed) {
		free(options);
		return parsed > 0 ? EXIT_SUCCESS : EXIT_USAGE;
	}
	if (live_defaults(&args, esp, sizeof(esp), xbootldr, sizeof(xbootldr)) < 0 ||
	    machine_state_read(args.efivars, args.mokvars, &today) < 0)
		goto out;
	log = load_event_log(&args, &firmware, first_stage);
	if (log < 0)
		goto out;
	files = (struct chain_files){ args.esp,
				      args.boot,
				      args.xbootldr,
				      image_cache_new(),
				      log ? &firmware : NULL,
				      log ? first_stage : NULL };
	if (!files.cache || (n = read_options(&args, options)) < 0)
		goto out;
	if (answer_machine(&files, &today, options, (size_t)n, &before) < 0)
		goto out;
	final = &before;
	final_state = &today;
	if (what_if_given(&args.what_if)) {
		if (machine_state_dup(&after, &today) < 0 ||
		    what_if_apply(&args.what_if, &after) < 0 ||
		    answer_machine(&files, &after, options, (size_t)n, &answer) < 0)
			goto out;
		final = &answer;
		final_state = &after;
	}
	if (args.pcrlock && write_pcrlock(args.pcrlock, final) < 0)
		goto out;
	if (args.json) {
		printf("{");
		json_print_header();
		print_next_boot(final, true);
		print_machine_json(final_state);
		if (what_if_given(&args.what_if)) {
			json_print_key("changes", true);
			printf("[");
			print_changes(&before, &answer, true);
			printf("]");
		}
		json_print_key("entries", true);
		printf("[");
		for (size_t i = 0; i < final->n; i++) {
			printf("%s", i ? ", " : "");
			print_chain_json(&final->chains[i], &options[i]);
		}
		printf("], ");
		json_print_key("pending", false);
		printf("[");
		if (mok_pending_print(args.efivars, true) < 0)
			goto out;
		printf("]");
		if (what_if_given(&args.what_if))
			what_if_store_print(&today, &after, true);
		if (print_cas(final_state, final, true) < 0 ||
		    dbx_warnings_print(&files, final->chains, final->n, &today, final_state,
				       &args.what_if, true) < 0)
			goto out;
		printf("}\n");
	} else {
		if (what_if_given(&args.what_if)) {
			print_changes(&before, &answer, false);
			what_if_store_print(&today, &after, false);
		}
		for (size_t i = 0; i < final->n; i++)
			print_chain_text(&final->chains[i], &options[i]);
		print_next_boot(final, false);
		if (mok_pending_print(args.efivars, false) < 0 ||
		    print_cas(final_state, final, false) < 0 ||
		    dbx_warnings_print(&files, final->chains, final->n, &today, final_state,
				       &args.what_if, false) < 0)
			goto out;
	}
	r = final->result == BOOT_RESULT_BOOTS         ? EXIT_SUCCESS :
	    final->result == BOOT_RESULT_WILL_NOT_BOOT ? EXIT_REFUSED :
							 EXIT_CANNOT_TELL;
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
