// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The table of variables (src/core/variables.c) against what Debian's
 * mokutil 0.6.0 really wrote (tests/vectors/mokutil/): every request
 * variable of a recorded run is in the table with the attributes mokutil
 * gave it and a mokutil command that ran; and the table's own rules: each
 * name once, its UTF-16 form the same name, mirrors volatile BS|RT, the
 * owner's variables first and NV|BS, the GUIDs as efivarfs names them.
 */
#include "sbat_level.h"
#include "unit.h"
#include "variables.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VECTORS "tests/vectors/mokutil/"

/* Does @line run mokutil with every word of @command (one '|' alternative, @len bytes)? */
static bool command_ran(const char *line, const char *command, size_t len)
{
	char words[128], *save = NULL;

	if (!strstr(line, "mokutil ") || len >= sizeof(words))
		return false;
	snprintf(words, sizeof(words), "%.*s", (int)len, command);
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		const char *at = line;
		bool found = false;

		/* a whole word: --import is not --import-hash */
		while (!found && (at = strstr(at, w))) {
			char after = at[strlen(w)];

			found = (at == line || at[-1] == ' ') &&
				(after == ' ' || after == '\n' || after == '\0');
			at++;
		}
		if (!found)
			return false;
	}
	return true;
}

/* Is one of @v's mokutil commands one that the case's steps.sh ran? */
static bool steps_ran_one_of(const char *case_dir, const struct variable *v)
{
	char path[512], line[512];
	bool ran = false;
	FILE *f;

	snprintf(path, sizeof(path), VECTORS "%s/steps.sh", case_dir);
	f = fopen(path, "r");
	if (!f || !v->mokutil)
		return f ? fclose(f), false : false;
	while (!ran && fgets(line, sizeof(line), f))
		for (const char *p = v->mokutil; !ran; p++) {
			size_t len = strcspn(p, "|");

			ran = command_ran(line, p, len);
			p += len;
			if (!*p)
				break;
		}
	fclose(f);
	return ran;
}

