/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The verification policy: given an image and the trust lists, decide
 * whether it may run, and say why. The loader and the host CLI both call
 * verify_image; neither decides anything on its own.
 *
 * Deny first: the image is refused if dbx, the vendor dbx or MokListX names
 * it by any entry type UEFI defines for an image or its signer: its digest
 * (SHA-1, SHA-224, SHA-256/384/512), any certificate of any of its
 * signatures (nested ones included) or of any signer's chain (the
 * certificate, its TBS digest, its RSA-2048 modulus), or the signature value
 * of any SignerInfo (RSA2048_SHA256/SHA1). Only then is it allowed if its
 * SHA-256/384/512 digest is in the vendor list, db or MokList, or if a valid
 * signature's signer chains to a certificate in one of them: allow lists
 * trust by nothing else. This is stricter than shim 16.1, which boots an
 * image with one signature by a revoked key and one by a trusted key.
 *
 * With an SBAT level in the policy, an image must also carry a valid .sbat
 * section that the level does not revoke (checked after the deny lists,
 * before any allow list). An image a second stage asks about through the
 * SHIM_LOCK protocol may lack .sbat, as under shim: see enum verify_request.
 * An image with more than one .sbat section is refused even without a level,
 * as shim 16.1 refuses it whenever it verifies (verify_buffer_sbat): only
 * one of them could be checked, and the other might be the one that counts.
 *
 * Deny lists fail closed: when one could not be loaded whole
 * (verify_policy_list_loaded), every image is refused with the reason, but
 * the MOK manager, so that the machine owner can still reach it.
 */
#ifndef LOCKSHIM_VERIFY_H
#define LOCKSHIM_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbat.h"
#include "signature_list.h"
#include "verdict_reason.h"

#define MOK_MANAGER_DIGEST_SIZE 32 /* SHA-256 */

struct verify_policy {
	struct sig_db vendor;     /* certificates (and digests) built into lockshim */
	struct sig_db vendor_dbx; /* revocations built into lockshim */
	struct sig_db db, dbx;    /* the firmware's */
	struct sig_db mok, mokx;  /* MokList, MokListX; empty when not trusted */
	/* the SbatLevel to apply; NULL when SBAT is not enforced (Secure Boot off) */
	const struct sbat *sbat_level;
	/*
	 * The Authenticode SHA-256 digest of the MOK manager built with lockshim
	 * (MOK_MANAGER_DIGEST_SIZE bytes), the only image VERIFY_MOK_MANAGER
	 * accepts; NULL: none is accepted.
	 */
	const uint8_t *mok_manager_sha256;
	/*
	 * Why a deny list could not be used whole (verify_policy_list_loaded), or
	 * empty. When set, every image is refused with it but the MOK manager.
	 */
	char unusable[200];
};

/* Every list empty, each with the name verdicts use. */
void verify_policy_init(struct verify_policy *policy);
void verify_policy_free(struct verify_policy *policy);

/* How reading a trust or deny list went, for verify_policy_list_loaded. */
enum list_read {
	LIST_ABSENT,     /* there is no such list */
	LIST_READ,       /* read, and its signature lists added to the sig_db */
	LIST_UNREADABLE, /* it may exist but could not be read (not "not found") */
};

/*
 * Say how the list @db of @policy was loaded: @read and, when read, what
 * sig_db_add_esl returned (@rejected, -1 when out of memory) with its
 * reason @why. An allow list (vendor, db, MokList) lost or partly lost only
 * trusts less. Deny lists (dbx, vendor dbx, MokListX) fail closed: one that
 * could not be read, or lost signature lists, would revoke less than its
 * owner wrote, so the policy is then unusable: policy->unusable says why
 * (the first reason is kept) and this returns -1. Returns 0 otherwise.
 */
int verify_policy_list_loaded(struct verify_policy *policy, const struct sig_db *db,
			      enum list_read read, int rejected, const char *why);

/*
 * The allow-list entry that let an image run, as the verification found it
 * (the TPM's PCR 7 authority record, measure.c, is made from it and from no
 * second search): db->certs[index] when @cert, else db->digests[index].
 */
