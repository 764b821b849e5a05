/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Reading whole files from a device's simple file system. */
#ifndef LOCKSHIM_EFI_FILE_H
#define LOCKSHIM_EFI_FILE_H

#include <efi.h>

#define EFI_FILE_MAX_SIZE (1ULL << 31) /* 2 GiB: more than any kernel or initrd */

/*
 * Read @path (absolute, backslash-separated) from the file system on @device
 * into pages allocated here. On success *@data and *@size describe the file;
 * release with efi_file_free(*@data, *@size). Returns EFI_NOT_FOUND when the
 * file does not exist. One pass, in 16 MiB reads, into the buffer the image
 * is then hashed and loaded from; past one read, progress is printed.
 */
EFI_STATUS efi_file_read(EFI_HANDLE device, const CHAR16 *path, void **data, UINTN *size);
void efi_file_free(void *data, UINTN size);

/*
 * The directory part (up to and including the last '\') of the file path in
 * @image_path, a loaded image's FilePath, as a new pool string.
 */
CHAR16 *efi_file_directory(const EFI_DEVICE_PATH *image_path);

#endif
