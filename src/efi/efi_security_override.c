// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_security_override.h"

#include <efilib.h>

#include "device_path.h"
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
	EFI_IMAGE_LOAD original_load_image; /* firmware with Security alone: see load_image_hook */
	UINTN users;
	/* the one image in flight that lockshim verified (NULL: none): approved by exactly these */
	const void *buffer;
	UINTN size;
	const EFI_DEVICE_PATH *path;
	/* efi_security_policy_install: a second stage runs */
	const struct efi_verifier *verifier;
} override;

/*
 * An image from one of the firmware's own volumes (its shell, UiApp, a
 * driver), as EDK2's DxeImageVerificationLib tells them apart: the device
 * path leads to a handle with the firmware-volume protocol. The firmware's
 * handlers decide those as they would without lockshim, measurements
 * included; nothing on a disk can have that path.
 */
static BOOLEAN from_firmware_volume(const EFI_DEVICE_PATH *file)
{
	EFI_DEVICE_PATH *rest = (EFI_DEVICE_PATH *)file;
	EFI_HANDLE device;

	return file &&
	       !EFI_ERROR(BS->LocateDevicePath(&firmware_volume2_protocol_guid, &rest, &device));
}

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
 *  - the firmware's own images (from_firmware_volume) go to the original
 *    handlers untouched, measurements included.
 */
static BOOLEAN policy_allows(const EFI_DEVICE_PATH *file, const void *buffer, UINTN size)
{
	/* the hooks refused a malformed @file before: gnu-efi walks it unbounded */
	_cleanup_pool_ CHAR16 *name = file ? DevicePathToStr((EFI_DEVICE_PATH *)file) : NULL;

	return !EFI_ERROR(efi_verify_image(override.verifier, buffer, size, VERIFY_FOR_LOADER,
					   name ? name : L"an image of the second stage", "loading",
					   file));
}

/*
 * Whether @file, a device path a caller of LoadImage gave, may be walked:
 * none, or one whose every node has at least its header and that ends
 * within DEVICE_PATH_BOUND bytes (device_path_size). A malformed one is
 * refused with its reason: gnu-efi's walks (and perhaps the firmware's
 * LocateDevicePath) would loop on a zero-length node.
 */
static BOOLEAN path_usable(const EFI_DEVICE_PATH *file)
{
	const char *reason;
	size_t size;

	if (!file ||
	    device_path_size((const uint8_t *)file, DEVICE_PATH_BOUND, &size, &reason) == 0)
		return TRUE;
	log_error("refusing an image whose device path is malformed: %s", reason);
	return FALSE;
}

static BOOLEAN same_path(const EFI_DEVICE_PATH *a, const EFI_DEVICE_PATH *b)
{
	size_t size_a, size_b;
	const char *reason;

	if (!a || !b)
		return a == b;
	if (device_path_size((const uint8_t *)a, DEVICE_PATH_BOUND, &size_a, &reason) < 0 ||
	    device_path_size((const uint8_t *)b, DEVICE_PATH_BOUND, &size_b, &reason) < 0)
		return FALSE;
	return size_a == size_b && CompareMem(a, b, size_a) == 0;
}

static EFI_STATUS EFIAPI security2_hook(const struct security2_protocol *this,
					const EFI_DEVICE_PATH *file, VOID *file_buffer,
					UINTN file_size, BOOLEAN boot_policy)
{
	/* lockshim verified and measured these very bytes */
	if (override.buffer && file_buffer == override.buffer && file_size == override.size)
		return EFI_SUCCESS;
	if (!override.verifier)
		return override.original2(this, file, file_buffer, file_size, boot_policy);
	if (!path_usable(file))
		return EFI_ACCESS_DENIED;
	if (from_firmware_volume(file))
		return override.original2(this, file, file_buffer, file_size, boot_policy);
	if (!file_buffer || !file_size) {
		log_error("refusing an image the firmware did not show");
		return EFI_ACCESS_DENIED;
	}
	return policy_allows(file, file_buffer, file_size) ? EFI_SUCCESS : EFI_ACCESS_DENIED;
}

/*
 * Firmware with Security alone (older than PI 1.2.1) shows this hook a
 * device path and no buffer, so what it approves must be what
 * load_image_hook verified: the bytes it handed the firmware, in flight
 * now. Any other image, but the firmware's own, is refused: nothing here
 * could tell which bytes the firmware is about to start.
 */
