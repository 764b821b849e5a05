/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The trust lists the loader verifies against: the vendor certificate and
 * vendor dbx built into lockshim, the firmware's db and dbx, and the
 * machine owner's MokList and MokListX when their attributes show that only
 * boot-time code (the MOK manager) can have written them (@mok, lockshim's
 * one reading of them: efi_mok.c).
 */
#ifndef LOCKSHIM_EFI_POLICY_H
#define LOCKSHIM_EFI_POLICY_H

#include <efi.h>

#include "efi_mok.h"
#include "verify.h"

/*
 * Fill @policy (initialised by the caller). Problems with one list are
 * printed. An allow list is then left out or partly used; a deny list that
 * cannot be read (other than "not found") or loses signature lists to
 * parsing makes the policy unusable (policy->unusable, verify.h): every
 * image but the MOK manager is refused. The MOK manager's digest built in
 * is the only one policy->mok_manager_sha256 accepts. The call fails only
 * when the embedded vendor certificate is unusable.
 */
/* The vendor certificate and vendor dbx built in (src/efi/vendor_certs.S). */
extern const UINT8 vendor_cert[], vendor_cert_end[];
extern const UINT8 vendor_dbx[], vendor_dbx_end[];
/* The MOK manager built with lockshim (src/efi/mok_manager_digest.S). */
extern const UINT8 mok_manager_sha256[MOK_MANAGER_DIGEST_SIZE];

EFI_STATUS efi_policy_load(struct verify_policy *policy, const struct efi_mok_state *mok);

#endif
