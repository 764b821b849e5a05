// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "machine_state.h"

#include <string.h>

#include <openssl/crypto.h>

#include "buffer.h"
#include "efivars.h"
#include "file.h"
#include "macro.h"
#include "sbat.h"
#include "variable_data.h"

static int blob_take(struct blob *b, const struct efivar *v)
{
	b->present = v->present;
	b->data = NULL;
	b->size = 0;
	if (!v->present)
		return 0;
	if (buffer_append(&b->data, &b->size, v->data, v->size) < 0) {
		say_error("out of memory");
		return -1;
	}
	return 0;
}

static int blob_dup(struct blob *to, const struct blob *from)
{
	struct efivar v = { .present = from->present, .data = from->data, .size = from->size };

	return blob_take(to, &v);
}

void machine_state_free(struct machine_state *m)
{
	struct blob *blobs[] = { &m->kek,      &m->db,         &m->dbx,
				 &m->mok_list, &m->mok_list_x, &m->sbat_level };

	for (size_t i = 0; i < ARRAY_SIZE(blobs); i++)
		OPENSSL_free(blobs[i]->data);
	memset(m, 0, sizeof(*m));
}

int machine_state_dup(struct machine_state *to, const struct machine_state *from)
{
	*to = *from;
	to->kek.data = to->db.data = to->dbx.data = to->mok_list.data = to->mok_list_x.data = NULL;
	to->sbat_level.data = NULL;
	return blob_dup(&to->kek, &from->kek) < 0 || blob_dup(&to->db, &from->db) < 0 ||
			       blob_dup(&to->dbx, &from->dbx) < 0 ||
			       blob_dup(&to->mok_list, &from->mok_list) < 0 ||
			       blob_dup(&to->mok_list_x, &from->mok_list_x) < 0 ||
			       blob_dup(&to->sbat_level, &from->sbat_level) < 0 ?
		       -1 :
		       0;
}

/* SbatLevelRT must be SbatLevel text: the loader mirrors the level it validated. */
static int usable_level(const struct efivar *v)
{
	struct reason_buf why_buf;
	const char *why;
	struct sbat level;

	if (v->present && sbat_parse(v->data, v->size, SBAT_LEVEL, &level, &why, &why_buf) < 0) {
		say_error("%s: not a usable SbatLevel: %s", v->source, why);
		return -1;
	}
	return 0;
}

/* A one-byte variable's value (0 when absent); -1 (said) when it is not one byte. */
static int read_byte(const struct efivar *v, uint8_t *out)
{
	*out = 0;
	if (!v->present)
		return 0;
	if (v->size != 1) {
		say_error("%s: %zu bytes where one is expected", v->source, v->size);
		return -1;
	}
	*out = v->data[0];
	return 0;
}

/*
 * A mirror: the MokVar table's copy when there is one (only the loader
 * writes it), else efivarfs, where one an OS wrote is refused (efivars.h).
 */
static int read_mirror(const char *efivars, const char *mokvars, enum variable_id id,
		       struct efivar *v)
{
	if (mokvar_read(mokvars, variables[id].name, v) < 0)
		return -1;
	if (v->present)
		return 0;
	return efivar_read_var(efivars, id, NULL, v);
}

/* The store's room the loader handed over (variable_store.h); unknown when it did not. */
static int read_store(const char *mokvars, struct machine_state *m)
{
	const char *reason = NULL;
	struct efivar v;
	int r = 0;

	if (mokvar_read(mokvars, VARIABLE_INFO_NAME, &v) < 0)
		return -1;
	if (v.present && variable_info_parse(v.data, v.size, m->store, &reason) < 0) {
		say_error("%s: %s", v.source, reason);
		r = -1;
	}
	efivar_free(&v);
	return r;
}

/* systemd-boot's choice of entry, as bootctl and systemd-boot leave it (UTF-16). */
static int read_loader_entry(const char *efivars, struct machine_state *m)
{
	const struct {
		enum variable_id id;
		char *to;
	} vars[] = {
		{ VAR_LOADER_ENTRY_ONE_SHOT, m->loader_entry_oneshot },
		{ VAR_LOADER_ENTRY_DEFAULT, m->loader_entry_default },
		{ VAR_LOADER_ENTRY_LAST_BOOTED, m->loader_entry_last_booted },
	};
	struct efivar v;

	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		if (efivar_read_var(efivars, vars[i].id, NULL, &v) < 0)
			return -1;
		if (v.present && !efivar_ascii(&v, vars[i].to, sizeof(m->loader_entry_oneshot))) {
			say_error("%s: not an entry name", v.source);
			efivar_free(&v);
			return -1;
		}
		efivar_free(&v);
	}
	return 0;
}

int machine_state_read(const char *efivars, const char *mokvars, struct machine_state *m)
{
	struct efivar v;
	uint8_t secure_boot, setup_mode, byte;
	struct {
		enum variable_id id;
		struct blob *to;
	} lists[] = {
		{ VAR_KEK, &m->kek },
		{ VAR_DB, &m->db },
		{ VAR_DBX, &m->dbx },
		{ VAR_MOK_LIST_RT, &m->mok_list },
		{ VAR_MOK_LIST_X_RT, &m->mok_list_x },
		{ VAR_SBAT_LEVEL_RT, &m->sbat_level },
	};

	memset(m, 0, sizeof(*m));
	if (efivar_read_var(efivars, VAR_SECURE_BOOT, NULL, &v) < 0 ||
	    read_byte(&v, &secure_boot) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	if (efivar_read_var(efivars, VAR_SETUP_MODE, NULL, &v) < 0 ||
	    read_byte(&v, &setup_mode) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	m->secure_boot_var = secure_boot == 1;
	m->setup_mode = setup_mode == 1;
	m->secure_boot = m->secure_boot_var && !m->setup_mode;
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		enum variable_id id = lists[i].id;
		int r = variables[id].role == ROLE_RUNTIME_MIRROR ?
				read_mirror(efivars, mokvars, id, &v) :
				efivar_read_var(efivars, id, NULL, &v);

		if (r < 0 || (lists[i].to == &m->sbat_level && usable_level(&v) < 0) ||
		    blob_take(lists[i].to, &v) < 0)
			return efivar_free(&v), -1;
		efivar_free(&v);
	}
	if (read_mirror(efivars, mokvars, VAR_MOK_SB_STATE_RT, &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->validation_off = byte == 1;
	efivar_free(&v);
	if (read_mirror(efivars, mokvars, VAR_MOK_LIST_TRUSTED_RT, &v) < 0 ||
	    read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->mok_list_trusted = byte == 1;
	efivar_free(&v);
	if (read_mirror(efivars, mokvars, VAR_MOK_IGNORE_DB, &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->ignore_db = byte == 1;
	efivar_free(&v);
	if (efivar_read_var(efivars, VAR_SBAT_POLICY, NULL, &v) < 0 ||
	    read_byte(&v, &m->sbat_policy) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	return read_store(mokvars, m) < 0 ? -1 : read_loader_entry(efivars, m);
}
