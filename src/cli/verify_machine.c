// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "verify_machine.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "machine_state.h"
#include "variable_data.h"

/* Where variable @id was read from: the MokVar table's file when it has one, else efivarfs's. */
static void source_of(const struct verify_machine *vm, enum variable_id id, char *out, size_t size)
{
	const struct variable *v = &variables[id];
	char guid[VARIABLE_GUID_TEXT_SIZE];

	if (v->role == ROLE_RUNTIME_MIRROR && vm->mokvars) {
		snprintf(out, size, "%s/%s", vm->mokvars, v->name);
		if (access(out, F_OK) == 0)
			return;
	}
	variable_vendor_guid_text(v->vendor, guid);
	snprintf(out, size, "%s/%s-%s", vm->efivars, v->name, guid);
}

static size_t entries(const struct sig_db *db)
{
	int certs = sk_X509_num(db->certs); /* -1 before the first */

	return (certs > 0 ? (size_t)certs : 0) + db->n_digests;
}

/* One list of the machine into @db; "# db: FILE: N entries" when said. */
static int add_list(const struct verify_machine *vm, struct verify_policy *policy,
		    struct sig_db *db, enum variable_id id, const struct blob *b, const char *note)
{
	size_t given = entries(db), read;
	char source[1200];

	if (policy_add_blob(policy, db, b) < 0)
		return -1;
	if (!vm->say)
		return 0;
	read = entries(db) - given;
	if (!b->present) {
		printf("# %s: none (no %s in %s)", db->name, variables[id].name, vm->efivars);
	} else {
		source_of(vm, id, source, sizeof(source));
		printf("# %s: %s: %zu %s%s", db->name, source, read,
		       read == 1 ? "entry" : "entries", note);
	}
	if (given)
		printf(", and %zu from options", given);
	printf("\n");
	return 0;
}

/* A directory verify reads must be one: a missing one would read as a machine without lists. */
static int readable_dir(const char *path)
{
	DIR *d = opendir(path);

	if (!d) {
		say_error("%s: %s", path, strerror(errno));
		return -1;
	}
	closedir(d);
	return 0;
}

int verify_machine_lists(struct verify_machine *vm, bool firmware_only,
			 struct verify_policy *policy)
{
	struct machine_state *m = &vm->state;

	if (readable_dir(vm->efivars) < 0 || (vm->mokvars && readable_dir(vm->mokvars) < 0) ||
	    machine_state_read(vm->efivars, vm->mokvars, m) < 0)
		return -1;
	if (m->ignore_db && !firmware_only) {
		/* the first stage trusts no db then (MokDBState) */
		if (vm->say)
			printf("# %s: not trusted: %s is set\n", policy->db.name,
			       variables[VAR_MOK_IGNORE_DB].name);
	} else if (add_list(vm, policy, &policy->db, VAR_DB, &m->db, "") < 0) {
		return -1;
	}
	if (add_list(vm, policy, &policy->dbx, VAR_DBX, &m->dbx, "") < 0)
		return -1;
	if (firmware_only)
		return 0;
	if (add_list(vm, policy, &policy->mok, VAR_MOK_LIST_RT, &m->mok_list,
		     " (the first stage's vendor keys first)") < 0 ||
	    add_list(vm, policy, &policy->mokx, VAR_MOK_LIST_X_RT, &m->mok_list_x,
		     " (the first stage's vendor dbx first)") < 0)
		return -1;
	if (vm->say && m->validation_off)
		printf("# %s: validation off: the first stage starts images unverified; "
		       "this is the lists' verdict\n",
		       variables[VAR_MOK_SB_STATE_RT].name);
	return 0;
}

int verify_machine_level(const struct verify_machine *vm, const char *level_path, bool no_sbat,
			 struct sbat *level)
{
	const struct blob *b = &vm->state.sbat_level;
	struct reason_buf why_buf;
	char source[1200];
	const char *why;

	if (level_path || no_sbat) {
		if (vm->say)
			printf("# SbatLevel: %s%s\n",
			       no_sbat ? "none (--no-sbat)" : "--sbat-level ",
			       no_sbat ? "" : level_path);
		return 0;
	}
	if (!b->present) {
		if (vm->say)
			printf("# SbatLevel: none (no %s in %s): lockshim's built-in level\n",
			       variables[VAR_SBAT_LEVEL_RT].name, vm->efivars);
		return 0;
	}
	source_of(vm, VAR_SBAT_LEVEL_RT, source, sizeof(source));
	if (sbat_parse(b->data, b->size, SBAT_LEVEL, level, &why, &why_buf) < 0) {
		say_error("%s: not a usable SbatLevel: %s", source, why);
		return -1;
	}
	if (vm->say)
		printf("# SbatLevel: %s\n", source);
	return 1;
}

void verify_machine_free(struct verify_machine *vm)
{
	machine_state_free(&vm->state);
}
