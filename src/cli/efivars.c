// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efivars.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "safe_math.h"
#include "variable_data.h"

/* Whether @path exists; -1 (said) when it cannot be told. */
static int file_exists(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	say_error("%s: %s", path, strerror(errno));
	return -1;
}

static int read_whole(const char *path, struct efivar *var)
{
	size_t size;
	int exists = file_exists(path);

	memset(var, 0, sizeof(*var));
	snprintf(var->source, sizeof(var->source), "%s", path);
	if (exists <= 0)
		return exists;
	if (read_regular_file(path, &var->file, &size) < 0)
		return -1;
	var->present = true;
	var->data = var->file;
	var->size = size;
	return 0;
}

int efivar_read(const char *dir, const char *name, const char *guid, struct efivar *var)
{
	char path[600];
	const char *reason;

	memset(var, 0, sizeof(*var));
	if (!dir)
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s-%s", dir, name, guid) >= (int)sizeof(path)) {
		say_error("%s: path too long", dir);
		return -1;
	}
	if (read_whole(path, var) < 0)
		return -1;
	if (!var->present)
		return 0;
	if (efivarfs_split(var->file, var->size, &var->attributes, &var->data, &var->size,
			   &reason) < 0) {
		say_error("%s: %s", path, reason);
		efivar_free(var);
		return -1;
	}
	return 0;
}

int efivar_read_var(const char *dir, enum variable_id id, const char *name, struct efivar *var)
{
	const struct variable *v = &variables[id];
	char guid[VARIABLE_GUID_TEXT_SIZE];

	variable_vendor_guid_text(v->vendor, guid);
	if (efivar_read(dir, name ? name : v->name, guid, var) < 0)
		return -1;
	if (!var->present || variable_attributes_trusted(v, var->attributes))
		return 0;
	switch (v->otherwise) {
	case OTHERWISE_DELETE:
	case OTHERWISE_IGNORE:
		say_error(
			"%s: ignored: attributes 0x%x, not 0x%x as its writer sets them: the boot "
			"%s it",
			var->source, var->attributes, v->attributes,
			v->otherwise == OTHERWISE_DELETE ? "deletes" : "ignores");
		efivar_free(var);
		return 0;
	case OTHERWISE_REPLACE:
		/*
		 * lockshim and shim write their mirrors volatile, BS|RT, at every boot:
		 * any other one was written by an OS (squatted, time-authenticated, so
		 * the loader could not replace it) and says nothing of the next boot
		 */
		say_error("%s: attributes 0x%x, not a loader's mirror (BS|RT): the next boot's %s "
			  "cannot be known from it; give the MokVar table (--mok-variables)",
			  var->source, var->attributes, v->name);
		break;
	default:
		say_error("%s: attributes 0x%x, not the firmware's 0x%x: not a copy of a machine's "
			  "variables",
			  var->source, var->attributes, v->attributes);
		break;
	}
	efivar_free(var);
	return -1;
}

int mokvar_read(const char *dir, const char *name, struct efivar *var)
{
	char path[600];

	memset(var, 0, sizeof(*var));
	if (!dir)
		return 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		say_error("%s: path too long", dir);
		return -1;
	}
	return read_whole(path, var);
}

void efivar_free(struct efivar *var)
{
	free(var->file);
	memset(var, 0, sizeof(*var));
}

bool efivar_ascii(const struct efivar *var, char *out, size_t size)
{
	size_t n = 0;

	for (size_t at = 0; range_inside(at, 2, var->size); at += 2) {
		uint16_t c = read_le16(var->data + at);

		if (c == 0)
			break;
		if (c < 0x20 || c >= 0x7f || n + 1 >= size)
			return false;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return n > 0;
}
