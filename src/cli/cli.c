// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * build/lockshim: the verification core on the host, so that "would this
 * kernel boot?" can be answered without rebooting.
 *
 *   lockshim verify [--db F]... [--dbx F]... [--mok F]... [--mokx F]...
 *                   [--vendor-cert F]... [--vendor-dbx F]...
 *                   [--efivars DIR [--mok-variables DIR]]
 *                   [--sbat-level LEVEL | --no-sbat] [--shim-lock]
 *                   [--json | --record | -q] IMAGE
 *   lockshim verify --as-firmware [--db F]... [--dbx F]... [--efivars DIR]
 *                   [--json | --record | -q] IMAGE
 *   lockshim pcr --predict [--event-log LOG] [--db F]... [--dbx F]... [--mok F]...
 *                   [--mokx F]... [--vendor-cert F] [--vendor-dbx F]...
 *                   [--sbat-level LEVEL] [--mok-sb-state] [--mok-list-trusted]
 *                   [--json] {IMAGE | --shim-lock IMAGE}...
 *   lockshim hash [--alg sha1|sha224|sha256|sha384|sha512] IMAGE
 *   lockshim esl FILE
 *   lockshim add-sbat CSV IMAGE OUT
 *   lockshim check ...              (check.c: will this machine still boot?)
 *   lockshim status ...             (status.c: what lockshim decided this boot)
 *   lockshim SUBCOMMAND --help      that subcommand's usage, on stdout
 *
 * F is an EFI signature list or a DER/PEM certificate. LEVEL is a file of
 * SbatLevel text, or "windows" for what Windows writes (sbat_level_arg.h); without it, verify applies the automatic level built into lockshim
 * (what a machine holds right after lockshim's first boot); --no-sbat checks
 * signatures and lists only, as if the image carried no SBAT requirement.
 * --shim-lock decides as for a second stage asking through the SHIM_LOCK
 * protocol (GRUB's `linux`, systemd-boot's entries): .sbat checked only when
 * present. --json prints the verdict as a JSON object, its code as "reason";
 * --record prints its record line (src/core/verdict_reason.h), the form the
 * firmware prints after its sentence: verdict=refused image=IMAGE
 * reason=not-signed; -q prints nothing, the exit status answers.
 * --efivars DIR takes db, dbx, MokListRT, MokListXRT and SbatLevelRT from
 * an efivarfs directory (verify_machine.h), on top of any list option;
 * with no list option at all, from the running system's.
 * verify --as-firmware decides as the firmware itself does when it starts
 * IMAGE (firmware_verdict.h: EDK2's rules, db and dbx only, nested
 * signatures unseen) and names the signature it goes by.
 * pcr --predict prints the SHA-256 PCR 4, 7 and 14 values a Secure Boot
 * with that state (the MOK lists as the variables hold them, the vendor
 * certificate and dbx lockshim was built with, SbatLevel) gives when
 * lockshim starts each IMAGE in turn, from the events lockshim measures
 * (measure.c); with LOG (the firmware's event log of this machine,
 * /sys/kernel/security/tpm0/binary_bios_measurements) on top of what the
 * firmware measured up to lockshim itself, else from zero. --shim-lock
 * IMAGE: an image a second stage asks about through SHIM_LOCK's Verify (once
 * per call: Debian's GRUB asks twice for a kernel), measured even when
 * refused, as shim measures it before deciding. --mok-sb-state:
 * MokSBState is 1 (validation off: images unverified, no PCR 7 authority);
 * --mok-list-trusted: the MokListTrusted variable exists; --json: the
 * images' verdicts and the PCRs as one JSON document (docs/json.md).
 * hash prints IMAGE's Authenticode digest, SHA-256 unless --alg names
 * another (a dbx entry of that type). esl lists the entries of FILE, those
 * of lists of a type lockshim does not know with that type's GUID.
 * add-sbat writes IMAGE with CSV as its .sbat section to OUT. Exit status:
 * 0 allowed (or done), 1 refused (or rejected), 2 unusable arguments or
 * files. Options are parsed by getopt_long (cli_args.h): --opt=value or
 * --opt value, in any order before, among or after the operands.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "check.h"
#include "check_args.h"
#include "cli_args.h"
#include "file.h"
#include "firmware_verdict.h"
#include "install.h"
#include "json.h"
#include "macro.h"
#include "measure.h"
#include "pe.h"
#include "pe_add_section.h"
#include "policy_args.h"
#include "sbat.h"
#include "sbat_data.h"
#include "sbat_level.h"
#include "sbat_level_arg.h"
#include "signature_list.h"
#include "status.h"
#include "tcg_log.h"
#include "variable_data.h"
#include "verdict_reason.h"
#include "verify.h"
#include "verify_machine.h"

#define EXIT_REFUSED 1
#define EXIT_USAGE   2

const char program_name[] = "lockshim";

/* Each subcommand's usage, after "usage: lockshim ". */
static const char verify_usage[] =
	"verify [--db F]... [--dbx F]... [--mok F]... [--mokx F]...\n"
	"                [--vendor-cert F]... [--vendor-dbx F]...\n"
	"                [--efivars DIR [--mok-variables DIR]]\n"
	"                [--sbat-level LEVEL | --no-sbat] [--shim-lock]\n"
	"                [--json | --record | -q | --quiet] IMAGE\n"
	"       lockshim verify --as-firmware [--db F]... [--dbx F]... [--efivars DIR]\n"
	"                [--json | --record | -q | --quiet] IMAGE\n";
static const char pcr_usage[] =
	"pcr --predict [--event-log LOG] [--db F]... [--dbx F]... [--mok F]...\n"
	"                [--mokx F]... [--vendor-cert F] [--vendor-dbx F]...\n"
	"                [--sbat-level LEVEL] [--mok-sb-state] [--mok-list-trusted]\n"
	"                [--json] {IMAGE | --shim-lock IMAGE}...\n";
static const char hash_usage[] = "hash [--alg sha1|sha224|sha256|sha384|sha512] IMAGE\n";
static const char esl_usage[] = "esl FILE (signature lists, an efivarfs file, a .auth)\n";
static const char add_sbat_usage[] = "add-sbat CSV IMAGE OUT\n";

static int cmd_verify(int argc, char **argv);
static int cmd_pcr(int argc, char **argv);
static int cmd_hash(int argc, char **argv);
static int cmd_esl(int argc, char **argv);
static int cmd_add_sbat(int argc, char **argv);

static const struct command {
	const char *name;
	const char *usage;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "verify", verify_usage, cmd_verify },
	{ "pcr", pcr_usage, cmd_pcr },
	{ "check", check_usage, cmd_check },
	{ "status", status_usage, cmd_status },
	{ "install", install_usage, cmd_install },
	{ "hash", hash_usage, cmd_hash },
	{ "esl", esl_usage, cmd_esl },
	{ "add-sbat", add_sbat_usage, cmd_add_sbat },
};

