/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The dbx updates that revoke a CA, recorded as data with their source in
 * certs/dbx-revocations.csv (built in: dbx_revocations.S): Microsoft's
 * published ones, and the what-if of one not published yet. Each names the
 * CA by the SHA-256 of its DER, as ca_names.c does; `--dbx-update NAME`
 * applies one (what_if.c), and check warns of each (dbx_warning.c).
 */
#ifndef LOCKSHIM_DBX_REVOCATION_H
#define LOCKSHIM_DBX_REVOCATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot_chain.h"

/* A dbx update recorded in certs/dbx-revocations.csv: it adds one CA to dbx. */
struct dbx_revocation {
	char name[32];         /* what --dbx-update takes for it: "uefi-ca-2011" */
	uint8_t ca_sha256[32]; /* the CA's DER */
	char status[40];       /* "published 2024-04-09", "not published" */
	char what[200];        /* the update, and where it comes from */
};

/* Each recorded revocation in order, until @visit returns nonzero, which is returned. */
int dbx_revocation_each(int (*visit)(const struct dbx_revocation *r, void *ctx), void *ctx);

/* The recorded revocation --dbx-update @arg names: 1 with *@out set, 0 when it names none. */
int dbx_revocation_find(const char *arg, struct dbx_revocation *out);

/*
 * What @r adds to dbx on a machine whose db is @db: the certificate of db
 * it revokes (firmware needs it whole to refuse its chains), one
 * EFI_SIGNATURE_LIST appended to the OPENSSL_malloc'd *@data of *@size
 * bytes; nothing when db does not hold it (then it revokes nothing db
 * trusts). Returns 0, or -1 out of memory or db unreadable, said.
 */
int dbx_revocation_payload(const struct dbx_revocation *r, const struct blob *db, uint8_t **data,
			   size_t *size);

#endif
