/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Reading whole files from a device's simple file system. */
#ifndef LOCKSHIM_EFI_FILE_H
#define LOCKSHIM_EFI_FILE_H

#include <efi.h>

#define EFI_FILE_MAX_SIZE (1ULL << 31) /* 2 GiB: more than any kernel or initrd */

/* A whole file in pages of its own; data is NULL when there is none. */
struct efi_file_data {
	void *data;
	UINTN size;
};

/*
 * Read @path (absolute, backslash-separated) from the file system on @device
 * into pages allocated here, described by *@file, which the caller releases
 * with efi_file_data_free() (or declares _cleanup_(efi_file_data_free)).
 * Returns EFI_NOT_FOUND when the file does not exist, and leaves *@file empty
 * on any error. One pass, in 16 MiB reads, into the buffer the image is then
 * hashed and loaded from; past one read, progress is printed.
 */
EFI_STATUS efi_file_read(EFI_HANDLE device, const CHAR16 *path, struct efi_file_data *file);

/*
 * As efi_file_read, for a file of at most @max_size bytes: a larger one is
 * not read, EFI_BAD_BUFFER_SIZE.
 */
EFI_STATUS efi_file_read_max(EFI_HANDLE device, const CHAR16 *path, UINT64 max_size,
			     struct efi_file_data *file);

/*
 * The next entry of the open directory @dir into *@info, a new pool buffer
 * (FreePool it), with *@name_len the characters of its FileName, which is
 * NUL-terminated within it; *@info is NULL after the last entry.
 */
EFI_STATUS efi_dir_next(EFI_FILE_HANDLE dir, EFI_FILE_INFO **info, UINTN *name_len);

/*
 * Read the file a device path names (a file system's device, then file path
 * nodes), as efi_file_read does. EFI_NOT_FOUND when it names no file on a
 * simple file system (a firmware volume, say).
 */
EFI_STATUS efi_file_read_device_path(const EFI_DEVICE_PATH *path, struct efi_file_data *file);

/* Free the pages of @file, if any, and leave it empty. */
void efi_file_data_free(struct efi_file_data *file);

/*
 * The file path nodes of @path concatenated, with '\' separators, as a new
 * pool string ("" when there are none); firmware may split a path across
 * several nodes (device_path_file_text). NULL when out of memory or, said
 * on the console, when @path is malformed (a node shorter than its header,
 * no end node within DEVICE_PATH_BOUND bytes).
 */
CHAR16 *efi_file_path_text(const EFI_DEVICE_PATH *path);

/*
 * The directory part (up to and including the last '\') of the file path in
 * @image_path, a loaded image's FilePath, as a new pool string.
 */
CHAR16 *efi_file_directory(const EFI_DEVICE_PATH *image_path);

#endif
