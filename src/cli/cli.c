// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * build/lockshim: the verification core on the host, so that "would this
 * kernel boot?" can be answered without rebooting.
 *
 *   lockshim verify [--db F]... [--dbx F]... [--mok F]... [--mokx F]...
 *                   [--vendor-cert F]... [--vendor-dbx F]...
 *                   [--sbat-level LEVEL | --no-sbat] [--shim-lock] [--json | --record]
 *                   IMAGE
 *   lockshim verify --as-firmware [--db F]... [--dbx F]... [--json | --record] IMAGE
 *   lockshim pcr --predict [--event-log LOG] [--db F]... [--dbx F]... [--mok F]...
 *                   [--mokx F]... [--vendor-cert F] [--vendor-dbx F]...
 *                   [--sbat-level LEVEL] [--mok-sb-state] [--mok-list-trusted]
 *                   {IMAGE | --shim-lock IMAGE}...
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
 * reason=not-signed.
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
 * --mok-list-trusted: the MokListTrusted variable exists.
 * hash prints IMAGE's Authenticode digest, SHA-256 unless --alg names
 * another (a dbx entry of that type). esl lists the entries of FILE, those
 * of lists of a type lockshim does not know with that type's GUID.
 * add-sbat writes IMAGE with CSV as its .sbat section to OUT. Exit status:
 * 0 allowed (or done), 1 refused (or rejected), 2 unusable arguments or
 * files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "check.h"
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

#define EXIT_REFUSED 1
#define EXIT_USAGE   2

const char program_name[] = "lockshim";

/* Each subcommand's usage, after "usage: lockshim ". */
static const char verify_usage[] =
	"verify [--db F]... [--dbx F]... [--mok F]... [--mokx F]...\n"
	"                [--vendor-cert F]... [--vendor-dbx F]...\n"
	"                [--sbat-level LEVEL | --no-sbat] [--shim-lock]\n"
	"                [--json | --record] IMAGE\n"
	"       lockshim verify --as-firmware [--db F]... [--dbx F]... [--json | --record] IMAGE\n";
static const char pcr_usage[] =
	"pcr --predict [--event-log LOG] [--db F]... [--dbx F]... [--mok F]...\n"
	"                [--mokx F]... [--vendor-cert F] [--vendor-dbx F]...\n"
	"                [--sbat-level LEVEL] [--mok-sb-state] [--mok-list-trusted]\n"
	"                {IMAGE | --shim-lock IMAGE}...\n";
static const char hash_usage[] = "hash [--alg sha1|sha224|sha256|sha384|sha512] IMAGE\n";
static const char esl_usage[] = "esl FILE (signature lists, an efivarfs file, a .auth)\n";
static const char add_sbat_usage[] = "add-sbat CSV IMAGE OUT\n";
static const char list_file_note[] =
	"F: an EFI signature list, or a DER or PEM certificate\n"
	"LEVEL: a file of SbatLevel text, or windows (what Windows' servicing writes)\n";

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
	fputs(list_file_note, f);
}

static int usage(void)
{
	print_usage(stderr);
	return EXIT_USAGE;
}

static void print_verdict_json(const char *image, const struct verdict *v)
{
	printf("{\"image\": ");
	json_print_string(image);
	printf(", \"allowed\": %s, \"list\": ", v->allowed ? "true" : "false");
	if (v->list)
		json_print_string(v->list);
	else
		printf("null");
	printf(", \"entry\": ");
	if (v->entry[0])
		json_print_string(v->entry);
	else
		printf("null");
	printf(", \"message\": ");
	json_print_string(v->message);
	/* last, so the fields before keep their order */
	printf(", \"reason\": ");
	json_print_string(verdict_reason_name(v->reason));
	printf("}\n");
}

/* What `lockshim verify` was asked; the trust lists go straight into the policy. */
struct verify_args {
	struct verify_policy policy;
	const char *image_path;
	const char *level_path; /* --sbat-level; NULL for the built-in level */
	bool no_sbat;
	bool json, record;
	bool as_firmware;            /* --as-firmware: the firmware's verdict, db and dbx only */
	enum verify_request request; /* --shim-lock: VERIFY_FOR_LOADER */
};

/*
 * Parse verify's arguments into @args, adding each list file to the policy
 * as its option comes. Returns 0, or -1 having printed the usage or why a
 * file was refused.
 */
