// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_loader_interface.h"

#include <efilib.h>

#include "cpu_features.h"
#include "device_path.h"
#include "efi_cleanup.h"
#include "efi_file.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"
#include "loader_interface.h"

#define TSC_STALL_USEC 1000 /* the TSC counted over 1 ms, as systemd-boot 252 does */

/* The variables, in the order systemd-boot 252 sets them. */
enum loader_variable {
	LOADER_TIME_INIT,
	LOADER_INFO,
	LOADER_FIRMWARE_INFO,
	LOADER_FIRMWARE_TYPE,
	LOADER_IMAGE_IDENTIFIER,
	LOADER_DEVICE_PART_UUID,
	LOADER_TIME_EXEC,
	N_LOADER_VARIABLES,
};

/* Their entries in the table (variables.c: volatile, BS|RT, as systemd-boot sets them). */
static const enum variable_id loader_variable_ids[N_LOADER_VARIABLES] = {
	[LOADER_TIME_INIT] = VAR_LOADER_TIME_INIT_USEC,
	[LOADER_INFO] = VAR_LOADER_INFO,
	[LOADER_FIRMWARE_INFO] = VAR_LOADER_FIRMWARE_INFO,
	[LOADER_FIRMWARE_TYPE] = VAR_LOADER_FIRMWARE_TYPE,
	[LOADER_IMAGE_IDENTIFIER] = VAR_LOADER_IMAGE_IDENTIFIER,
	[LOADER_DEVICE_PART_UUID] = VAR_LOADER_DEVICE_PART_UUID,
	[LOADER_TIME_EXEC] = VAR_LOADER_TIME_EXEC_USEC,
};
#define loader_variable_name(variable) EFI_VAR_NAME(loader_variable_ids[variable])

UINT64 efi_loader_ticks(void)
{
	return cpu_in_hypervisor() ? 0 : cpu_tsc_read();
}

/* Set @variable to @size bytes at @data; a failure is a warning. Adds it to *@set. */
static void loader_variable_set(enum loader_variable variable, const void *data, UINTN size,
				UINT32 *set)
{
	EFI_STATUS status;

	status = efi_var_set_volatile(loader_variable_name(variable), &loader_interface_guid, data,
				      size);
	if (EFI_ERROR(status)) {
		log_warning_status(status, "Boot Loader Interface: cannot set %ls: %m",
				   loader_variable_name(variable));
		return;
	}
	*set |= 1u << variable;
}

static void loader_text_set(enum loader_variable variable, const struct loader_text *text,
			    UINT32 *set)
{
	loader_variable_set(variable, text->text, text->size, set);
}

/* The core's text, or the reason it has none said as a warning. */
static void loader_text_set_or_warn(enum loader_variable variable, int r,
				    const struct loader_text *text, const char *reason, UINT32 *set)
{
	if (r < 0)
		log_warning("Boot Loader Interface: no %ls: %s", loader_variable_name(variable),
			    reason);
	else
		loader_text_set(variable, text, set);
}

/* LoaderTimeInitUSec or LoaderTimeExecUSec of @ticks at @frequency; none for 0. */
static void loader_time_set(enum loader_variable variable, UINT64 ticks, UINT64 frequency,
			    UINT32 *set)
{
	UINT64 usec = loader_time_usec(ticks, frequency);
	struct loader_text text;

	if (usec == 0)
		return;
	loader_usec_text(usec, &text);
	loader_text_set(variable, &text, set);
}

/* LoaderImageIdentifier: lockshim's path on its device, from its loaded image. */
static void image_identifier_set(const EFI_LOADED_IMAGE *self, UINT32 *set)
{
	_cleanup_pool_ CHAR16 *path = efi_file_path_text(self->FilePath);

	if (!path)
		log_warning("Boot Loader Interface: no %ls: out of memory or a malformed path",
			    loader_variable_name(LOADER_IMAGE_IDENTIFIER));
	else if (!path[0])
		log_info("Boot Loader Interface: no %ls: lockshim's image has no file path",
			 loader_variable_name(LOADER_IMAGE_IDENTIFIER));
	else
		loader_variable_set(LOADER_IMAGE_IDENTIFIER, path, StrSize(path), set);
}

