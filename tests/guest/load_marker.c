// SPDX-License-Identifier: GPL-2.0-only
/*
 * load_marker.efi: the image that shim_lock_probe.efi LoadImage's and
 * StartImage's through the firmware, and that the firmware's boot manager
 * may start from a boot entry. It prints one line,
 *
 *   LOADMARKER running <its file path>
 *
 * the proof that these very bytes ran, and returns EFI_ABORTED: an error, so
 * that the boot manager goes on to the next boot entry (after EFI_SUCCESS
 * it would open its menu and wait for a key). Built by tests/guest/build.sh.
 */
#include <efi.h>
#include <efilib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	EFI_LOADED_IMAGE *self;
	CHAR16 *path = NULL;

	InitializeLib(image, system_table);
	if (!EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self)) &&
	    self->FilePath)
		path = DevicePathToStr(self->FilePath);
	Print(L"LOADMARKER running %s\n", path ? path : L"(unknown path)");
	if (path)
		FreePool(path);
	return EFI_ABORTED;
}