static int parse_verify_args(int argc, char **argv, struct verify_args *args)
{
	for (int i = 1; i < argc; i++) {
		struct sig_db *db = policy_list_option(&args->policy, argv[i]);

		if (db) {
			if (i + 1 >= argc) {
				usage();
				return -1;
			}
			if (policy_add_list_file(&args->policy, db, argv[++i]) < 0)
				return -1;
		} else if (strcmp(argv[i], "--json") == 0 && !args->record) {
			args->json = true;
		} else if (strcmp(argv[i], "--record") == 0 && !args->json) {
			args->record = true;
		} else if (strcmp(argv[i], "--shim-lock") == 0) {
			args->request = VERIFY_FOR_LOADER;
		} else if (strcmp(argv[i], "--as-firmware") == 0) {
			args->as_firmware = true;
		} else if (strcmp(argv[i], "--sbat-level") == 0 && i + 1 < argc &&
			   !args->level_path && !args->no_sbat) {
			args->level_path = argv[++i];
		} else if (strcmp(argv[i], "--no-sbat") == 0 && !args->level_path) {
			args->no_sbat = true;
		} else if (argv[i][0] == '-' || args->image_path) {
			usage();
			return -1;
		} else {
			args->image_path = argv[i];
		}
	}
	if (!args->image_path) {
		usage();
		return -1;
	}
	/* the firmware knows no MOK, vendor list or SBAT */
	if (args->as_firmware &&
	    (args->request != VERIFY_TO_START || args->level_path || args->no_sbat ||
	     !sig_db_is_empty(&args->policy.vendor) || !sig_db_is_empty(&args->policy.vendor_dbx) ||
	     !sig_db_is_empty(&args->policy.mok) || !sig_db_is_empty(&args->policy.mokx))) {
		say_error("--as-firmware takes only --db, --dbx and --json or --record");
		usage();
		return -1;
	}
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
	struct verdict verdict;
	struct sbat level;
	uint8_t *image, *level_text = NULL;
	size_t size;
	int r = EXIT_USAGE;

	verify_policy_init(&args.policy);
	if (parse_verify_args(argc, argv, &args) < 0)
		goto out;
	if (!args.no_sbat && !args.as_firmware) {
		if (load_sbat_level(args.level_path, &level, &level_text) < 0)
			goto out;
		args.policy.sbat_level = &level;
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
	uint8_t mok_sb_state;
	/* in boot order: what lockshim starts, and what a second stage asks about */
	struct predict_image {
		const char *path;
		enum verify_request request;
	} * images; /* argc of them at most */
	int n_images;
};

/* The raw bytes a list option stands for in the MOK state (NULL: only the policy needs it). */
static int predict_state_bytes(struct predict_args *args, const char *option, const char *path)
{
	struct {
		const char *option;
		uint8_t **data;
		size_t *size;
	} lists[] = {
		{ "--mok", &args->mok_list, &args->state.mok_list_size },
		{ "--mokx", &args->mok_list_x, &args->state.mok_list_x_size },
		{ "--vendor-dbx", &args->vendor_dbx, &args->state.vendor_dbx_size },
	};

	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++)
		if (strcmp(option, lists[l].option) == 0)
			return policy_list_file_bytes(path, lists[l].data, lists[l].size);
	return 0;
}

static int parse_predict_args(int argc, char **argv, struct predict_args *args)
{
	bool predict = false;

	for (int i = 1; i < argc; i++) {
		struct sig_db *db = policy_list_option(&args->policy, argv[i]);

		if (db && i + 1 < argc) {
			if (db == &args->policy.vendor && sk_X509_num(db->certs) > 0) {
				predict = false; /* lockshim embeds one: a usage error */
				break;
			}
			if (policy_add_list_file(&args->policy, db, argv[i + 1]) < 0 ||
			    predict_state_bytes(args, argv[i], argv[i + 1]) < 0)
				return -1;
			i++;
		} else if (strcmp(argv[i], "--predict") == 0) {
			predict = true;
		} else if (strcmp(argv[i], "--event-log") == 0 && i + 1 < argc) {
			args->log_path = argv[++i];
		} else if (strcmp(argv[i], "--sbat-level") == 0 && i + 1 < argc) {
			args->level_path = argv[++i];
		} else if (strcmp(argv[i], "--mok-sb-state") == 0) {
			args->mok_sb_state = 1;
		} else if (strcmp(argv[i], "--mok-list-trusted") == 0) {
			args->state.mok_list_trusted = true;
		} else if (strcmp(argv[i], "--shim-lock") == 0 && i + 1 < argc) {
			args->images[args->n_images++] =
				(struct predict_image){ argv[++i], VERIFY_FOR_LOADER };
		} else if (argv[i][0] == '-') {
			predict = false; /* a usage error */
			break;
		} else {
			args->images[args->n_images++] =
				(struct predict_image){ argv[i], VERIFY_TO_START };
		}
	}
	if (!predict || !args->n_images) {
		usage();
		return -1;
	}
	return 0;
}

