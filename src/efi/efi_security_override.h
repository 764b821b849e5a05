/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * lockshim's say over the firmware's LoadImage.
 *
 * The firmware checks every image it loads against db and dbx, through the
 * security architectural protocols (PI, volume 2), and knows nothing of the
 * vendor certificate or MokList. Rather than reimplement the PE loader,
 * lockshim lets the firmware load images and hooks those protocols, as
 * rhboot/shim and systemd-boot do, in two ways:
 *  - for one LoadImage of an image lockshim has just verified, they approve
 *    exactly that buffer (same address, same size);
 *  - while a second stage runs, every image it loads through the firmware
 *    is decided by lockshim's policy (efi_security_override.c says why that
 *    is safe).
 * Everything else goes to the firmware's own handlers.
 */
#ifndef LOCKSHIM_EFI_SECURITY_OVERRIDE_H
#define LOCKSHIM_EFI_SECURITY_OVERRIDE_H

#include <efi.h>

#include "efi_verify.h"

/*
 * LoadImage the verified image at @buffer (@size bytes, named by @path) with
 * the firmware's security checks approving that buffer.
 */
EFI_STATUS efi_load_verified_image(EFI_HANDLE parent, EFI_DEVICE_PATH *path, void *buffer,
				   UINTN size, EFI_HANDLE *image);

/*
 * From now on, decide every image loaded through the firmware with
 * @verifier (which must outlive it), until efi_security_policy_remove().
 * Does nothing when the firmware has neither protocol (it checks nothing).
 */
void efi_security_policy_install(const struct efi_verifier *verifier);
void efi_security_policy_remove(void);

#endif
