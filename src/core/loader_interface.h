/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The variables of systemd's Boot Loader Interface that belong to a boot
 * loader (systemd's docs/BOOT_LOADER_INTERFACE.md; bootctl status prints
 * them), as systemd-boot 252 formats them: NUL-terminated UTF-16 strings.
 *
 *   LoaderInfo             "lockshim VERSION", what the banner prints
 *   LoaderFirmwareInfo     "%s %u.%02u": the firmware vendor, the firmware
 *                          revision's high and low 16 bits
 *   LoaderFirmwareType     "UEFI %u.%02u": the system table's revision
 *   LoaderTimeInitUSec,    decimal microseconds from the TSC: ticks *
 *   LoaderTimeExecUSec     10^6 / frequency, the frequency the ticks of a
 *                          1 ms stall times 1000 (systemd-boot 252's
 *                          ticks.c); none when either is 0
 *   LoaderDevicePartUUID   the unique GUID of the GPT partition of the
 *                          HD() node of lockshim's device path, 8-4-4-4-12
 *                          uppercase hex digits, as gnu-efi's GuidToString
 *   LoaderImageIdentifier  lockshim's path on the ESP (the firmware shell
 *                          joins its file path nodes, efi_file.c)
 *
 * No firmware calls: the shell (src/efi/efi_loader_interface.c) reads the
 * values and writes the variables. What the firmware gives is hostile: a
 * string is read up to its NUL or as far as the text has room, a device
 * path node by node (device_path.h), the arithmetic overflow-checked.
 */
#ifndef LOCKSHIM_LOADER_INTERFACE_H
#define LOCKSHIM_LOADER_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

/* Room for a variable's text in UTF-16 code units, its NUL included. */
#define LOADER_TEXT_MAX 256

/* A variable's value: @size bytes of @text, the NUL included. */
struct loader_text {
	uint16_t text[LOADER_TEXT_MAX];
	size_t size;
};

/* LoaderInfo: "lockshim " and @version (printable ASCII). Returns 0, or -1 with a reason. */
int loader_info_text(const char *version, struct loader_text *out, const char **reason);

/*
 * LoaderFirmwareInfo from the system table's FirmwareVendor @vendor (read
 * up to its NUL, at most LOADER_TEXT_MAX code units of it) and
 * FirmwareRevision @revision. Returns 0, or -1 with a reason (no vendor,
 * one too long for the text).
 */
int loader_firmware_info_text(const uint16_t *vendor, uint32_t revision, struct loader_text *out,
			      const char **reason);

/* LoaderFirmwareType from the system table header's Revision @revision. */
void loader_firmware_type_text(uint32_t revision, struct loader_text *out);

/*
 * The TSC's frequency in Hz from its ticks @start and @end around a 1 ms
 * stall, as systemd-boot 252 measures it: (end - start) * 1000; 0 when
 * the counter did not move forward or the product overflows.
 */
uint64_t loader_tsc_frequency(uint64_t start, uint64_t end);

/*
 * Microseconds of @ticks at @frequency Hz, rounded down: 0 (no time to
 * set) when either is 0 or the result does not fit in 64 bits. Unlike
 * systemd-boot 252's 64-bit product ticks * 10^6, which wraps once the
 * TSC passes about 1.8 * 10^13 (some 100 minutes at 3 GHz), this is exact.
 */
uint64_t loader_time_usec(uint64_t ticks, uint64_t frequency);

/* LoaderTimeInitUSec, LoaderTimeExecUSec: @usec in decimal. */
void loader_usec_text(uint64_t usec, struct loader_text *out);

/*
 * LoaderDevicePartUUID from the device path at @dp, walked node by node
 * within @size bytes and never past its end node: the GUID of the first
 * HD() node of a GPT partition. Returns 1 with *@out set, 0 when there is
 * none (a disk without a partition table, an MBR partition, a zero GUID),
 * -1 with a reason for a malformed path.
 */
int loader_device_part_uuid_text(const uint8_t *dp, size_t size, struct loader_text *out,
				 const char **reason);

#endif
