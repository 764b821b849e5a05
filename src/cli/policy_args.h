/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The trust-list options that `lockshim verify` and the benchmark share:
 * --db, --dbx, --mok, --mokx, --vendor-cert and --vendor-dbx, each naming a
 * DER or PEM certificate or an EFI signature list to add to that list of
 * the policy.
 */
#ifndef LOCKSHIM_POLICY_ARGS_H
#define LOCKSHIM_POLICY_ARGS_H

#include <getopt.h>

#include "verify.h"

/* Their getopt codes, above any character. */
enum {
	POLICY_OPT_DB = 0x100,
	POLICY_OPT_DBX,
	POLICY_OPT_MOK,
	POLICY_OPT_MOKX,
	POLICY_OPT_VENDOR_CERT,
	POLICY_OPT_VENDOR_DBX,
	POLICY_OPT_END, /* a subcommand's own codes from here */
};

/* The options, for a getopt_long table (each takes a file). */
#define POLICY_LIST_OPTIONS                                                         \
	{ "db", required_argument, NULL, POLICY_OPT_DB },                           \
		{ "dbx", required_argument, NULL, POLICY_OPT_DBX },                 \
		{ "mok", required_argument, NULL, POLICY_OPT_MOK },                 \
		{ "mokx", required_argument, NULL, POLICY_OPT_MOKX },               \
		{ "vendor-cert", required_argument, NULL, POLICY_OPT_VENDOR_CERT }, \
	{                                                                           \
		"vendor-dbx", required_argument, NULL, POLICY_OPT_VENDOR_DBX        \
	}

/* The list of @policy that the option of getopt code @code fills; NULL when none. */
struct sig_db *policy_list_for(struct verify_policy *policy, int code);

/* The list of @policy that the option @arg ("--db") fills; NULL when @arg is not one of them. */
struct sig_db *policy_list_option(struct verify_policy *policy, const char *arg);

/*
 * Add the certificate or signature-list file at @path to @db, a list of
 * @policy. Rejected lists beside usable entries are reported on stderr and
 * skipped, and, as in the loader, make @policy unusable when @db is a deny
 * list (verify_policy_list_loaded). Returns 0, or -1 having said why.
 */
int policy_add_list_file(struct verify_policy *policy, struct sig_db *db, const char *path);

/*
 * The list file at @path as a signature-list variable would hold it,
 * appended to the OPENSSL_malloc'd buffer *@esl of *@size bytes: a signature list
 * as it is, a certificate as one X509 list owned by shim's GUID (as mokutil
 * enrolls it). Returns 0, or -1 having said why.
 */
int policy_list_file_bytes(const char *path, uint8_t **esl, size_t *size);

/*
 * The certificate file at @path (DER or PEM, what mokutil --import and
 * --delete take) as policy_list_file_bytes makes of it; anything else is
 * refused ("not a certificate"). Returns 0, or -1 having said why.
 */
int policy_cert_file_bytes(const char *path, uint8_t **esl, size_t *size);

#endif