static EFI_STATUS EFIAPI security_hook(const struct security_protocol *this, UINT32 status,
				       const EFI_DEVICE_PATH *file)
{
	if (override.buffer && same_path(file, override.path))
		return EFI_SUCCESS;
	if (!override.verifier || override.security2)
		return override.original(this, status, file);
	if (!path_usable(file))
		return EFI_ACCESS_DENIED;
	if (from_firmware_volume(file))
		return override.original(this, status, file);
	log_error("refusing an image loaded past lockshim's LoadImage");
	return EFI_ACCESS_DENIED;
}

/* Mark @buffer (never NULL) as lockshim's verified image for one call of the firmware's LoadImage. */
static EFI_STATUS load_in_flight(BOOLEAN boot_policy, EFI_HANDLE parent,
				 const EFI_DEVICE_PATH *path, void *buffer, UINTN size,
				 EFI_HANDLE *image)
{
	EFI_IMAGE_LOAD load = override.original_load_image ?: BS->LoadImage;
	EFI_STATUS status;

	override.buffer = buffer;
	override.size = size;
	override.path = path;
	status = load(boot_policy, parent, (EFI_DEVICE_PATH *)path, buffer, size, image);
	override.buffer = NULL;
	override.size = 0;
	override.path = NULL;
	return status;
}

/*
 * BS->LoadImage while lockshim holds the hooks on firmware with Security
 * alone, as rhboot/shim hooks it: the image a second stage loads is read
 * here (when it passes no buffer), verified, and handed to the firmware as
 * that buffer, so the firmware starts exactly the bytes the policy allowed;
 * one it cannot read is refused, never left to the firmware's db check.
 */
static EFI_STATUS EFIAPI load_image_hook(BOOLEAN boot_policy, EFI_HANDLE parent,
					 EFI_DEVICE_PATH *path, VOID *buffer, UINTN size,
					 EFI_HANDLE *image)
{
	_cleanup_(efi_file_data_free) struct efi_file_data file = {};
	EFI_STATUS status;

	if (override.buffer || !override.verifier)
		return override.original_load_image(boot_policy, parent, path, buffer, size, image);
	if (!path_usable(path))
		return EFI_ACCESS_DENIED;
	if (from_firmware_volume(path))
		return override.original_load_image(boot_policy, parent, path, buffer, size, image);
	if (!buffer) {
		if (!path)
			return EFI_INVALID_PARAMETER;
		status = efi_file_read_device_path(path, &file);
		if (EFI_ERROR(status)) {
			log_error_status(status, "refusing an image it cannot read");
			return EFI_ACCESS_DENIED;
		}
		buffer = file.data;
		size = file.size;
	}
	if (!policy_allows(path, buffer, size))
		return EFI_ACCESS_DENIED;
	return load_in_flight(boot_policy, parent, path, buffer, size, image);
}

/* Point BS->LoadImage at @load, keeping the table's checksum right. */
static void boot_services_set_load_image(EFI_IMAGE_LOAD load)
{
	BS->LoadImage = load;
	BS->Hdr.CRC32 = 0;
	BS->CalculateCrc32(BS, BS->Hdr.HeaderSize, &BS->Hdr.CRC32);
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
	} else if (override.security) {
		override.original_load_image = BS->LoadImage;
		boot_services_set_load_image(load_image_hook);
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
			log_warning("Security2 hooked over lockshim: left alone");
	}
	if (override.security) {
		if (override.security->file_authentication_state == security_hook)
			override.security->file_authentication_state = override.original;
		else
			log_warning("Security hooked over lockshim: left alone");
	}
	if (override.original_load_image) {
		if (BS->LoadImage == load_image_hook)
			boot_services_set_load_image(override.original_load_image);
		else
			log_warning("LoadImage hooked over lockshim: left alone");
		override.original_load_image = NULL;
	}
}

EFI_STATUS efi_load_verified_image(EFI_HANDLE parent, EFI_DEVICE_PATH *path, void *buffer,
				   UINTN size, EFI_HANDLE *image)
{
	EFI_STATUS status;

	hooks_hold();
	status = load_in_flight(FALSE, parent, path, buffer, size, image);
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
