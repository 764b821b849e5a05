// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "fallback.h"

#include <string.h>

#include "device_path.h"
#include "safe_math.h"

#define BOM         0xfeff
#define BOM_SWAPPED 0xfffe

/* A field of a line: @len characters from @at (a character index into the text). */
struct field {
	size_t at;
	size_t len;
};

/* One line of the CSV being parsed: the text, its number, the reason buffer. */
struct csv_line {
	const uint8_t *text; /* the CSV's characters, little-endian */
	size_t line;
	struct reason_buf *buf;
};

static uint16_t char_at(const uint8_t *text, size_t i)
{
	return read_le16(text + 2 * i);
}

static uint16_t ascii_lower(uint16_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint16_t)(c + ('a' - 'A')) : c;
}

/* A character a label or the options may hold: no control character, surrogate or non-character. */
static bool printable(uint16_t c)
{
	return c >= 0x20 && c != 0x7f && !(c >= 0x80 && c < 0xa0) && !(c >= 0xd800 && c < 0xe000) &&
	       c != BOM_SWAPPED && c != 0xffff;
}

/* A character of a file or directory name: printable ASCII, no separator or drive colon. */
static bool name_char(uint16_t c)
{
	return c >= 0x20 && c < 0x7f && c != '\\' && c != '/' && c != ':';
}