/* Every subcommand's usage on @f. */
static void print_usage(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "%s lockshim %s", i ? "      " : "usage:", commands[i].usage);
	fputs(cli_list_file_note, f);
}

static int usage(void)
{
	json_error_usage();
	print_usage(stderr);
	return EXIT_USAGE;
}

static void print_verdict_json(const char *image, const struct verdict *v)
{
	printf("{");
	json_print_header();
	json_print_key("image", true);
	json_print_string(image);
	json_print_verdict(v->allowed ? "allowed" : "refused", verdict_reason_name(v->reason),
			   v->list, v->entry, v->message);
	printf("}\n");
}

/* The getopt codes of the options besides the lists (policy_args.h). */
enum {
	OPT_JSON = POLICY_OPT_END,
	OPT_RECORD,
	OPT_SHIM_LOCK,
	OPT_AS_FIRMWARE,
	OPT_SBAT_LEVEL,
	OPT_NO_SBAT,
	OPT_EFIVARS,
	OPT_MOK_VARIABLES,
	OPT_PREDICT,
	OPT_EVENT_LOG,
	OPT_MOK_SB_STATE,
	OPT_MOK_LIST_TRUSTED,
	OPT_ALG,
};

/* What `lockshim verify` was asked; the trust lists go straight into the policy. */
struct verify_args {
	struct verify_policy policy;
	const char *image_path;
	const char *level_path;        /* --sbat-level; NULL for the built-in level */
	const char *efivars, *mokvars; /* --efivars, --mok-variables: a machine's lists */
	bool lists_given;              /* a list option: no live default */
	bool no_sbat;
	bool json, record, quiet;
	bool as_firmware;            /* --as-firmware: the firmware's verdict, db and dbx only */
	enum verify_request request; /* --shim-lock: VERIFY_FOR_LOADER */
};

static int take_verify_arg(int code, const char *arg, void *ctx);

static const struct option verify_options[] = {
	POLICY_LIST_OPTIONS,
	{ "json", no_argument, NULL, OPT_JSON },
	{ "record", no_argument, NULL, OPT_RECORD },
	{ "shim-lock", no_argument, NULL, OPT_SHIM_LOCK },
	{ "as-firmware", no_argument, NULL, OPT_AS_FIRMWARE },
	{ "sbat-level", required_argument, NULL, OPT_SBAT_LEVEL },
	{ "no-sbat", no_argument, NULL, OPT_NO_SBAT },
	{ "efivars", required_argument, NULL, OPT_EFIVARS },
	{ "mok-variables", required_argument, NULL, OPT_MOK_VARIABLES },
	CLI_OPTION_QUIET,
	CLI_OPTION_HELP,
	{},
};