/* LoaderDevicePartUUID: the GPT partition of lockshim's device, when it is one. */
static void device_part_uuid_set(const EFI_LOADED_IMAGE *self, UINT32 *set)
{
	EFI_DEVICE_PATH *device = DevicePathFromHandle(self->DeviceHandle);
	struct loader_text text;
	const char *reason = NULL;
	int r = 0;

	if (device)
		r = loader_device_part_uuid_text((const UINT8 *)device, DEVICE_PATH_BOUND, &text,
						 &reason);
	if (r == 0)
		log_info("Boot Loader Interface: no %ls: lockshim's device is not a GPT partition",
			 loader_variable_name(LOADER_DEVICE_PART_UUID));
	else
		loader_text_set_or_warn(LOADER_DEVICE_PART_UUID, r, &text, reason, set);
}

/* The TSC's frequency, counted over a stall as systemd-boot 252 counts it. */
static UINT64 tsc_frequency(void)
{
	UINT64 start = cpu_tsc_read();

	BS->Stall(TSC_STALL_USEC);
	return loader_tsc_frequency(start, cpu_tsc_read());
}

/* "LoaderInfo, LoaderFirmwareInfo, ..." of the variables in @set, into @line. */
static void variable_list(UINT32 set, char *line, UINTN size)
{
	UINTN len = 0;

	line[0] = '\0';
	for (UINTN v = 0; v < N_LOADER_VARIABLES; v++) {
		if (!(set & (1u << v)))
			continue;
		if (len && len + 2 < size) {
			line[len++] = ',';
			line[len++] = ' ';
		}
		for (const CHAR16 *c = loader_variable_name(v); *c && len + 1 < size; c++)
			line[len++] = (char)*c; /* the names are ASCII */
		line[len] = '\0';
	}
}

void efi_loader_interface_set(EFI_HANDLE image, const char *version, UINT64 init_ticks)
{
	static BOOLEAN done;
	EFI_LOADED_IMAGE *self;
	struct loader_text text;
	const char *reason = NULL;
	UINT64 frequency = 0;
	UINT32 set = 0;
	char line[256];
	int r;

	if (done)
		return;
	done = TRUE;

	if (init_ticks) {
		frequency = tsc_frequency();
		loader_time_set(LOADER_TIME_INIT, init_ticks, frequency, &set);
	}
	r = loader_info_text(version, &text, &reason);
	loader_text_set_or_warn(LOADER_INFO, r, &text, reason, &set);
	r = loader_firmware_info_text(ST->FirmwareVendor, ST->FirmwareRevision, &text, &reason);
	loader_text_set_or_warn(LOADER_FIRMWARE_INFO, r, &text, reason, &set);
	loader_firmware_type_text(ST->Hdr.Revision, &text);
	loader_text_set(LOADER_FIRMWARE_TYPE, &text, &set);
	if (EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self))) {
		log_warning("Boot Loader Interface: no %ls, %ls: no loaded image protocol",
			    loader_variable_name(LOADER_IMAGE_IDENTIFIER),
			    loader_variable_name(LOADER_DEVICE_PART_UUID));
	} else {
		image_identifier_set(self, &set);
		device_part_uuid_set(self, &set);
	}
	if (!init_ticks)
		log_info("Boot Loader Interface: no %ls, %ls: the CPU reports a hypervisor",
			 loader_variable_name(LOADER_TIME_INIT),
			 loader_variable_name(LOADER_TIME_EXEC));
	else if (!frequency)
		log_info("Boot Loader Interface: no %ls, %ls: the TSC did not count over 1 ms",
			 loader_variable_name(LOADER_TIME_INIT),
			 loader_variable_name(LOADER_TIME_EXEC));

	variable_list(set, line, sizeof(line));
	log_info("Boot Loader Interface: %s set%s", set ? line : "nothing",
		 frequency ? ", LoaderTimeExecUSec next" : "");
	/* last, nothing said after it: as close to the next stage's start as it gets */
	if (frequency)
		loader_time_set(LOADER_TIME_EXEC, efi_loader_ticks(), frequency, &set);
}
