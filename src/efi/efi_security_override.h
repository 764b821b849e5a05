/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Starting a kernel that lockshim has verified itself.
 *
 * The firmware's LoadImage checks images against db/dbx, and our kernels are
 * signed by the vendor key, not a db key. Rather than reimplement the PE
 * loader (relocations, section permissions, a LoadedImage protocol of our
 * own), lockshim lets the firmware load the image and, for the length of that
 * one LoadImage call, hooks the firmware's security protocols so that they
 * approve exactly the buffer lockshim verified (same address, same size) and
 * defer to the firmware for anything else. systemd-boot does the same.
 */
#ifndef LOCKSHIM_EFI_SECURITY_OVERRIDE_H
#define LOCKSHIM_EFI_SECURITY_OVERRIDE_H

#include <efi.h>

/*
 * LoadImage the verified image at @buffer (@size bytes, named by @path) with
 * the firmware's security checks approving that buffer only.
 */
EFI_STATUS efi_load_verified_image(EFI_HANDLE parent, EFI_DEVICE_PATH *path, void *buffer,
				   UINTN size, EFI_HANDLE *image);

#endif