/*
 * One image as the loader decides on it. One lockshim starts is refused
 * (the boot stops there), or measured as the loader does. One a second
 * stage asks about through SHIM_LOCK is measured into PCR 4 before it is
 * decided, as shim 16.1's Verify does: a refusal is said and the prediction
 * goes on, as the second stage does.
 */
static int predict_image(struct measurer *m, const struct verify_policy *policy, bool enforcing,
			 const struct predict_image *which)
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

	verify_policy_init(&args.policy);
	pcr_bank_reset(&bank);
	measurer_init(&m, pcr_bank_extend_event, &bank);
	args.images = calloc((size_t)argc, sizeof(*args.images));
	if (!args.images || parse_predict_args(argc, argv, &args) < 0 ||
	    load_sbat_level(args.level_path, &level, &level_text) < 0)
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
			goto out;
	}
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

static int cmd_add_sbat(int argc, char **argv)
{
	uint8_t *csv, *image, *out = NULL;
	size_t csv_size, size, out_size;
	const char *reason;
	struct sbat sbat;
	struct reason_buf why_buf;
	const char *why;
	int r = EXIT_USAGE;

	if (argc != 4)
		return usage();
	if (read_file(argv[1], &csv, &csv_size) < 0)
		return EXIT_USAGE;
	if (read_file(argv[2], &image, &size) < 0) {
		free(csv);
		return EXIT_USAGE;
	}
	if (sbat_parse(csv, csv_size, SBAT_SECTION, &sbat, &why, &why_buf) < 0)
		say_error("%s: not a usable .sbat: %s", argv[1], why);
	else if (pe_add_section(image, size, ".sbat", csv, csv_size, &out, &out_size, &reason) < 0)
		say_error("%s: %s", argv[2], reason);
	else if (write_file(argv[3], out, out_size) == 0)
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

static int cmd_hash(int argc, char **argv)
{
	uint8_t digest[EVP_MAX_MD_SIZE], *data;
	const EVP_MD *md = EVP_sha256();
	struct pe_image *img;
	unsigned int len;
	const char *reason;
	size_t size;
	int r = EXIT_REFUSED;

	if (argc == 4 && strcmp(argv[1], "--alg") == 0) {
		md = hash_algorithm(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc != 2 || !md)
		return usage();
	if (read_file(argv[1], &data, &size) < 0)
		return EXIT_USAGE;
	img = malloc(sizeof(*img));
	if (img && pe_parse(data, size, img, &reason) == 0 &&
	    pe_authenticode_digest(img, md, digest, &len, &reason) == 0) {
		for (unsigned int i = 0; i < len; i++)
			printf("%02x", digest[i]);
		printf("\n");
		r = EXIT_SUCCESS;
	} else {
		say_error("%s: %s", argv[1], img ? reason : "out of memory");
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
		const unsigned char *p = e->data;
		X509 *cert = d2i_X509(NULL, &p, (long)e->size);
		char subject[256] = "(undecodable)";

		if (cert)
			X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof(subject));
		printf("%s\n", subject);
		X509_free(cert);
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

static int cmd_esl(int argc, char **argv)
{
	enum list_form form = LIST_FORM_LISTS;
	struct reason_buf why_buf;
	const uint8_t *lists;
	uint32_t attributes;
	size_t size, lists_size;
	const char *reason;
	uint8_t *data;
	int rejected;

	if (argc != 2)
		return usage();
	if (read_file(argv[1], &data, &size) < 0)
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
	printf("usage: lockshim %s", c->usage);
	if (strstr(c->usage, " F]") || strstr(c->usage, " LEVEL"))
		fputs(list_file_note, stdout);
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
	if (argc == 3 && is_help(argv[2]))
		return command_help(c);
	return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return flushed(run(argc, argv));
}
