/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The fallback: when the firmware starts lockshim from the removable path
 * (\EFI\BOOT\BOOTX64.EFI), the boot options a distribution asks for in
 * \EFI\<vendor>\BOOTX64.CSV, in rhboot/shim's fallback format:
 *
 *   UCS-2 little-endian text, with or without a byte order mark, CRLF or
 *   LF line ends, one option a line:  filename,label,options,comment
 *
 * filename is relative to the vendor directory; label becomes the option's
 * description; options (may be empty) its optional data, the load options
 * the image is started with; the comment (which may hold commas) is
 * ignored. What is parsed here, built here and decided here is all that
 * the firmware shell (src/efi/efi_fallback.c) needs besides firmware calls:
 * the CSV, the EFI_LOAD_OPTION written as efibootmgr and shim write it
 * (HD() node of the partition, file path node, end node; the options as a
 * NUL-terminated UCS-2 string), whether an existing option already points
 * to a file, and the new BootOrder.
 *
 * The CSV, the directory names and the variables are hostile: every size
 * is bounded, every length checked, and a CSV is taken whole or not at
 * all (the first bad line refuses it, with its number).
 */
#ifndef LOCKSHIM_FALLBACK_H
#define LOCKSHIM_FALLBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot_option.h"
#include "reason.h"

#define FALLBACK_CSV_MAX_SIZE (64 * 1024) /* bytes: a CSV holds a few short lines */
#define FALLBACK_MAX_ENTRIES  16          /* lines that name an option, per CSV */
#define FALLBACK_NAME_MAX     128         /* characters of a vendor directory or file name */
#define FALLBACK_LABEL_MAX    (BOOT_OPTION_MAX_DESC - 1)
/* characters of the options: far under any firmware's variable size limit */
#define FALLBACK_OPTIONS_MAX 1024
/* \EFI\<dir>\<file> */
#define FALLBACK_PATH_MAX     (5 + FALLBACK_NAME_MAX + 1 + FALLBACK_NAME_MAX)
#define FALLBACK_HD_NODE_SIZE 42
/* attributes, path list length, label, HD(), file path node, end node, options */
#define FALLBACK_LOAD_OPTION_MAX                                        \
	(6 + 2 * (FALLBACK_LABEL_MAX + 1) + FALLBACK_HD_NODE_SIZE + 4 + \
	 2 * (FALLBACK_PATH_MAX + 1) + 4 + 2 * (FALLBACK_OPTIONS_MAX + 1))

/* One line of a CSV: UCS-2 strings, each NUL-terminated. */
struct fallback_entry {
	size_t line; /* its line number in the file, from 1 */
	uint16_t file[FALLBACK_NAME_MAX + 1];
	size_t file_len;
	uint16_t label[FALLBACK_LABEL_MAX + 1];
	size_t label_len;
	uint16_t options[FALLBACK_OPTIONS_MAX + 1];
	size_t options_len;
};

struct fallback_csv {
	size_t count;
	struct fallback_entry entry[FALLBACK_MAX_ENTRIES];
};

/* An image's path on the partition, \EFI\<dir>\<file>, in both encodings. */
struct fallback_path {
	uint16_t ucs2[FALLBACK_PATH_MAX + 1];
	char ascii[FALLBACK_PATH_MAX + 1];
	size_t len;
};

/*
 * The @size bytes of a BOOTX64.CSV at @data into @out. A NUL character
 * ends the text, as for shim. Returns 0, or -1 with a reason ("line 2:
 * ...", formatted into @buf) for a file that is too large, not UCS-2
 * little-endian, a line without a file name or a label, a file name that
 * is not a plain printable ASCII name in the vendor directory (no '\', '/'
 * or ':', not "." or ".."), a label or options with control characters,
 * a field too long, too many lines, or no line at all.
 */
int fallback_csv_parse(const uint8_t *data, size_t size, struct fallback_csv *out,
		       struct reason_buf *buf, const char **reason);

/*
 * Whether the directory @name (@len characters) of \EFI\ is a vendor
 * directory whose CSV counts: 1 when it is, 0 for ".", ".." and BOOT (any
 * case), -1 with a reason for a name that is not printable ASCII or longer
 * than FALLBACK_NAME_MAX (its options could not be matched).
 */
int fallback_vendor_dir(const uint16_t *name, size_t len, const char **reason);

/* \EFI\@dir\<@entry's file> into @out (@dir checked by fallback_vendor_dir). */
void fallback_entry_path(const uint16_t *dir, size_t dir_len, const struct fallback_entry *entry,
			 struct fallback_path *out);

/*
 * The EFI_LOAD_OPTION for @entry: active, its label as description, the
 * device path @hd (the FALLBACK_HD_NODE_SIZE bytes of the partition's
 * HD() node, device_path_gpt_find) + @path + end, and the entry's options
 * as a NUL-terminated UCS-2 string when it has any (none otherwise), into
 * @out (FALLBACK_LOAD_OPTION_MAX bytes); returns its size.
 */
size_t fallback_load_option(const uint8_t *hd, const struct fallback_entry *entry,
			    const struct fallback_path *path, uint8_t *out);

/*
 * Whether the parsed option @option starts the file @path (ASCII, case
 * insensitive, as FAT names are) on the partition @guid: a file option
 * whose path is @path and whose HD() node, if it has one, names @guid.
 */
bool fallback_option_matches(const struct boot_option *option, const char *path, const char *guid);

/*
 * The option number of the variable name @name (@len characters, no NUL):
 * 0 to 0xffff for "Boot" followed by four hex digits, -1 for any other.
 */
int fallback_option_number(const uint16_t *name, size_t len);

/* Whether @number is one of the @count numbers at @order. */
bool fallback_order_has(const uint16_t *order, size_t count, uint16_t number);

/*
 * The new BootOrder: the @first_count numbers at @first, then the @count
 * of the old one at @order without them, each number once, into @out
 * (BOOT_ORDER_MAX), *@out_count set. Returns 1 when it differs from the
 * old one, 0 when it is the same, -1 with a reason when it would be longer
 * than BOOT_ORDER_MAX.
 */
int fallback_boot_order(const uint16_t *order, size_t count, const uint16_t *first,
			size_t first_count, uint16_t *out, size_t *out_count, const char **reason);

#endif
