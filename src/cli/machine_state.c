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
	struct blob *blobs[] = { &m->db, &m->dbx, &m->mok_list, &m->mok_list_x, &m->sbat_level };

	for (size_t i = 0; i < ARRAY_SIZE(blobs); i++)
		OPENSSL_free(blobs[i]->data);
	memset(m, 0, sizeof(*m));
}

int machine_state_dup(struct machine_state *to, const struct machine_state *from)
{
	*to = *from;
	to->db.data = to->dbx.data = to->mok_list.data = to->mok_list_x.data = NULL;
	to->sbat_level.data = NULL;
	return blob_dup(&to->db, &from->db) < 0 || blob_dup(&to->dbx, &from->dbx) < 0 ||
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

/* A mirror: the MokVar table's copy when there is one (only the loader writes it), else efivarfs. */
static int read_mirror(const char *efivars, const char *mokvars, const char *name, struct efivar *v)
{
	if (mokvar_read(mokvars, name, v) < 0)
		return -1;
	if (v->present)
		return 0;
	if (efivar_read(efivars, name, SHIM_GUID_TEXT, v) < 0)
		return -1;
	/*
	 * lockshim and shim write their mirrors volatile, BS|RT, at every boot:
	 * any other one was written by an OS (squatted, time-authenticated, so
	 * the loader could not replace it) and says nothing of the next boot
	 */
	if (v->present &&
	    v->attributes != (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)) {
		say_error("%s: attributes 0x%x, not a loader's mirror (BS|RT): the next boot's %s "
			  "cannot be known from it; give the MokVar table (--mok-variables)",
			  v->source, v->attributes, name);
		efivar_free(v);
		return -1;
	}
	return 0;
}

/* systemd-boot's next entry, as bootctl set-oneshot / set-default leave it (UTF-16). */
static int read_loader_entry(const char *efivars, struct machine_state *m)
{
	static const char *const names[] = { "LoaderEntryOneShot", "LoaderEntryDefault" };
	struct efivar v;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !m->loader_entry[0]; i++) {
		if (efivar_read(efivars, names[i], LOADER_GUID_TEXT, &v) < 0)
			return -1;
		if (v.present && !efivar_ascii(&v, m->loader_entry, sizeof(m->loader_entry))) {
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
		const char *name;
		bool mirror;
		struct blob *to;
	} lists[] = {
		{ "db", false, &m->db },
		{ "dbx", false, &m->dbx },
		{ "MokListRT", true, &m->mok_list },
		{ "MokListXRT", true, &m->mok_list_x },
		{ "SbatLevelRT", true, &m->sbat_level },
	};

	memset(m, 0, sizeof(*m));
	if (efivar_read(efivars, "SecureBoot", EFI_GLOBAL_GUID_TEXT, &v) < 0 ||
	    read_byte(&v, &secure_boot) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	if (efivar_read(efivars, "SetupMode", EFI_GLOBAL_GUID_TEXT, &v) < 0 ||
	    read_byte(&v, &setup_mode) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	m->secure_boot = secure_boot == 1 && setup_mode == 0;
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		int r = lists[i].mirror ?
				read_mirror(efivars, mokvars, lists[i].name, &v) :
				efivar_read(efivars, lists[i].name, EFI_SECURITY_GUID_TEXT, &v);

		if (r < 0 || (lists[i].to == &m->sbat_level && usable_level(&v) < 0) ||
		    blob_take(lists[i].to, &v) < 0)
			return efivar_free(&v), -1;
		efivar_free(&v);
	}
	if (read_mirror(efivars, mokvars, "MokSBStateRT", &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->validation_off = byte == 1;
	efivar_free(&v);
	if (read_mirror(efivars, mokvars, "MokListTrustedRT", &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->mok_list_trusted = byte == 1;
	efivar_free(&v);
	if (read_mirror(efivars, mokvars, "MokIgnoreDB", &v) < 0 || read_byte(&v, &byte) < 0)
		return efivar_free(&v), -1;
	m->ignore_db = byte == 1;
	efivar_free(&v);
	if (efivar_read(efivars, "SbatPolicy", SHIM_GUID_TEXT, &v) < 0 ||
	    read_byte(&v, &m->sbat_policy) < 0)
		return efivar_free(&v), -1;
	efivar_free(&v);
	return read_loader_entry(efivars, m);
}