struct verdict_authority {
	const struct sig_db *db; /* NULL: no entry (refused, or no entry to name) */
	bool cert;
	size_t index;
};

struct verdict {
	bool allowed;
	enum verdict_reason reason; /* why, for the record (verdict_reason.h); never VERDICT_UNSET */
	const char *list;           /* the list whose entry decided, or NULL */
	char entry[256];   /* that entry: a certificate subject or a hex digest; or empty */
	char message[384]; /* one line for the console */
	struct verdict_authority authority; /* set when allowed by an entry */
};

/*
 * Who asks, which decides the SBAT rule (rhboot/shim's, pe.c
 * verify_sbat_section). An image lockshim starts itself must carry .sbat: it
 * is the only revocation that survives a signing key staying trusted. An
 * image a second stage (GRUB, systemd-boot) verifies through SHIM_LOCK is
 * checked against SbatLevel when it has .sbat and passes without one, since
 * stock kernels before Linux 6.16 (Debian 12's 6.1 among them) carry none;
 * the second stage itself was started by lockshim, so it had to carry one.
 */
enum verify_request {
	VERIFY_TO_START,   /* lockshim starts the image: .sbat required */
	VERIFY_FOR_LOADER, /* a second stage asks: .sbat checked when present */
	/*
	 * lockshim starts the MOK manager: as VERIFY_TO_START, and only the image
	 * built with lockshim (policy->mok_manager_sha256): a vendor-signed second
	 * stage copied to its place must not run where a request lets it start
	 * without a kernel's hand-off. Allowed even when a deny list is unusable
	 * (policy->unusable), so the machine owner can still reach it; it is still
	 * checked against every deny entry read.
	 */
	VERIFY_MOK_MANAGER,
};

/*
 * Whether an image without .sbat is refused for @request under @policy: with
 * a level, for everything but VERIFY_FOR_LOADER. The lockdown table carries
 * the answer for VERIFY_TO_START to the kernel (LOCKSHIM_TABLE_SBAT_REQUIRED).
 */
bool verify_sbat_required(const struct verify_policy *policy, enum verify_request request);

/*
 * Set @v's decision to @reason (allowed when it is an ALLOWED_ one), decided
 * by an entry of @list (or NULL), saying @message; the other fields are left.
 */
void verdict_decide(struct verdict *v, enum verdict_reason reason, const struct sig_db *list,
		    const char *message);

/* @cert's subject as one line, for verdicts (truncated to @size). */
void verdict_subject(X509 *cert, char *out, size_t size);

/* @size bytes at @data as lower-case hex, truncated to what @out_size holds with its NUL. */
void verdict_hex(const uint8_t *data, size_t size, char *out, size_t out_size);

/* A refusal decided outside the policy (the loader cannot build its lists), for @reason. */
void verdict_refuse(struct verdict *verdict, enum verdict_reason reason, const char *message);

/*
 * Decide on the PE image of @size bytes at @data, for @request. Never fails:
 * a refusal is a verdict. With policy->unusable set, every image is refused
 * with that reason but for VERIFY_MOK_MANAGER.
 */
void verify_image(const uint8_t *data, size_t size, const struct verify_policy *policy,
		  enum verify_request request, struct verdict *verdict);

/* The Authenticode digests of one image, each computed on first use (size 0: not yet). */
#define VERIFY_IMAGE_DIGESTS 5
struct image_digests {
	struct {
		uint8_t digest[64];
		unsigned int size;
	} d[VERIFY_IMAGE_DIGESTS];
};

/*
 * verify_image, keeping the image's digests in @digests (zeroed before the
 * first call for this image, and only ever given with the same bytes at
 * @data): a caller that decides on one image several times (under another
 * policy, for another boot option) hashes it once.
 */
void verify_image_digests(const uint8_t *data, size_t size, const struct verify_policy *policy,
			  enum verify_request request, struct image_digests *digests,
			  struct verdict *verdict);

#endif
