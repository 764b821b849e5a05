// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_security_override.h"

#include <efilib.h>

#include "efi_guid.h"

/* PI specification, volume 2: the DXE security architectural protocols. */

struct security_protocol;
struct security2_protocol;

typedef EFI_STATUS(EFIAPI *security_file_authentication_state)(const struct security_protocol *this,
							       UINT32 authentication_status,
							       const EFI_DEVICE_PATH *file);
typedef EFI_STATUS(EFIAPI *security2_file_authentication)(const struct security2_protocol *this,
							  const EFI_DEVICE_PATH *file,
							  VOID *file_buffer, UINTN file_size,
							  BOOLEAN boot_policy);

struct security_protocol {
	security_file_authentication_state file_authentication_state;
};

struct security2_protocol {
	security2_file_authentication file_authentication;
};

/*
 * The firmware calls the hooks without a context argument of ours, so the
 * approved image has to live here; it is set only for the duration of
 * efi_load_verified_image.
 */
static struct {
	const void *buffer;
	UINTN size;
	const EFI_DEVICE_PATH *path;
	security_file_authentication_state original;
	security2_file_authentication original2;
} approved;

static EFI_STATUS EFIAPI security2_hook(const struct security2_protocol *this,
					const EFI_DEVICE_PATH *file, VOID *file_buffer,
					UINTN file_size, BOOLEAN boot_policy)
{
	if (approved.buffer && file_buffer == approved.buffer && file_size == approved.size)
		return EFI_SUCCESS;
	return approved.original2(this, file, file_buffer, file_size, boot_policy);
}

/* Older firmware has only the first protocol, which sees a device path and no buffer. */
static EFI_STATUS EFIAPI security_hook(const struct security_protocol *this, UINT32 status,
				       const EFI_DEVICE_PATH *file)
{
	if (approved.buffer && file && approved.path &&
	    DevicePathSize((EFI_DEVICE_PATH *)file) ==
		    DevicePathSize((EFI_DEVICE_PATH *)approved.path) &&
	    CompareMem(file, approved.path, DevicePathSize((EFI_DEVICE_PATH *)file)) == 0)
		return EFI_SUCCESS;
	return approved.original(this, status, file);
}

EFI_STATUS efi_load_verified_image(EFI_HANDLE parent, EFI_DEVICE_PATH *path, void *buffer,
				   UINTN size, EFI_HANDLE *image)
{
	struct security_protocol *security = NULL;
	struct security2_protocol *security2 = NULL;
	EFI_STATUS status;

	/* Either may be absent: without them the firmware does no checks to override. */
	LibLocateProtocol(&security_arch_protocol_guid, (void **)&security);
	LibLocateProtocol(&security2_arch_protocol_guid, (void **)&security2);

	approved.buffer = buffer;
	approved.size = size;
	approved.path = path;
	if (security) {
		approved.original = security->file_authentication_state;
		security->file_authentication_state = security_hook;
	}
	if (security2) {
		approved.original2 = security2->file_authentication;
		security2->file_authentication = security2_hook;
	}

	status = BS->LoadImage(FALSE, parent, path, buffer, size, image);

	if (security2)
		security2->file_authentication = approved.original2;
	if (security)
		security->file_authentication_state = approved.original;
	approved.buffer = NULL;
	approved.size = 0;
	approved.path = NULL;
	return status;
}
