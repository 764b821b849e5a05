// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_file.h"

#include <efilib.h>

#include "device_path.h"
#include "efi_cleanup.h"
#include "efi_fault.h"
#include "efi_log.h"

#define READ_CHUNK (16U * 1024 * 1024) /* keep each firmware read call short */

static UINTN pages_for(UINTN size)
{
	return EFI_SIZE_TO_PAGES(size ? size : 1);
}

void efi_file_data_free(struct efi_file_data *file)
{
	if (file->data)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(UINTN)file->data, pages_for(file->size));
	*file = (struct efi_file_data){};
}

/* Read all of @file into @out, allocated here, in chunks. */
static EFI_STATUS read_whole_file(EFI_FILE_HANDLE file, const CHAR16 *path, UINTN size,
				  struct efi_file_data *out)
{
	_cleanup_(efi_file_data_free) struct efi_file_data buffer = { .size = size };
	EFI_PHYSICAL_ADDRESS address;
	EFI_STATUS status;
	UINTN done = 0;

	status = BS->AllocatePages(AllocateAnyPages, EfiLoaderData, pages_for(size), &address);
	if (EFI_ERROR(status))
		return status;
	buffer.data = (void *)(UINTN)address;
	while (done < size) {
		UINTN chunk = size - done < READ_CHUNK ? size - done : READ_CHUNK;

		status = efi_fault_file_read(file, &chunk, (UINT8 *)buffer.data + done);
		if (EFI_ERROR(status))
			return status;
		if (chunk == 0) /* the file shrank under us */
			return EFI_END_OF_FILE;
		done += chunk;
		/* a large file on a slow disk: say how far it got, once per chunk */
		if (size > READ_CHUNK)
			log_info("%ls: %lu of %lu MiB read", path, done >> 20, size >> 20);
	}
	*out = buffer;
	buffer = (struct efi_file_data){};
	return EFI_SUCCESS;
}

EFI_STATUS efi_file_read(EFI_HANDLE device, const CHAR16 *path, struct efi_file_data *file)
{
	return efi_file_read_max(device, path, EFI_FILE_MAX_SIZE, file);
}

EFI_STATUS efi_file_read_max(EFI_HANDLE device, const CHAR16 *path, UINT64 max_size,
			     struct efi_file_data *file)
{
	_cleanup_file_ EFI_FILE_HANDLE root = NULL, handle = NULL;
	_cleanup_pool_ EFI_FILE_INFO *info = NULL;
	EFI_STATUS status;

	*file = (struct efi_file_data){};
	root = LibOpenRoot(device);
	if (!root)
		return EFI_UNSUPPORTED;
	status = root->Open(root, &handle, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status))
		return status;
	info = LibFileInfo(handle);
	if (!info)
		return EFI_DEVICE_ERROR;
	if (info->Attribute & EFI_FILE_DIRECTORY)
		return EFI_NOT_FOUND;
	if (info->FileSize > max_size || info->FileSize > EFI_FILE_MAX_SIZE)
		return EFI_BAD_BUFFER_SIZE;
	return read_whole_file(handle, path, info->FileSize, file);
}

/* Far past any file system's entry: 255 characters of a long name and the info's fields. */
#define DIR_ENTRY_MAX (64 * 1024)

EFI_STATUS efi_dir_next(EFI_FILE_HANDLE dir, EFI_FILE_INFO **info, UINTN *name_len)
{
	UINTN size = SIZE_OF_EFI_FILE_INFO + 256 * sizeof(CHAR16), chars;
	_cleanup_pool_ EFI_FILE_INFO *entry = NULL;
	EFI_STATUS status;

	*info = NULL;
	*name_len = 0;
	entry = AllocatePool(size);
	if (!entry)
		return EFI_OUT_OF_RESOURCES;
	status = dir->Read(dir, &size, entry);
	if (status == EFI_BUFFER_TOO_SMALL && size <= DIR_ENTRY_MAX) {
		FreePool(entry);
		entry = AllocatePool(size);
		if (!entry)
			return EFI_OUT_OF_RESOURCES;
		status = dir->Read(dir, &size, entry);
	}
	if (EFI_ERROR(status))
		return status;
	if (size == 0)
		return EFI_SUCCESS; /* the end */
	if (size <= SIZE_OF_EFI_FILE_INFO)
		return EFI_VOLUME_CORRUPTED;
	chars = (size - SIZE_OF_EFI_FILE_INFO) / sizeof(CHAR16);
	while (*name_len < chars && entry->FileName[*name_len])
		(*name_len)++;
	if (*name_len == chars)
		return EFI_VOLUME_CORRUPTED; /* no terminator inside what was read */
	*info = TAKE_PTR(entry);
	return EFI_SUCCESS;
}

CHAR16 *efi_file_path_text(const EFI_DEVICE_PATH *path)
{
	const UINT8 *dp = (const UINT8 *)path;
	const char *reason;
	CHAR16 *text;
	size_t size, len;

	if (!path)
		return AllocateZeroPool(sizeof(CHAR16));
	if (device_path_size(dp, DEVICE_PATH_BOUND, &size, &reason) < 0 ||
	    device_path_file_text(dp, size, NULL, 0, &len, &reason) < 0) {
		log_error("a device path lockshim was given is malformed: %s", reason);
		return NULL;
	}
	text = AllocatePool((len + 1) * sizeof(CHAR16));
	if (text)
		device_path_file_text(dp, size, text, len + 1, &len, &reason);
	return text;
}

CHAR16 *efi_file_directory(const EFI_DEVICE_PATH *image_path)
{
	_cleanup_pool_ CHAR16 *dir = efi_file_path_text(image_path);
	UINTN last_sep = 0;

	if (!dir)
		return NULL;
	if (dir[0] == L'\0')
		return StrDuplicate(L"\\");
	for (UINTN i = 0; dir[i]; i++)
		if (dir[i] == L'\\')
			last_sep = i + 1;
	if (dir[0] != L'\\') { /* a relative name: use the root */
		dir[0] = L'\\';
		last_sep = 1;
	}
	dir[last_sep] = L'\0';
	return TAKE_PTR(dir);
}

EFI_STATUS efi_file_read_device_path(const EFI_DEVICE_PATH *path, struct efi_file_data *file)
{
	EFI_DEVICE_PATH *rest = (EFI_DEVICE_PATH *)path;
	_cleanup_pool_ CHAR16 *name = NULL;
	EFI_HANDLE device;
	EFI_STATUS status;

	*file = (struct efi_file_data){};
	status = BS->LocateDevicePath(&FileSystemProtocol, &rest, &device);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;
	name = efi_file_path_text(rest);
	if (!name)
		return EFI_OUT_OF_RESOURCES;
	if (name[0] == L'\0')
		return EFI_NOT_FOUND;
	return efi_file_read(device, name, file);
}