static void test_vectors(void)
{
	DIR *dir = opendir(VECTORS);
	struct dirent *d;
	size_t seen = 0;

	CHECK(dir, "the vectors are there");
	while (dir && (d = readdir(dir))) {
		char path[512], name[128];
		unsigned int attributes, size;
		FILE *f;

		snprintf(path, sizeof(path), VECTORS "%s/attributes", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fscanf(f, "%127s %x %u", name, &attributes, &size) == 3) {
			const struct variable *v = variable_find(name, VENDOR_SHIM);

			seen++;
			if (!CHECK(v, unit_name("%s/%s is in the table", d->d_name, name)))
				continue;
			CHECK_EQ(v->attributes, attributes,
				 unit_name("%s/%s: the table has mokutil's attributes", d->d_name,
					   name));
			CHECK(v->role == ROLE_REQUEST || v->role == ROLE_REQUEST_AUTH ||
				      v->role == ROLE_SETTING,
			      unit_name("%s/%s: a request or a setting", d->d_name, name));
			CHECK(steps_ran_one_of(d->d_name, v),
			      unit_name("%s/%s: the table names the mokutil command that wrote it",
					d->d_name, name));
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	/* the README's table: 24 variables over 14 cases */
	CHECK_EQ(seen, 24u, "every recorded variable was checked");
}

/* The drift issue 35 found: check looked for a request mokutil never writes. */
static void test_trust_mok(void)
{
	const struct variable *v = variable_find("MokListTrustedNew", VENDOR_SHIM);

	CHECK(v && v->changes == &variables[VAR_MOK_LIST_TRUSTED],
	      "MokListTrustedNew changes MokListTrusted");
	CHECK(v && strcmp(v->mokutil, "--trust-mok|--untrust-mok") == 0,
	      "state 0 is --trust-mok, 1 --untrust-mok");
	CHECK(!variable_find("MokTML", VENDOR_SHIM), "no MokTML");
}

static void test_table(void)
{
	char text[VARIABLE_GUID_TEXT_SIZE];

	for (size_t i = 0; i < VARIABLES; i++) {
		const struct variable *v = &variables[i];
		size_t n = 0;

		if (!CHECK(v->name && v->name16, unit_name("entry %zu has a name", i)))
			continue;
		for (; v->name[n]; n++)
			if (v->name16[n] != (uint16_t)(unsigned char)v->name[n])
				break;
		CHECK(!v->name[n] && !v->name16[n],
		      unit_name("%s: the UTF-16 name is the same name", v->name));
		CHECK_PTR_EQ(variable_find(v->name, v->vendor), v,
			     unit_name("%s: once in the table", v->name));
		if (v->mirror) {
			CHECK_EQ(v->mirror->role, ROLE_RUNTIME_MIRROR,
				 unit_name("%s: its mirror is a mirror", v->name));
			CHECK_EQ(v->mirror->attributes, VARIABLE_BS_RT,
				 unit_name("%s: its mirror is volatile BS|RT", v->name));
		}
		if (v->role == ROLE_RUNTIME_MIRROR)
			CHECK_EQ(v->otherwise, OTHERWISE_REPLACE,
				 unit_name("%s: an OS's mirror is not predicted from", v->name));
		if (v->role == ROLE_REQUEST || v->role == ROLE_REQUEST_AUTH)
			CHECK(v->changes && v->changes->attributes == VARIABLE_NV_BS &&
				      v->otherwise == OTHERWISE_IGNORE,
			      unit_name("%s: a request the MOK manager serves or ignores", v->name));
		CHECK_EQ(i < MOK_OWNER_VARIABLES,
			 v->role == ROLE_OWNER_LIST || v->role == ROLE_OWNER_STATE,
			 unit_name("%s: the owner's variables come first", v->name));
		if (i < MOK_OWNER_VARIABLES)
			CHECK(v->attributes == VARIABLE_NV_BS && v->otherwise == OTHERWISE_DELETE,
			      unit_name("%s: NV|BS, an OS's deleted", v->name));
	}
	/* as the vectors' README and efivarfs name them */
	variable_vendor_guid_text(VENDOR_SHIM, text);
	CHECK_STREQ(text, "605dab50-e046-4300-abb6-3dd810dd8b23", "the shim GUID");
	variable_vendor_guid_text(VENDOR_GLOBAL, text);
	CHECK_STREQ(text, "8be4df61-93ca-11d2-aa0d-00e098032b8c", "EFI_GLOBAL_VARIABLE");
	variable_vendor_guid_text(VENDOR_SECURITY_DB, text);
	CHECK_STREQ(text, "d719b2cb-3d3a-4596-a3bc-dad00e67656f", "the image security database");
	variable_vendor_guid_text(VENDOR_LOADER, text);
	CHECK_STREQ(text, "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f", "the Boot Loader Interface");
	variable_vendor_guid_text(VENDOR_LOCKSHIM, text);
	CHECK_STREQ(text, "fa4589c8-983f-4879-98de-41989578e75d", "lockshim's");
	CHECK_EQ(variables[VAR_SBAT_LEVEL].attributes, SBAT_LEVEL_ATTRIBUTES,
		 "SbatLevel: the attributes sbat_level.c stores it with");
	/* what check finds the ESP by: only a loader's, set at this boot */
	CHECK(variables[VAR_LOADER_DEVICE_PART_UUID].attributes == VARIABLE_BS_RT &&
		      variables[VAR_LOADER_DEVICE_PART_UUID].otherwise == OTHERWISE_IGNORE,
	      "LoaderDevicePartUUID: a loader's volatile BS|RT, else ignored");
	CHECK(variable_attributes_trusted(&variables[VAR_MOK_LIST], VARIABLE_NV_BS) &&
		      !variable_attributes_trusted(&variables[VAR_MOK_LIST], VARIABLE_NV_BS_RT),
	      "MokList: the MOK manager's NV|BS only");
}

int main(void)
{
	test_vectors();
	test_trust_mok();
	test_table();
	UNIT_EXIT();
}
