// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_file.h"

#include <efilib.h>

#include "efi_log.h"

#define READ_CHUNK (16U * 1024 * 1024) /* keep each firmware read call short */

static UINTN pages_for(UINTN size)
{
	return EFI_SIZE_TO_PAGES(size ? size : 1);
}

void efi_file_free(void *data, UINTN size)
{
	if (data)
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(UINTN)data, pages_for(size));
}

EFI_STATUS efi_file_read(EFI_HANDLE device, const CHAR16 *path, void **data, UINTN *size)
{
	EFI_FILE_HANDLE root = NULL, file = NULL;
	EFI_FILE_INFO *info = NULL;
	EFI_PHYSICAL_ADDRESS address;
	EFI_STATUS status;
	UINTN done = 0;

	*data = NULL;
	*size = 0;
	root = LibOpenRoot(device);
	if (!root)
		return EFI_UNSUPPORTED;
	status = root->Open(root, &file, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(status))
		goto out;
	info = LibFileInfo(file);
	if (!info) {
		status = EFI_DEVICE_ERROR;
		goto out;
	}
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		status = EFI_NOT_FOUND;
		goto out;
	}
	if (info->FileSize > EFI_FILE_MAX_SIZE) {
		status = EFI_BAD_BUFFER_SIZE;
		goto out;
	}
	*size = info->FileSize;
	status = BS->AllocatePages(AllocateAnyPages, EfiLoaderData,
				   pages_for(*size), &address);
	if (EFI_ERROR(status))
		goto out;
	*data = (void *)(UINTN)address;

	while (done < *size) {
		UINTN chunk = *size - done < READ_CHUNK ? *size - done : READ_CHUNK;

		status = file->Read(file, &chunk, (UINT8 *)*data + done);
		if (EFI_ERROR(status))
			break;
		if (chunk == 0) { /* the file shrank under us */
			status = EFI_END_OF_FILE;
			break;
		}
		done += chunk;
		/* a large file on a slow disk: say how far it got, once per chunk */
		if (*size > READ_CHUNK)
			log_info(L"%s: %ld of %ld MiB read", path, done >> 20, *size >> 20);
	}
	if (EFI_ERROR(status)) {
		efi_file_free(*data, *size);
		*data = NULL;
		*size = 0;
	}
out:
	if (info)
		FreePool(info);
	if (file)
		file->Close(file);
	root->Close(root);
	return status;
}

CHAR16 *efi_file_directory(const EFI_DEVICE_PATH *image_path)
{
	const EFI_DEVICE_PATH *node = image_path;
	CHAR16 *dir = NULL;
	UINTN len = 0, last_sep = 0;

	/* Concatenate the file path nodes; firmware may split a path across several. */
	for (; node && !IsDevicePathEnd(node); node = NextDevicePathNode(node)) {
		const FILEPATH_DEVICE_PATH *fp = (const FILEPATH_DEVICE_PATH *)node;
		UINTN node_len = DevicePathNodeLength(node), chars;
		CHAR16 *grown;

		if (DevicePathType(node) != MEDIA_DEVICE_PATH || DevicePathSubType(node) != MEDIA_FILEPATH_DP)
			continue;
		if (node_len < sizeof(EFI_DEVICE_PATH))
			break;
		chars = (node_len - sizeof(EFI_DEVICE_PATH)) / sizeof(CHAR16);
		grown = ReallocatePool(dir, len * sizeof(CHAR16), (len + chars + 2) * sizeof(CHAR16));
		if (!grown) {
			FreePool(dir);
			return NULL;
		}
		dir = grown;
		if (len > 0 && dir[len - 1] != L'\\' && chars > 0 && fp->PathName[0] != L'\\')
			dir[len++] = L'\\';
		for (UINTN i = 0; i < chars && fp->PathName[i]; i++)
			dir[len++] = fp->PathName[i] == L'/' ? L'\\' : fp->PathName[i];
	}
	if (!dir || len == 0) {
		if (dir)
			FreePool(dir);
		dir = AllocatePool(2 * sizeof(CHAR16));
		if (dir)
			StrCpy(dir, L"\\");
		return dir;
	}
	for (UINTN i = 0; i < len; i++)
		if (dir[i] == L'\\')
			last_sep = i + 1;
	if (dir[0] != L'\\') { /* a relative name: use the root */
		dir[0] = L'\\';
		last_sep = 1;
	}
	dir[last_sep] = L'\0';
	return dir;
}
