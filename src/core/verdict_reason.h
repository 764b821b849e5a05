/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The one vocabulary of lockshim's decisions, for scripts and tests: every
 * verdict (verify.c) carries one of these codes beside its sentence for
 * people, and every decision is printed as one record line of this form:
 *
 *   verdict=WORD image=IMAGE reason=NAME [list=LIST] [entry=ENTRY]
 *
 * WORD is allowed or refused; the firmware says unverified for an image
 * the policy refused that runs anyway because Secure Boot is not enforced.
 * IMAGE is the image's path, or buffer:SIZE for one a second stage hands
 * to SHIM_LOCK's Verify (SIZE in bytes, decimal). NAME is the code's name
 * below (verdict_reason_name). list= names the list whose entry decided
 * (db, dbx, vendor, vendor dbx, MokList, MokListX, SbatLevel) and entry=
 * that entry (a certificate subject or a lower-case hex digest); each is
 * left out when there is none. The firmware prints it after the sentence,
 * with its prefix ("lockshim: verdict=..."); `lockshim verify --record`
 * prints it alone, and --json gives NAME as "reason".
 *
 * The firmware prints more kinds of record, of fixed words:
 *
 *   lockdown=locked reason=secure-boot            the kernel is asked to lock
 *   lockdown=none reason=secure-boot-off|insecure-mode
 *   variable=NAME action=deleted|ignored reason=attributes attributes=0xN
 *                                                 a MOK variable an OS wrote
 *   memory-attributes=present|absent              the firmware's protocol
 *   secure-boot=enforced|insecure-mode|setup-mode|off SecureBoot=N SetupMode=N
 *       MokSBState=0|1 MokDBState=0|1 MokListTrusted=0|1   (one line) the state
 *   sbat-level=DATESTAMP                          the SbatLevel applied
 *   mirror=NAME written=no status=TEXT            a runtime mirror not written
 *   next-stage=IMAGE                              the image lockshim starts
 *                                                 itself; its verdict follows
 *
 * and keeps them all in the record of the boot, LockshimBootLog
 * (boot_record.h), which `lockshim status` reads.
 *
 * Quoting, the one way: a value made only of printable ASCII but space,
 * and not starting with '"', is written as it is (image=\EFI\BOOT\x.efi);
 * any other (an empty one too) is written between double quotes, with '"'
 * and '\' preceded by '\' and every byte that is not printable ASCII
 * (a control character, UTF-8) as \xHH, in lower-case hex:
 * entry="/CN=Debian Secure Boot CA".
 * So a value ends at the first space unless it starts with '"', and a
 * record is always one line.
 */
#ifndef LOCKSHIM_VERDICT_REASON_H
#define LOCKSHIM_VERDICT_REASON_H

#include <stddef.h>

/* Why a verdict is what it is. Names: verdict_reason_name. */
enum verdict_reason {
	VERDICT_UNSET = 0, /* no decision recorded: never in a verdict verify_image returns */
	/* allowed */
	VERDICT_ALLOWED_DIGEST, /* its SHA-256/384/512 digest is in an allow list */
	VERDICT_ALLOWED_CERT,   /* a valid signature chains to an allow list's certificate */
	/* refused by a deny list (dbx, vendor dbx, MokListX) */
	VERDICT_DENY_DIGEST,        /* the image's digest */
	VERDICT_DENY_CERT,          /* a certificate of a signature or chain */
	VERDICT_DENY_CERT_DIGEST,   /* a certificate's TBSCertificate digest */
	VERDICT_DENY_KEY,           /* a certificate's RSA-2048 key */
	VERDICT_DENY_SIGNATURE,     /* a SignerInfo's signature value */
	VERDICT_DENY_LIST_UNUSABLE, /* a deny list could not be used whole: nothing is allowed */
	/* refused by SBAT */
	VERDICT_SBAT_MULTIPLE,  /* more than one .sbat section */
	VERDICT_SBAT_MISSING,   /* no .sbat where one is required */
	VERDICT_SBAT_MALFORMED, /* a .sbat that cannot be read */
	VERDICT_SBAT_REVOKED,   /* SbatLevel revokes it */
	/* refused for want of trust */
	VERDICT_NOT_SIGNED,       /* no signature, and no allow list names its digest */
	VERDICT_BAD_SIGNATURE,    /* no signature signs this image and verifies */
	VERDICT_UNTRUSTED_SIGNER, /* a valid signature, by a signer no allow list trusts */
	/* refused in the MOK manager's slot */
	VERDICT_NOT_MOK_MANAGER, /* not the MOK manager built with lockshim */
	VERDICT_NO_MOK_MANAGER,  /* no MOK manager digest built in: none may start */
	/* refused because it cannot be checked */
	VERDICT_BAD_IMAGE,           /* not a valid PE image (or its digest cannot be computed) */
	VERDICT_MALFORMED_SIGNATURE, /* a certificate table entry or signature cannot be decoded */
	VERDICT_BAD_CERT,            /* a certificate that cannot be matched against a deny list */
	VERDICT_OUT_OF_MEMORY,
	/* `lockshim check`: what happens to an image besides the policy's verdict */
	VERDICT_MISSING,      /* the file a boot option or loader names does not exist */
	VERDICT_NOT_ENFORCED, /* refused by the policy, but runs: Secure Boot is not enforced */
	VERDICT_NO_SHIM_LOCK, /* GRUB started without lockshim or shim: no SHIM_LOCK to ask */
	VERDICT_UNREADABLE,   /* not a regular file, too large, or it cannot be read */
	VERDICT_REASON_COUNT
};

/* The record name of @reason ([a-z0-9-]+); "unset" for VERDICT_UNSET or an unknown value. */
const char *verdict_reason_name(enum verdict_reason reason);

/* The size verdict_record needs for any record (longer ones are cut). */
#define VERDICT_RECORD_SIZE 1024

/*
 * The record of a verdict into @out (@size bytes, terminated, cut if too
 * long): @word (allowed, refused, unverified), @image, @reason, and @list
 * and @entry when not NULL or empty. Values are quoted as said above.
 */
void verdict_record(char *out, size_t size, const char *word, const char *image,
		    enum verdict_reason reason, const char *list, const char *entry);

/*
 * Append " KEY=VALUE" to the record line in @out (@size bytes, terminated;
 * no space before the first field), VALUE quoted as said above: the one
 * writer of every kind of record. A line that does not fit is cut, still
 * terminated.
 */
void record_add_field(char *out, size_t size, const char *key, const char *value);

/* ---- reading any record line ---- */

#define RECORD_FIELDS_MAX 8  /* no record has more */
#define RECORD_KEY_MAX    32 /* a key's room, its NUL included */

struct record_field {
	char key[RECORD_KEY_MAX];        /* [A-Za-z0-9_-]+ */
	char value[VERDICT_RECORD_SIZE]; /* unquoted; never holds a NUL */
};

struct record_fields {
	size_t n;
	struct record_field field[RECORD_FIELDS_MAX];
};

/*
 * Read the record line of @len bytes at @line (without its newline) into
 * @out: KEY=VALUE fields separated by one space, values as the writer
 * quotes them. Returns 0, or -1 with a reason when it is not such a line
 * (a key given twice, an unterminated quote, a byte that is not printable
 * ASCII, a NUL written as \x00, more than RECORD_FIELDS_MAX fields).
 */
int record_parse(const char *line, size_t len, struct record_fields *out, const char **reason);

/* The value of @key in @fields, or NULL when the line has no such field. */
const char *record_value(const struct record_fields *fields, const char *key);

#endif