static const struct cli_command verify_command = {
	"verify", verify_usage, verify_options, "hq", take_verify_arg,
};

/* One of verify's options or its IMAGE; each list file goes into the policy as it comes. */
static int take_verify_arg(int code, const char *arg, void *ctx)
{
	struct verify_args *a = ctx;
	struct sig_db *db = policy_list_for(&a->policy, code);

	if (db) {
		a->lists_given = true;
		return policy_add_list_file(&a->policy, db, arg) < 0 ? CLI_FAILED : 0;
	}
	switch (code) {
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_RECORD:
		a->record = true;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_SHIM_LOCK:
		a->request = VERIFY_FOR_LOADER;
		return 0;
	case OPT_AS_FIRMWARE:
		a->as_firmware = true;
		return 0;
	case OPT_SBAT_LEVEL:
		return cli_take_once(&verify_command, code, &a->level_path, arg);
	case OPT_NO_SBAT:
		a->no_sbat = true;
		return 0;
	case OPT_EFIVARS:
		return cli_take_once(&verify_command, code, &a->efivars, arg);
	case OPT_MOK_VARIABLES:
		return cli_take_once(&verify_command, code, &a->mokvars, arg);
	case CLI_OPERAND:
		return cli_take_once(&verify_command, code, &a->image_path, arg);
	}
	return cli_usage_error(&verify_command, "option code %d unexpected", code);
}

/*
 * Parse verify's arguments into @args, adding each list file to the policy
 * as its option comes. Returns CLI_PARSED, or how parsing stopped (the
 * usage, or why a file was refused, said).
 */
static enum cli_parsed parse_verify_args(int argc, char **argv, struct verify_args *args)
{
	const struct cli_command *c = &verify_command;
	enum cli_parsed parsed = cli_parse(c, argc, argv, args);

	if (parsed != CLI_PARSED)
		return parsed;
	if ((!args->image_path && cli_usage_error(c, "no IMAGE")) ||
	    (args->json + args->record + args->quiet > 1 &&
	     cli_usage_error(c, "one of --json, --record and -q")) ||
	    (args->level_path && args->no_sbat &&
	     cli_usage_error(c, "--sbat-level or --no-sbat, not both")) ||
	    (args->mokvars && !args->efivars && args->lists_given &&
	     cli_usage_error(c, "--mok-variables goes with --efivars")))
		return CLI_STOP;
	/* the firmware knows no MOK, vendor list or SBAT */
	if (args->as_firmware &&
	    (args->request != VERIFY_TO_START || args->level_path || args->no_sbat ||
	     args->mokvars || !sig_db_is_empty(&args->policy.vendor) ||
	     !sig_db_is_empty(&args->policy.vendor_dbx) || !sig_db_is_empty(&args->policy.mok) ||
	     !sig_db_is_empty(&args->policy.mokx))) {
		cli_usage_error(c, "--as-firmware takes only --db, --dbx, --efivars and --json, "
				   "--record or -q");
		return CLI_STOP;
	}
	return CLI_PARSED;
}

/*
 * With no list option, the running system's lists, as sbctl verify and
 * mokutil --test-key take them: its efivarfs and MokVar table. Returns 0,
 * or -1 having said why there are none.
 */
static int live_lists(struct verify_args *args)
{
	if (args->efivars || args->lists_given)
		return 0;
	if (access(LIVE_EFIVARS, F_OK) != 0) {
		say_error("verify: no list given (--db, --dbx, --mok, --mokx, --vendor-cert, "
			  "--vendor-dbx or --efivars DIR), and no running system's: %s: %s (not "
			  "booted through UEFI, or efivarfs not mounted)",
			  LIVE_EFIVARS, strerror(errno));
		return -1;
	}
	args->efivars = LIVE_EFIVARS;
	/* no MokVar table at this boot (no loader installed one): none, not an error */
	if (!args->mokvars && access(LIVE_MOKVARS, F_OK) == 0)
		args->mokvars = LIVE_MOKVARS;
	return 0;
}

/*
 * The SBAT level verify applies: the SbatLevel text in the file at @path,
 * read into *@text for @level to point into, or without a file the
 * automatic level built into lockshim. Returns 0, or -1 having said why.
 */
static int load_sbat_level(const char *path, struct sbat *level, uint8_t **text)
{
	struct sbat_levels embedded;
	struct reason_buf why_buf;
	const char *why;
	size_t size;

	if (path) {
		if (sbat_level_arg_read(path, text, &size) < 0)
			return -1;
		if (sbat_parse(*text, size, SBAT_LEVEL, level, &why, &why_buf) < 0) {
			say_error("%s: not a usable SbatLevel: %s", path, why);
			return -1;
		}
		return 0;
	}
	if (sbat_levels_parse(lockshim_sbat_level,
			      (size_t)(lockshim_sbat_level_end - lockshim_sbat_level), &embedded,
			      &why, &why_buf) < 0) {
		say_error("built-in SBAT level: %s", why);
		return -1;
	}
	*level = embedded.automatic;
	return 0;
}

