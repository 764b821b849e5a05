// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "bls.h"

#include <stdio.h>
#include <string.h>

#include "reason.h"

typedef int (*bls_line_fn)(const char *key, size_t key_len, const char *value, size_t value_len,
			   void *ctx);

/*
 * Call @fn for each "key value" line of @text: '#' lines and empty ones
 * skipped, blanks around the value trimmed. Returns 0, or -1 with a reason.
 */
static int bls_walk(const char *text, size_t size, bls_line_fn fn, void *ctx, const char **reason)
{
	size_t at = 0;

	if (size > BLS_MAX_SIZE)
		return refuse(reason, "larger than any loader entry");
	if (memchr(text, '\0', size))
		return refuse(reason, "a NUL byte: not a text file");
	while (at < size) {
		const char *line = text + at, *nl = memchr(line, '\n', size - at);
		size_t len = nl ? (size_t)(nl - line) : size - at, k = 0, v;

		at += len + 1;
		while (len &&
		       (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
			len--;
		while (k < len && (line[k] == ' ' || line[k] == '\t'))
			k++;
		if (k == len || line[k] == '#')
			continue;
		line += k;
		len -= k;
		for (k = 0; k < len && line[k] != ' ' && line[k] != '\t';)
			k++;
		for (v = k; v < len && (line[v] == ' ' || line[v] == '\t');)
			v++;
		if (len - v >= BLS_MAX_VALUE)
			return refuse(reason, "a value too long");
		if (fn(line, k, line + v, len - v, ctx) < 0)
			return refuse(reason, "out of memory");
	}
	return 0;
}

static bool key_is(const char *key, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(key, name, len) == 0;
}

static int entry_line(const char *key, size_t key_len, const char *value, size_t value_len,
		      void *ctx)
{
	struct bls_entry *e = ctx;
	char *to = NULL;

	if (key_is(key, key_len, "title"))
		to = e->title;
	else if (key_is(key, key_len, "version"))
		to = e->version;
	else if (key_is(key, key_len, "sort-key"))
		to = e->sort_key;
	else if (key_is(key, key_len, "linux") || (key_is(key, key_len, "efi") && !e->image[0]))
		to = e->image;
	if (to)
		snprintf(to, BLS_MAX_VALUE, "%.*s", (int)value_len, value);
	return 0;
}

int bls_entry_parse(const char *text, size_t size, struct bls_entry *out, const char **reason)
{
	memset(out, 0, sizeof(*out));
	if (bls_walk(text, size, entry_line, out, reason) < 0)
		return -1;
	for (char *p = out->image; *p; p++)
		if (*p == '\\')
			*p = '/';
	return 0;
}

struct loader_default {
	char *out;
	size_t size;
};

static int loader_line(const char *key, size_t key_len, const char *value, size_t value_len,
		       void *ctx)
{
	struct loader_default *d = ctx;

	if (key_is(key, key_len, "default"))
		snprintf(d->out, d->size, "%.*s", (int)value_len, value);
	return 0;
}

int bls_loader_default(const char *text, size_t size, char *out, size_t out_size,
		       const char **reason)
{
	struct loader_default d = { out, out_size };

	if (out_size)
		out[0] = '\0';
	return bls_walk(text, size, loader_line, &d, reason);
}
