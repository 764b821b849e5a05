/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The firmware's own verdict on an image it starts (a first stage: lockshim,
 * shim, a UKI), as EDK2's DxeImageVerificationHandler decides it from db and
 * dbx (SecurityPkg/Library/DxeImageVerificationLib, edk2-stable202211: the
 * OVMF of Debian 12). No MOK, vendor list or SBAT: the firmware has none.
 *
 * An unsigned image runs only when its SHA-256 digest is in db and not in
 * dbx. A signed one: each entry of the certificate table is one signature;
 * a signature nested inside another (osslsigncode -nest) is not seen at all.
 * For each, in table order:
 *  - refused when an X.509 certificate in dbx is its signer or a CA its
 *    signer chains to (the signature must sign this image and verify, as
 *    EDK2 checks it with AuthenticodeVerify against each dbx certificate);
 *  - refused when the TBSCertificate digest (X509_SHA256/384/512) of its
 *    signer, the one certificate PKCS7_get0_signers gives, is in dbx: other
 *    certificates the signature carries are not looked up by digest;
 *  - allowed when it signs this image and its signer chains to a db
 *    certificate: the first in db order that it chains to decides, and when
 *    that certificate's TBS digest is in dbx the signature allows nothing;
 *  - refused when the image digest by this signature's algorithm is in dbx,
 *    and allowed when it is in db.
 * Any refusal wins over an allow by another signature. A TBS digest entry
 * with a revocation time could be passed by a timestamp a dbt certificate
 * signed (EDK2's PassTimestampCheck); dbt is not read here, as it is absent
 * on OVMF and nearly every machine, where such an entry always revokes.
 *
 * EDK2 refuses a certificate table whose last entry lacks its padding to 8
 * bytes, which lockshim's own reader lets go: so does this.
 *
 * What this does not follow of EDK2: a certificate table entry lockshim's
 * reader refuses (another WIN_CERTIFICATE revision or type, which EDK2
 * skips or reads) and signatures by SHA-1 (which EDK2 verifies) make the
 * prediction a refusal with the reason, never an allow.
 */
#ifndef LOCKSHIM_FIRMWARE_VERDICT_H
#define LOCKSHIM_FIRMWARE_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "signature_list.h"
#include "verify.h"

struct firmware_verdict {
	/*
	 * allowed; reason; list (the db or dbx given) and entry (a subject or a
	 * hex digest) whose entry decided; message; authority: the db entry.
	 */
	struct verdict verdict;
	long signature;    /* the certificate table entry (from 0) that decided, or -1 */
	char signer[200];  /* that signature's signer subject, or empty */
	size_t signatures; /* the certificate table entries the firmware checks */
	size_t nested;     /* signatures nested in them, which it does not see */
};

/*
 * Decide on the PE image of @size bytes at @data as the firmware would with
 * @db and @dbx. Never fails: a refusal is a verdict.
 */
void firmware_verify_image(const uint8_t *data, size_t size, const struct sig_db *db,
			   const struct sig_db *dbx, struct firmware_verdict *fv);

#endif