/* @v for `verify`: a JSON object, its record line, or a sentence. */
static void print_verdict(const struct verify_args *args, const struct verdict *v)
{
	if (args->json) {
		print_verdict_json(args->image_path, v);
	} else if (args->record) {
		char record[VERDICT_RECORD_SIZE];

		verdict_record(record, sizeof(record), v->allowed ? "allowed" : "refused",
			       args->image_path, v->reason, v->list, v->entry);
		printf("%s\n", record);
	} else {
		printf("%s: %s: %s\n", v->allowed ? "allowed" : "refused", args->image_path,
		       v->message);
	}
}

/* `verify --as-firmware`: the firmware's verdict on the image of @size bytes at @image. */
static int verify_as_firmware(const struct verify_args *args, const uint8_t *image, size_t size)
{
	struct firmware_verdict fv;

	firmware_verify_image(image, size, &args->policy.db, &args->policy.dbx, &fv);
	print_verdict(args, &fv.verdict);
	return fv.verdict.allowed ? EXIT_SUCCESS : EXIT_REFUSED;
}

static int cmd_verify(int argc, char **argv)
{
	struct verify_args args = { .request = VERIFY_TO_START };
	struct verify_machine machine = { 0 };
	struct verdict verdict;
	struct sbat level;
	uint8_t *image, *level_text = NULL;
	enum cli_parsed parsed;
	size_t size;
	int r = EXIT_USAGE, from_machine = 0;

	verify_policy_init(&args.policy);
	parsed = parse_verify_args(argc, argv, &args);
	if (parsed != CLI_PARSED) {
		r = parsed == CLI_HELP_SHOWN ? EXIT_SUCCESS : EXIT_USAGE;
		goto out;
	}
	if (live_lists(&args) < 0 || (args.quiet && cli_quiet() < 0))
		goto out;
	if (args.efivars) {
		machine.efivars = args.efivars;
		machine.mokvars = args.mokvars;
		machine.say = !args.json && !args.record;
		if (verify_machine_lists(&machine, args.as_firmware, &args.policy) < 0)
			goto out;
	}
	if (!args.no_sbat && !args.as_firmware) {
		if (args.efivars)
			from_machine =
				verify_machine_level(&machine, args.level_path, false, &level);
		if (from_machine < 0 ||
		    (!from_machine && load_sbat_level(args.level_path, &level, &level_text) < 0))
			goto out;
		args.policy.sbat_level = &level;
	} else if (args.efivars && !args.as_firmware) {
		verify_machine_level(&machine, NULL, true, &level);
	}
	if (read_file(args.image_path, &image, &size) < 0)
		goto out;

	if (args.as_firmware) {
		r = verify_as_firmware(&args, image, size);
		free(image);
		goto out;
	}
	verify_image(image, size, &args.policy, args.request, &verdict);
	free(image);
	print_verdict(&args, &verdict);
	r = verdict.allowed ? EXIT_SUCCESS : EXIT_REFUSED;
out:
	free(level_text);
	verify_machine_free(&machine);
	verify_policy_free(&args.policy);
	return r;
}

/* What `lockshim pcr --predict` was asked. */
struct predict_args {
	struct verify_policy policy;
	struct mok_state_data state;
	uint8_t *mok_list, *mok_list_x, *vendor_dbx; /* OPENSSL_malloc'd */
	const char *log_path;
	const char *level_path;
	bool predict;
	uint8_t mok_sb_state;
	/* in boot order: what lockshim starts, and what a second stage asks about */
	struct predict_image {
		const char *path;
		enum verify_request request;
		bool decided; /* @verdict is set: the image was read */
		struct verdict verdict;
	} * images; /* argc of them at most */
	int n_images;
	bool json;
};

/* The raw bytes a list option stands for in the MOK state (NULL: only the policy needs it). */
static int predict_state_bytes(struct predict_args *args, int code, const char *path)
{
	switch (code) {
	case POLICY_OPT_MOK:
		return policy_list_file_bytes(path, &args->mok_list, &args->state.mok_list_size);
	case POLICY_OPT_MOKX:
		return policy_list_file_bytes(path, &args->mok_list_x,
					      &args->state.mok_list_x_size);
	case POLICY_OPT_VENDOR_DBX:
		return policy_list_file_bytes(path, &args->vendor_dbx,
					      &args->state.vendor_dbx_size);
	}
	return 0;
}

static int take_predict_arg(int code, const char *arg, void *ctx);

