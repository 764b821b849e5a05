/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * rhboot/shim's SHIM_LOCK protocol, through which second stages (GRUB's
 * `linux` and `chainloader`, systemd-boot's security override) ask the
 * first stage to verify an image before they run it. lockshim answers with
 * its own policy (efi_verify.c), the SBAT rule being the second stage's
 * (enum verify_request).
 *
 * The layout and order of the three functions are shim 16.1's (shim.h), and
 * so is their calling convention: System V on x86_64, not EFIAPI, because
 * shim declares them without EFIAPI and GRUB (`sl->verify (buf, size)`) and
 * systemd-boot (`__sysv_abi__`) call them that way. A function with the
 * wrong convention would read its arguments from the wrong registers.
 */
#ifndef LOCKSHIM_EFI_SHIM_LOCK_H
#define LOCKSHIM_EFI_SHIM_LOCK_H

#include <efi.h>

#include "efi_verify.h"

/*
 * Install the protocol on a new handle, stored in *@handle, answering with
 * @verifier, which must outlive it. One at a time.
 */
EFI_STATUS efi_shim_lock_install(const struct efi_verifier *verifier, EFI_HANDLE *handle);

/* Remove it again (nothing when *@handle is NULL); usable as a cleanup. */
void efi_shim_lock_uninstall(EFI_HANDLE *handle);

#endif