/* Whether the @len characters at @name are "." or "..". */
static bool dot_name(const uint16_t *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

/* Copy @f of @l's text into @out (@max characters and a NUL), checking each with @ok. */
static int field_copy(const struct csv_line *l, struct field f, const char *what, size_t max,
		      bool (*ok)(uint16_t), uint16_t *out, size_t *len, const char **reason)
{
	if (f.len > max)
		return refusef(reason, l->buf, "line %zu: %s longer than %zu characters", l->line,
			       what, max);
	for (size_t i = 0; i < f.len; i++) {
		uint16_t c = char_at(l->text, f.at + i);

		if (!ok(c))
			return refusef(reason, l->buf, "line %zu: %s has character U+%04X", l->line,
				       what, c);
		out[i] = c;
	}
	out[f.len] = 0;
	*len = f.len;
	return 0;
}

/* The next field of the line [*at, end): up to a comma, or the rest when @last. */
static struct field next_field(const uint8_t *text, size_t *at, size_t end, bool last)
{
	struct field f = { .at = *at };

	while (*at < end && (last || char_at(text, *at) != ','))
		(*at)++;
	f.len = *at - f.at;
	if (*at < end)
		(*at)++; /* the comma */
	return f;
}

/* The line [start, end) of @l's text into @out. */
static int parse_line(const struct csv_line *l, size_t start, size_t end,
		      struct fallback_entry *out, const char **reason)
{
	struct field file, label, options;
	size_t at = start;
	bool has_label;

	file = next_field(l->text, &at, end, false);
	has_label = at > file.at + file.len; /* a comma followed the file name */
	label = next_field(l->text, &at, end, false);
	options = next_field(l->text, &at, end, false);
	/* the comment, commas and all, is not read */

	out->line = l->line;
	if (file.len == 0)
		return refusef(reason, l->buf, "line %zu: no file name", l->line);
	if (!has_label || label.len == 0)
		return refusef(reason, l->buf, "line %zu: no label", l->line);
	if (field_copy(l, file, "file name", FALLBACK_NAME_MAX, name_char, out->file,
		       &out->file_len, reason) < 0 ||
	    field_copy(l, label, "label", FALLBACK_LABEL_MAX, printable, out->label,
		       &out->label_len, reason) < 0 ||
	    field_copy(l, options, "options", FALLBACK_OPTIONS_MAX, printable, out->options,
		       &out->options_len, reason) < 0)
		return -1;
	if (dot_name(out->file, out->file_len))
		return refusef(reason, l->buf, "line %zu: file name is a directory", l->line);
	return 0;
}

int fallback_csv_parse(const uint8_t *data, size_t size, struct fallback_csv *out,
		       struct reason_buf *buf, const char **reason)
{
	struct csv_line l = { .text = data, .buf = buf };
	size_t chars, at = 0;

	out->count = 0;
	if (size > FALLBACK_CSV_MAX_SIZE)
		return refusef(reason, buf, "larger than %d bytes", FALLBACK_CSV_MAX_SIZE);
	if (size % 2)
		return refuse(reason, "not UCS-2 text: an odd number of bytes");
	chars = size / 2;
	for (size_t i = 0; i < chars; i++) /* a NUL ends the text, as shim reads it */
		if (char_at(data, i) == 0) {
			chars = i;
			break;
		}
	if (chars && char_at(data, 0) == BOM_SWAPPED)
		return refuse(reason, "big-endian UCS-2 (UEFI's is little-endian)");
	if (chars && char_at(data, 0) == BOM)
		at = 1;

	while (at < chars) {
		size_t end = at;
		bool blank = true;

		while (end < chars && char_at(data, end) != '\n' && char_at(data, end) != '\r') {
			if (char_at(data, end) != ' ' && char_at(data, end) != '\t')
				blank = false;
			end++;
		}
		/* a CR, LF or CRLF ends a line: count LF and lone CR as one each */
		if (!(at > 0 && at == end && char_at(data, at) == '\n' &&
		      char_at(data, at - 1) == '\r'))
			l.line++;
		if (!blank) {
			if (out->count == FALLBACK_MAX_ENTRIES)
				return refusef(reason, buf, "line %zu: more than %d options",
					       l.line, FALLBACK_MAX_ENTRIES);
			if (parse_line(&l, at, end, &out->entry[out->count], reason) < 0)
				return -1;
			out->count++;
		}
		at = end < chars ? end + 1 : end;
	}
	if (out->count == 0)
		return refuse(reason, "names no boot option");
	return 0;
}

int fallback_vendor_dir(const uint16_t *name, size_t len, const char **reason)
{
	static const char boot[] = "boot";
	bool is_boot = len == sizeof(boot) - 1;

	if (dot_name(name, len))
		return 0;
	for (size_t i = 0; is_boot && i < len; i++)
		is_boot = ascii_lower(name[i]) == (uint8_t)boot[i];
	if (is_boot)
		return 0;
	if (len == 0 || len > FALLBACK_NAME_MAX)
		return refuse(reason, "directory name empty or too long");
	for (size_t i = 0; i < len; i++)
		if (!name_char(name[i]))
			return refuse(reason, "directory name is not printable ASCII");
	return 1;
}

void fallback_entry_path(const uint16_t *dir, size_t dir_len, const struct fallback_entry *entry,
			 struct fallback_path *out)
{
	static const char efi[] = "\\EFI\\";
	size_t n = 0;

	/* the caller checked both names: the path fits FALLBACK_PATH_MAX, in ASCII */
	for (size_t i = 0; i < sizeof(efi) - 1; i++)
		out->ucs2[n++] = (uint8_t)efi[i];
	for (size_t i = 0; i < dir_len && i < FALLBACK_NAME_MAX; i++)
		out->ucs2[n++] = dir[i];
	out->ucs2[n++] = '\\';
	for (size_t i = 0; i < entry->file_len && i < FALLBACK_NAME_MAX; i++)
		out->ucs2[n++] = entry->file[i];
	out->ucs2[n] = 0;
	out->len = n;
	for (size_t i = 0; i <= n; i++)
		out->ascii[i] = (char)(out->ucs2[i] < 0x80 ? out->ucs2[i] : '?');
}

/* @len UCS-2 characters at @s and a NUL at @out; returns the bytes written. */
static size_t put_ucs2(uint8_t *out, const uint16_t *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		write_le16(out + 2 * i, s[i]);
	write_le16(out + 2 * len, 0);
	return 2 * (len + 1);
}

size_t fallback_load_option(const uint8_t *hd, const struct fallback_entry *entry,
			    const struct fallback_path *path, uint8_t *out)
{
	size_t file_node = DP_HEADER_SIZE + 2 * (path->len + 1);
	size_t n = 6;

	/* every length is bounded by the structures' sizes: within FALLBACK_LOAD_OPTION_MAX */
	write_le32(out, LOAD_OPTION_ACTIVE);
	write_le16(out + 4, (uint16_t)(FALLBACK_HD_NODE_SIZE + file_node + DP_HEADER_SIZE));
	n += put_ucs2(out + n, entry->label, entry->label_len);
	memcpy(out + n, hd, FALLBACK_HD_NODE_SIZE);
	n += FALLBACK_HD_NODE_SIZE;
	out[n] = DP_TYPE_MEDIA;
	out[n + 1] = DP_SUBTYPE_FILE_PATH;
	write_le16(out + n + 2, (uint16_t)file_node);
	n += DP_HEADER_SIZE;
	n += put_ucs2(out + n, path->ucs2, path->len);
	out[n] = DP_TYPE_END;
	out[n + 1] = DP_SUBTYPE_END_ENTIRE;
	write_le16(out + n + 2, DP_HEADER_SIZE);
	n += DP_HEADER_SIZE;
	if (entry->options_len)
		n += put_ucs2(out + n, entry->options, entry->options_len);
	return n;
}

/* ASCII strings equal but for case. */
static bool equal_ignoring_case(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (ascii_lower((uint8_t)*a) != ascii_lower((uint8_t)*b))
			return false;
	return *a == *b;
}

bool fallback_option_matches(const struct boot_option *option, const char *path, const char *guid)
{
	if (option->target != BOOT_TARGET_FILE || !equal_ignoring_case(option->path, path))
		return false;
	return option->partition_guid[0] == '\0' ||
	       equal_ignoring_case(option->partition_guid, guid);
}

int fallback_option_number(const uint16_t *name, size_t len)
{
	static const char boot[] = "Boot";
	int number = 0;

	if (len != sizeof(boot) - 1 + 4)
		return -1;
	for (size_t i = 0; i < sizeof(boot) - 1; i++)
		if (name[i] != (uint8_t)boot[i])
			return -1;
	for (size_t i = sizeof(boot) - 1; i < len; i++) {
		uint16_t c = name[i];
		int digit = c >= '0' && c <= '9' ? c - '0' :
			    c >= 'A' && c <= 'F' ? c - 'A' + 10 :
			    c >= 'a' && c <= 'f' ? c - 'a' + 10 :
						   -1;

		if (digit < 0)
			return -1;
		number = number * 16 + digit;
	}
	return number;
}

bool fallback_order_has(const uint16_t *order, size_t count, uint16_t number)
{
	for (size_t i = 0; i < count; i++)
		if (order[i] == number)
			return true;
	return false;
}

int fallback_boot_order(const uint16_t *order, size_t count, const uint16_t *first,
			size_t first_count, uint16_t *out, size_t *out_count, const char **reason)
{
	size_t n = 0;

	*out_count = 0;
	for (size_t pass = 0; pass < 2; pass++) {
		const uint16_t *from = pass == 0 ? first : order;
		size_t from_count = pass == 0 ? first_count : count;

		for (size_t i = 0; i < from_count; i++) {
			if (fallback_order_has(out, n, from[i]))
				continue;
			if (n == BOOT_ORDER_MAX)
				return refuse(reason, "BootOrder would name too many options");
			out[n++] = from[i];
		}
	}
	*out_count = n;
	return n != count || memcmp(out, order, n * sizeof(*out)) != 0 ? 1 : 0;
}