static const struct option pcr_options[] = {
	POLICY_LIST_OPTIONS,
	{ "predict", no_argument, NULL, OPT_PREDICT },
	{ "event-log", required_argument, NULL, OPT_EVENT_LOG },
	{ "sbat-level", required_argument, NULL, OPT_SBAT_LEVEL },
	{ "mok-sb-state", no_argument, NULL, OPT_MOK_SB_STATE },
	{ "mok-list-trusted", no_argument, NULL, OPT_MOK_LIST_TRUSTED },
	{ "shim-lock", required_argument, NULL, OPT_SHIM_LOCK },
	{ "json", no_argument, NULL, OPT_JSON },
	CLI_OPTION_HELP,
	{},
};

static const struct cli_command pcr_command = {
	"pcr", pcr_usage, pcr_options, "h", take_predict_arg,
};

/* One of pcr's options or an IMAGE, the images in boot order with the --shim-lock ones. */
static int take_predict_arg(int code, const char *arg, void *ctx)
{
	struct predict_args *a = ctx;
	struct sig_db *db = policy_list_for(&a->policy, code);

	if (db) {
		if (db == &a->policy.vendor && sk_X509_num(db->certs) > 0)
			return cli_usage_error(&pcr_command,
					       "one --vendor-cert: lockshim embeds one");
		return policy_add_list_file(&a->policy, db, arg) < 0 ||
				       predict_state_bytes(a, code, arg) < 0 ?
			       CLI_FAILED :
			       0;
	}
	switch (code) {
	case OPT_PREDICT:
		a->predict = true;
		return 0;
	case OPT_EVENT_LOG:
		a->log_path = arg;
		return 0;
	case OPT_SBAT_LEVEL:
		a->level_path = arg;
		return 0;
	case OPT_MOK_SB_STATE:
		a->mok_sb_state = 1;
		return 0;
	case OPT_MOK_LIST_TRUSTED:
		a->state.mok_list_trusted = true;
		return 0;
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_SHIM_LOCK:
		a->images[a->n_images++] =
			(struct predict_image){ .path = arg, .request = VERIFY_FOR_LOADER };
		return 0;
	case CLI_OPERAND:
		a->images[a->n_images++] =
			(struct predict_image){ .path = arg, .request = VERIFY_TO_START };
		return 0;
	}
	return cli_usage_error(&pcr_command, "option code %d unexpected", code);
}

static enum cli_parsed parse_predict_args(int argc, char **argv, struct predict_args *args)
{
	const struct cli_command *c = &pcr_command;
	enum cli_parsed parsed = cli_parse(c, argc, argv, args);

	if (parsed != CLI_PARSED)
		return parsed;
	if ((!args->predict && cli_usage_error(c, "--predict is what pcr does: give it")) ||
	    (!args->n_images && cli_usage_error(c, "no IMAGE")))
		return CLI_STOP;
	return CLI_PARSED;
}

/*
 * One image as the loader decides on it. One lockshim starts is refused
 * (the boot stops there), or measured as the loader does. One a second
 * stage asks about through SHIM_LOCK is measured into PCR 4 before it is
 * decided, as shim 16.1's Verify does: a refusal is said and the prediction
 * goes on, as the second stage does.
 */
static int predict_image(struct measurer *m, const struct verify_policy *policy, bool enforcing,
			 struct predict_image *which)
{
	bool shim_lock = which->request == VERIFY_FOR_LOADER, refused;
	const char *path = which->path;
	struct verdict verdict;
	uint8_t *image;
	size_t size;
	int r = 0;

	if (read_file(path, &image, &size) < 0)
		return EXIT_USAGE;
	verify_image(image, size, policy, which->request, &verdict);
	which->verdict = verdict;
	which->decided = true;
	refused = enforcing && !verdict.allowed;
	if (refused)
		say_error("%s would be refused: %s", path, verdict.message);
	if (((shim_lock || !refused) && measure_image(m, image, size, 0, NULL, 0) < 0) ||
	    (!refused && enforcing && measure_authority(m, policy, &verdict) < 0)) {
		say_error("%s: cannot measure", path);
		r = EXIT_USAGE;
	} else if (refused && !shim_lock) {
		r = EXIT_REFUSED;
	}
	free(image);
	return r;
}

static void print_pcr(const struct pcr_bank *bank, int pcr)
{
	printf("%d ", pcr);
	for (int i = 0; i < 32; i++)
		printf("%02x", bank->pcr[pcr][i]);
	printf("\n");
}

/*
 * pcr --predict --json: each image read and its verdict (in boot order, up
 * to the one refused), and the PCRs, null when @predicted is false (an
 * image lockshim starts is refused: the boot stops there).
 */
