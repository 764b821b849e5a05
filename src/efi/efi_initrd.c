// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_initrd.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_guid.h"

struct initrd_device_path {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH end;
} __attribute__((packed));

struct efi_initrd {
	EFI_LOAD_FILE_PROTOCOL load_file; /* first: the protocol pointer is the object */
	struct initrd_device_path path;
	EFI_HANDLE handle;
	const void *data;
	UINTN size;
};

static EFI_STATUS EFIAPI initrd_load_file(EFI_LOAD_FILE_PROTOCOL *this, EFI_DEVICE_PATH *file_path,
					  BOOLEAN boot_policy, UINTN *buffer_size, VOID *buffer)
{
	struct efi_initrd *initrd = (struct efi_initrd *)this;

	(void)file_path;
	if (!this || !buffer_size)
		return EFI_INVALID_PARAMETER;
	if (boot_policy) /* LoadFile2 never serves boot options */
		return EFI_UNSUPPORTED;
	if (!buffer || *buffer_size < initrd->size) {
		*buffer_size = initrd->size;
		return EFI_BUFFER_TOO_SMALL;
	}
	CopyMem(buffer, (void *)initrd->data, initrd->size);
	*buffer_size = initrd->size;
	return EFI_SUCCESS;
}

EFI_STATUS efi_initrd_register(const void *data, UINTN size, struct efi_initrd **out)
{
	_cleanup_pool_ struct efi_initrd *initrd = NULL;
	EFI_DEVICE_PATH *probe;
	EFI_HANDLE existing;
	EFI_STATUS status;

	*out = NULL;
	initrd = AllocateZeroPool(sizeof(*initrd));
	if (!initrd)
		return EFI_OUT_OF_RESOURCES;
	initrd->data = data;
	initrd->size = size;
	initrd->load_file.LoadFile = initrd_load_file;
	initrd->path.vendor.Header.Type = MEDIA_DEVICE_PATH;
	initrd->path.vendor.Header.SubType = MEDIA_VENDOR_DP;
	SetDevicePathNodeLength(&initrd->path.vendor.Header, sizeof(initrd->path.vendor));
	initrd->path.vendor.Guid = linux_initrd_media_guid;
	SetDevicePathEndNode(&initrd->path.end);

	probe = (EFI_DEVICE_PATH *)&initrd->path;
	status = BS->LocateDevicePath(&load_file2_protocol_guid, &probe, &existing);
	if (!EFI_ERROR(status))
		return EFI_ALREADY_STARTED;

	status = LibInstallProtocolInterfaces(&initrd->handle, &DevicePathProtocol, &initrd->path,
					      &load_file2_protocol_guid, &initrd->load_file, NULL);
	if (EFI_ERROR(status))
		return status;
	*out = TAKE_PTR(initrd);
	return EFI_SUCCESS;
}

void efi_initrd_unregister(struct efi_initrd *initrd)
{
	if (!initrd)
		return;
	LibUninstallProtocolInterfaces(initrd->handle, &DevicePathProtocol, &initrd->path,
				       &load_file2_protocol_guid, &initrd->load_file, NULL);
	FreePool(initrd);
}
