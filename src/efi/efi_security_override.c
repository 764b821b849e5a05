// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_security_override.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_file.h"
#include "efi_guid.h"
#include "efi_log.h"

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
 * The firmware calls the hooks without a context argument of ours, so what
 * they approve has to live here. The hooks are in place while any user
 * holds them.
 */
static struct {
	struct security_protocol *security;
	struct security2_protocol *security2;
	security_file_authentication_state original;
	security2_file_authentication original2;
	UINTN users;
	/* efi_load_verified_image: the one image lockshim verified */
	const void *buffer;
	UINTN size;
	const EFI_DEVICE_PATH *path;
	/* efi_security_policy_install: a second stage runs */
	const struct efi_verifier *verifier;
} override;

/*
 * An image that a second stage loads, decided by lockshim's policy. Why this
 * is safe:
 *  - the policy decides first, deny lists (dbx, MokListX, vendor dbx, SBAT)
 *    before allow lists, and an image it refuses is refused here: it never
 *    reaches a firmware check that could let it through;
 *  - the policy includes db (unless the owner asked to leave it out), so it
 *    trusts no less than the firmware would, and never more than lockshim
 *    trusts for what it starts itself;
 *  - an image it allows is measured by lockshim (efi_verify_image: PCR 4,
 *    and the entry that allowed it in PCR 7, as shim's LoadImage hook does)
 *    and not shown to the firmware's handlers: EDK2 runs them in order and
 *    stops at the first failure, so its db check, failing for a vendor or
 *    MOK image, would skip its measurement, and passing would measure the
 *    image a second time;
 *  - the firmware's own images (from its volumes, without a file buffer)
 *    go to the original handlers untouched, measurements included.
 */
static BOOLEAN policy_allows(const EFI_DEVICE_PATH *file, const void *buffer, UINTN size)
{
	_cleanup_pool_ CHAR16 *name = file ? DevicePathToStr((EFI_DEVICE_PATH *)file) : NULL;

	return !EFI_ERROR(efi_verify_image(override.verifier, buffer, size, VERIFY_FOR_LOADER,
					   name ? name : L"an image of the second stage", "loading",
					   file));
}

static EFI_STATUS EFIAPI security2_hook(const struct security2_protocol *this,
					const EFI_DEVICE_PATH *file, VOID *file_buffer,
					UINTN file_size, BOOLEAN boot_policy)
{
	/* lockshim verified and measured these very bytes */
	if (override.buffer && file_buffer == override.buffer && file_size == override.size)
		return EFI_SUCCESS;
	if (!override.verifier || !file_buffer || !file_size)
		return override.original2(this, file, file_buffer, file_size, boot_policy);
	return policy_allows(file, file_buffer, file_size) ? EFI_SUCCESS : EFI_ACCESS_DENIED;
}

static BOOLEAN same_path(const EFI_DEVICE_PATH *a, const EFI_DEVICE_PATH *b)
{
	UINTN size;

	if (!a || !b)
		return FALSE;
	size = DevicePathSize((EFI_DEVICE_PATH *)a);
	return size == DevicePathSize((EFI_DEVICE_PATH *)b) && CompareMem(a, b, size) == 0;
}

/*
 * Older firmware has only this protocol, which sees a device path and no
 * buffer: the policy then reads the file itself, as systemd-boot does. EDK2
 * with both calls it after the second, for images from its own volumes only.
 */
static EFI_STATUS EFIAPI security_hook(const struct security_protocol *this, UINT32 status,
				       const EFI_DEVICE_PATH *file)
{
	_cleanup_(efi_file_data_free) struct efi_file_data data = {};

	if (override.buffer && same_path(file, override.path))
		return EFI_SUCCESS;
	if (!override.verifier || override.security2 || !file)
		return override.original(this, status, file);
	if (efi_file_read_device_path(file, &data) == EFI_NOT_FOUND)
		return override.original(this, status, file); /* not on a file system */
	return data.data && policy_allows(file, data.data, data.size) ? EFI_SUCCESS :
									EFI_ACCESS_DENIED;
}

static void hooks_hold(void)
{
	if (override.users++)
		return;
	/* Either may be absent: without them the firmware does no checks to override. */
	override.security = NULL;
	override.security2 = NULL;
	LibLocateProtocol(&security_arch_protocol_guid, (void **)&override.security);
	LibLocateProtocol(&security2_arch_protocol_guid, (void **)&override.security2);
	if (override.security) {
		override.original = override.security->file_authentication_state;
		override.security->file_authentication_state = security_hook;
	}
	if (override.security2) {
		override.original2 = override.security2->file_authentication;
		override.security2->file_authentication = security2_hook;
	}
}

static void hooks_release(void)
{
	if (--override.users)
		return;
	/*
	 * A second stage that hooked the same functions on top of ours (as
	 * systemd-boot does) restores its own before it returns; if one did
	 * not, restoring the original would cut it out, so leave it be.
	 */
	if (override.security2) {
		if (override.security2->file_authentication == security2_hook)
			override.security2->file_authentication = override.original2;
		else
			log_error(EFI_ACCESS_DENIED, L"Security2 hooked over lockshim: left alone");
	}
	if (override.security) {
		if (override.security->file_authentication_state == security_hook)
			override.security->file_authentication_state = override.original;
		else
			log_error(EFI_ACCESS_DENIED, L"Security hooked over lockshim: left alone");
	}
}

EFI_STATUS efi_load_verified_image(EFI_HANDLE parent, EFI_DEVICE_PATH *path, void *buffer,
				   UINTN size, EFI_HANDLE *image)
{
	EFI_STATUS status;

	hooks_hold();
	override.buffer = buffer;
	override.size = size;
	override.path = path;
	status = BS->LoadImage(FALSE, parent, path, buffer, size, image);
	override.buffer = NULL;
	override.size = 0;
	override.path = NULL;
	hooks_release();
	return status;
}

void efi_security_policy_install(const struct efi_verifier *verifier)
{
	hooks_hold();
	override.verifier = verifier;
}

void efi_security_policy_remove(void)
{
	override.verifier = NULL;
	hooks_release();
}