static void print_predict_json(const struct predict_args *args, const struct pcr_bank *bank,
			       bool predicted)
{
	static const int pcrs[] = { PCR_BOOT_APPLICATIONS, PCR_SECURE_BOOT_POLICY, PCR_MOK };

	printf("{");
	json_print_header();
	json_print_key("images", true);
	printf("[");
	for (int i = 0; i < args->n_images && args->images[i].decided; i++) {
		const struct predict_image *p = &args->images[i];
		const struct verdict *v = &p->verdict;

		printf("%s{", i ? ", " : "");
		json_print_key("image", false);
		json_print_string(p->path);
		json_print_key("request", true);
		json_print_string(p->request == VERIFY_FOR_LOADER ? "shim-lock" : "start");
		json_print_verdict(v->allowed ? "allowed" : "refused",
				   verdict_reason_name(v->reason), v->list, v->entry, v->message);
		printf("}");
	}
	printf("]");
	json_print_key("pcrs", true);
	if (!predicted) {
		printf("null}\n");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(pcrs); i++) {
		printf(i ? ", \"%d\": \"" : "{\"%d\": \"", pcrs[i]);
		for (int k = 0; k < 32; k++)
			printf("%02x", bank->pcr[pcrs[i]][k]);
		printf("\"");
	}
	printf("}}\n");
}

static int cmd_pcr(int argc, char **argv)
{
	struct predict_args args = {};
	struct pcr_bank bank;
	struct measurer m;
	struct sbat level;
	uint8_t *level_text = NULL, *log = NULL;
	unsigned char *der = NULL;
	const char *reason;
	size_t log_size;
	int r = EXIT_USAGE, der_len;
	enum cli_parsed parsed = CLI_STOP;

	verify_policy_init(&args.policy);
	pcr_bank_reset(&bank);
	measurer_init(&m, pcr_bank_extend_event, &bank);
	args.images = calloc((size_t)argc, sizeof(*args.images));
	if (args.images)
		parsed = parse_predict_args(argc, argv, &args);
	if (parsed == CLI_HELP_SHOWN)
		r = EXIT_SUCCESS;
	if (parsed != CLI_PARSED || load_sbat_level(args.level_path, &level, &level_text) < 0)
		goto out;
	if (args.log_path) {
		if (read_file(args.log_path, &log, &log_size) < 0)
			goto out;
		if (tcg_log_replay_firmware(log, log_size, &bank, &reason) < 0) {
			say_error("%s: %s", args.log_path, reason);
			goto out;
		}
	}
	if (sk_X509_num(args.policy.vendor.certs) > 0 &&
	    (der_len = i2d_X509(sk_X509_value(args.policy.vendor.certs, 0), &der)) > 0) {
		args.state.vendor_cert = der;
		args.state.vendor_cert_size = (size_t)der_len;
	}
	args.state.mok_list = args.mok_list;
	args.state.mok_list_x = args.mok_list_x;
	args.state.vendor_dbx = args.vendor_dbx;
	args.state.sbat_level = (const uint8_t *)level.text;
	args.state.sbat_level_size = level.size;
	if (args.mok_sb_state) {
		args.state.mok_sb_state = &args.mok_sb_state;
		args.state.mok_sb_state_size = 1;
	}
	args.policy.sbat_level = args.mok_sb_state ? NULL : &level;
	if (measure_mok_state(&m, &args.state) < 0) {
		say_error("cannot measure the MOK state");
		goto out;
	}
	for (int i = 0; i < args.n_images; i++) {
		r = predict_image(&m, &args.policy, !args.mok_sb_state, &args.images[i]);
		if (r)
			break;
	}
	if (args.json && r != EXIT_USAGE)
		print_predict_json(&args, &bank, r == EXIT_SUCCESS);
	if (r || args.json)
		goto out;
	print_pcr(&bank, PCR_BOOT_APPLICATIONS);
	print_pcr(&bank, PCR_SECURE_BOOT_POLICY);
	print_pcr(&bank, PCR_MOK);
	r = EXIT_SUCCESS;
out:
	measurer_free(&m);
	OPENSSL_free(der);
	OPENSSL_free(args.mok_list);
	OPENSSL_free(args.mok_list_x);
	OPENSSL_free(args.vendor_dbx);
	free(log);
	free(level_text);
	free(args.images);
	verify_policy_free(&args.policy);
	return r;
}

/* The operands of a subcommand that takes only files (esl, add-sbat, hash), in order. */
struct operands {
	const char *path[4]; /* one more than any takes, to name the extra one */
	int n;
	const char *alg; /* hash --alg */
};

static int take_operand(const struct cli_command *c, struct operands *o, const char *arg)
{
	if (o->n == (int)ARRAY_SIZE(o->path))
		return cli_usage_error(c, "extra operand '%s'", arg);
	o->path[o->n++] = arg;
	return 0;
}

/* The operands of @c, exactly @n of them, into @o: CLI_PARSED, or how parsing stopped (said). */
static enum cli_parsed parse_operands(const struct cli_command *c, int argc, char **argv,
				      struct operands *o, int n)
{
	enum cli_parsed parsed = cli_parse(c, argc, argv, o);

