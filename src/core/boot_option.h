/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The firmware boot manager's variables, as `lockshim check` reads them
 * from a copy of efivarfs (UEFI 2.10, 3.1.3 "Load Options"):
 *
 *   BootOrder   UINT16 option numbers
 *   Boot####    EFI_LOAD_OPTION: UINT32 Attributes, UINT16
 *               FilePathListLength, a NUL-terminated UCS-2 Description,
 *               FilePathListLength bytes of device path, then OptionalData
 *               (the load options lockshim or shim is started with)
 *
 * All of it is hostile: every length is checked before it is used, and a
 * device path is walked node by node up to its end node.
 */
#ifndef LOCKSHIM_BOOT_OPTION_H
#define LOCKSHIM_BOOT_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOT_ORDER_MAX       512
#define BOOT_OPTION_MAX_PATH 512 /* characters of a file path, as load_options.h's */
#define BOOT_OPTION_MAX_DESC 256
#ifndef LOAD_OPTION_ACTIVE /* gnu-efi's efilib.h has it too, for the firmware shell */
#define LOAD_OPTION_ACTIVE 0x00000001u
#endif
#ifndef LOAD_OPTION_CATEGORY
#define LOAD_OPTION_CATEGORY      0x00001f00u
#define LOAD_OPTION_CATEGORY_BOOT 0x00000000u
#endif
#define BOOT_OPTION_GUID_TEXT 37

/* Where a boot option's image is. */
enum boot_option_target {
	BOOT_TARGET_FILE,     /* a file on a disk partition: path (and partition GUID if given) */
	BOOT_TARGET_FIRMWARE, /* an application inside the firmware (its shell, UiApp) */
	BOOT_TARGET_OTHER,    /* a device with no file path (network, a removable disk) */
};

struct boot_option {
	uint32_t attributes;
	char description[BOOT_OPTION_MAX_DESC]; /* printable ASCII; others as '?' */
	enum boot_option_target target;
	/* the file path nodes joined, '\' separators, ASCII; empty when none */
	char path[BOOT_OPTION_MAX_PATH];
	/* the GPT partition's unique GUID (lowercase text) of an HD() node; empty when none */
	char partition_guid[BOOT_OPTION_GUID_TEXT];
	const uint8_t *optional_data; /* points into the variable; NULL when none */
	size_t optional_data_size;
};

/*
 * The @size bytes of a BootOrder variable's data at @data as option numbers
 * into @out (BOOT_ORDER_MAX of them), *@count set. Returns 0, or -1 with a
 * reason (an odd size, too many options).
 */
int boot_order_parse(const uint8_t *data, size_t size, uint16_t *out, size_t *count,
		     const char **reason);

/*
 * The @size bytes of a Boot#### variable's data at @data into @out.
 * Returns 0, or -1 with a reason (a length past the data, a description
 * without its terminator, a device path node that is too short or runs
 * past the path list, a file path that is not ASCII or too long).
 */
int boot_option_parse(const uint8_t *data, size_t size, struct boot_option *out,
		      const char **reason);

#endif
