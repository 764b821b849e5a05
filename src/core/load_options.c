// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "load_options.h"

#include <stdbool.h>
#include <string.h>

#include "reason.h"

static bool is_space(uint16_t c)
{
	return c == ' ' || c == '\t';
}

static uint16_t ascii_lower(uint16_t c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static bool ends_with_efi(const uint16_t *word, size_t len)
{
	static const char suffix[] = ".efi";

	if (len < 4)
		return false;
	for (size_t i = 0; i < 4; i++)
		if (ascii_lower(word[len - 4 + i]) != (uint16_t)suffix[i])
			return false;
	return true;
}

static bool starts_with_initrd(const uint16_t *word, size_t len)
{
	static const char prefix[] = "initrd=";

	if (len < sizeof(prefix) - 1)
		return false;
	for (size_t i = 0; i < sizeof(prefix) - 1; i++)
		if (word[i] != (uint16_t)prefix[i])
			return false;
	return true;
}

/* The first initrd= argument of the command line. */
static int find_initrd(struct load_options *out, const char **reason)
{
	const uint16_t *s = out->cmdline;
	size_t i = 0, len = out->cmdline_len;

	while (i < len) {
		size_t end = i;

		while (end < len && !is_space(s[end]))
			end++;
		if (starts_with_initrd(s + i, end - i)) {
			out->initrd_path = s + i + 7;
			out->initrd_path_len = end - i - 7;
			if (out->initrd_path_len == 0 ||
			    out->initrd_path_len > LOAD_OPTIONS_MAX_PATH)
				return refuse(reason, "initrd= path empty or too long");
			return 0;
		}
		i = end;
		while (i < len && is_space(s[i]))
			i++;
	}
	return 0;
}

int load_options_parse(const void *data, size_t size, struct load_options *out, const char **reason)
{
	const uint16_t *s = data;
	size_t len = size / 2, start = 0, word_end;

	memset(out, 0, sizeof(*out));
	if (!data || size == 0)
		return 0;
	if (size % 2 || ((uintptr_t)data % 2))
		return refuse(reason, "load options are not a UCS-2 string");
	while (len > 0 && s[len - 1] == 0) /* the terminator, if any */
		len--;
	if (len > LOAD_OPTIONS_MAX_CHARS)
		return refuse(reason, "load options too long");
	for (size_t i = 0; i < len; i++)
		if ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f ||
		    (s[i] >= 0xd800 && s[i] <= 0xdfff))
			return refuse(reason, "load options are not a text string");

	while (start < len && is_space(s[start]))
		start++;
	while (len > start && is_space(s[len - 1]))
		len--;
	word_end = start;
	while (word_end < len && !is_space(s[word_end]))
		word_end++;

	if (ends_with_efi(s + start, word_end - start)) {
		if (word_end - start > LOAD_OPTIONS_MAX_PATH)
			return refuse(reason, "kernel path in the load options too long");
		out->kernel_path = s + start;
		out->kernel_path_len = word_end - start;
		start = word_end;
		while (start < len && is_space(s[start]))
			start++;
	}
	if (start < len) {
		out->cmdline = s + start;
		out->cmdline_len = len - start;
	}
	return find_initrd(out, reason);
}