	if (parsed == CLI_PARSED && o->n != n) {
		if (o->n < n)
			cli_usage_error(c, "missing operand");
		else
			cli_usage_error(c, "extra operand '%s'", o->path[n]);
		return CLI_STOP;
	}
	return parsed;
}

static int take_add_sbat_arg(int code, const char *arg, void *ctx);

static const struct option help_only_options[] = { CLI_OPTION_HELP, {} };

static const struct cli_command add_sbat_command = {
	"add-sbat", add_sbat_usage, help_only_options, "h", take_add_sbat_arg,
};

static int take_add_sbat_arg(int code, const char *arg, void *ctx)
{
	(void)code; /* only operands reach here */
	return take_operand(&add_sbat_command, ctx, arg);
}

static int cmd_add_sbat(int argc, char **argv)
{
	uint8_t *csv, *image, *out = NULL;
	size_t csv_size, size, out_size;
	struct operands o = { 0 };
	const char *reason;
	struct sbat sbat;
	struct reason_buf why_buf;
	const char *why;
	enum cli_parsed parsed;
	int r = EXIT_USAGE;

	parsed = parse_operands(&add_sbat_command, argc, argv, &o, 3);
	if (parsed != CLI_PARSED)
		return parsed == CLI_HELP_SHOWN ? EXIT_SUCCESS : EXIT_USAGE;
	if (read_file(o.path[0], &csv, &csv_size) < 0)
		return EXIT_USAGE;
	if (read_file(o.path[1], &image, &size) < 0) {
		free(csv);
		return EXIT_USAGE;
	}
	if (sbat_parse(csv, csv_size, SBAT_SECTION, &sbat, &why, &why_buf) < 0)
		say_error("%s: not a usable .sbat: %s", o.path[0], why);
	else if (pe_add_section(image, size, ".sbat", csv, csv_size, &out, &out_size, &reason) < 0)
		say_error("%s: %s", o.path[1], reason);
	else if (write_file(o.path[2], out, out_size) == 0)
		r = EXIT_SUCCESS;
	free(out);
	free(image);
	free(csv);
	return r;
}

/* The digest --alg names: those image digests deny lists hold. */
static const EVP_MD *hash_algorithm(const char *name)
{
	static const struct {
		const char *name;
		enum esl_type type;
	} algs[] = {
		{ "sha1", ESL_SHA1 },     { "sha224", ESL_SHA224 }, { "sha256", ESL_SHA256 },
		{ "sha384", ESL_SHA384 }, { "sha512", ESL_SHA512 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(algs); i++)
		if (strcmp(name, algs[i].name) == 0)
			return esl_type_md(algs[i].type);
	return NULL;
}

static int take_hash_arg(int code, const char *arg, void *ctx);

static const struct option hash_options[] = {
	{ "alg", required_argument, NULL, OPT_ALG },
	CLI_OPTION_HELP,
	{},
};

static const struct cli_command hash_command = {
	"hash", hash_usage, hash_options, "h", take_hash_arg,
};

static int take_hash_arg(int code, const char *arg, void *ctx)
{
	struct operands *o = ctx;

	if (code != OPT_ALG)
		return take_operand(&hash_command, o, arg);
	if (!hash_algorithm(arg))
		return cli_usage_error(&hash_command,
				       "--alg '%s': one of sha1, sha224, sha256, sha384, sha512",
				       arg);
	o->alg = arg;
	return 0;
}

static int cmd_hash(int argc, char **argv)
{
	uint8_t digest[EVP_MAX_MD_SIZE], *data;
	const EVP_MD *md;
	struct operands o = { 0 };
	struct pe_image *img;
	unsigned int len;
	const char *reason;
	enum cli_parsed parsed;
	size_t size;
	int r = EXIT_REFUSED;

	parsed = parse_operands(&hash_command, argc, argv, &o, 1);
	if (parsed != CLI_PARSED)
		return parsed == CLI_HELP_SHOWN ? EXIT_SUCCESS : EXIT_USAGE;
	md = o.alg ? hash_algorithm(o.alg) : EVP_sha256();
	if (read_file(o.path[0], &data, &size) < 0)
		return EXIT_USAGE;
	img = malloc(sizeof(*img));
	if (img && pe_parse(data, size, img, &reason) == 0 &&
	    pe_authenticode_digest(img, md, digest, &len, &reason) == 0) {
		for (unsigned int i = 0; i < len; i++)
			printf("%02x", digest[i]);
		printf("\n");
		r = EXIT_SUCCESS;
	} else {
		say_error("%s: %s", o.path[0], img ? reason : "out of memory");
	}
	free(img);
	free(data);
	return r;
}

/* "  SHA1 Fingerprint: 12:ab:..." as mokutil --list-enrolled prints a key's. */
static void print_fingerprint(const char *name, const EVP_MD *md, const uint8_t *der, size_t size)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (!EVP_Digest(der, size, digest, &n, md, NULL))
		return;
	printf("  %s Fingerprint: ", name);
	for (unsigned int i = 0; i < n; i++)
		printf("%s%02x", i ? ":" : "", digest[i]);
	printf("\n");
}

/*
 * One line per entry: type, owner, then the certificate's subject or the
 * data in hex; a certificate's SHA-1 and SHA-256 fingerprints below it.
 */
static void print_esl_entry(const struct esl_list *list, const struct esl_entry *e)
{
	char owner[ESL_GUID_TEXT_SIZE], type[ESL_GUID_TEXT_SIZE];

	esl_guid_text(e->owner, owner);
	printf("%-14s %s ", esl_type_name(e->type), owner);
	if (e->type == ESL_X509) {
		char subject[256];

		esl_entry_subject(e, subject, sizeof(subject));
		printf("%s\n", subject);
		print_fingerprint("SHA1", EVP_sha1(), e->data, e->size);
		print_fingerprint("SHA256", EVP_sha256(), e->data, e->size);
		return;
	}
	if (e->type == ESL_UNKNOWN) {
		esl_guid_text(list->guid, type);
		printf("type %s: ", type);
	}
	for (size_t i = 0; i < e->size; i++)
		printf("%02x", e->data[i]);
	printf("\n");
}

static int print_esl_list(const struct esl_list *list, void *ctx)
{
	(void)ctx;
	for (size_t i = 0; i < list->count; i++) {
		struct esl_entry e;

		esl_list_entry(list, i, &e);
		print_esl_entry(list, &e);
	}
	return 0;
}

static int take_esl_arg(int code, const char *arg, void *ctx);

static const struct cli_command esl_command = {
	"esl", esl_usage, help_only_options, "h", take_esl_arg,
};

static int take_esl_arg(int code, const char *arg, void *ctx)
{
	(void)code; /* only operands reach here */
	return take_operand(&esl_command, ctx, arg);
}

static int cmd_esl(int argc, char **argv)
{
	enum list_form form = LIST_FORM_LISTS;
	struct reason_buf why_buf;
	struct operands o = { 0 };
	const uint8_t *lists;
	uint32_t attributes;
	size_t size, lists_size;
	const char *reason;
	enum cli_parsed parsed;
	uint8_t *data;
	int rejected;

	parsed = parse_operands(&esl_command, argc, argv, &o, 1);
	if (parsed != CLI_PARSED)
		return parsed == CLI_HELP_SHOWN ? EXIT_SUCCESS : EXIT_USAGE;
	if (read_file(o.path[0], &data, &size) < 0)
		return EXIT_USAGE;
	/* an efivarfs file or a signed update: its lists, said; else the file as lists */
	if (signature_lists_in(data, size, &form, &lists, &lists_size, &attributes, &reason,
			       &why_buf) < 0 ||
	    form == LIST_FORM_LISTS) {
		lists = data;
		lists_size = size;
	} else if (form == LIST_FORM_EFIVARFS) {
		printf("# an efivarfs file, attributes 0x%" PRIx32 "\n", attributes);
	} else {
		printf("# a signed update (.auth): its payload\n");
	}
	rejected = esl_walk_lists(lists, lists_size, print_esl_list, NULL, &reason);
	free(data);
	if (rejected > 0) {
		printf("rejected: %d signature list(s): %s\n", rejected, reason);
		return EXIT_REFUSED;
	}
	return EXIT_SUCCESS;
}

static bool is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

static const struct command *command_named(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

/* Asked for: @c's usage on stdout, and success. */
static int command_help(const struct command *c)
{
	cli_print_usage(stdout, c->usage);
	return EXIT_SUCCESS;
}

/*
 * What the subcommand printed must have reached its reader: a full disk or
 * a closed pipe is a failure (exit 2), never an answer half written.
 */
static int flushed(int r)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		say_error("cannot write the output: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return r;
}

static int run(int argc, char **argv)
{
	const struct command *c;

	if (argc == 2 && (is_help(argv[1]) || strcmp(argv[1], "help") == 0)) {
		print_usage(stdout);
		return EXIT_SUCCESS;
	}
	if (argc == 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0)) {
		printf("lockshim %s\n", LOCKSHIM_VERSION);
		return EXIT_SUCCESS;
	}
	if (argc == 3 && strcmp(argv[1], "help") == 0) {
		c = command_named(argv[2]);
		if (!c) {
			say_error("help: no subcommand '%s'", argv[2]);
			return usage();
		}
		return command_help(c);
	}
	c = argc >= 2 ? command_named(argv[1]) : NULL;
	if (!c) {
		if (argc >= 2)
			say_error("unknown subcommand '%s'", argv[1]);
		return usage();
	}
	return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	json_output_begin(argc, argv);
	return flushed(json_output_end(run(argc, argv)));
}
