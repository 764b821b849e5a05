// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "measure.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "buffer.h"
#include "guid.h"
#include "pe.h"
#include "safe_math.h"
#include "variables.h"

/* The MOK variables' vendor GUID is esl_owner_shim (signature_list.c), the core's one copy. */
static const uint8_t image_security_database_guid[16] =
	GUID_BYTES(IMAGE_SECURITY_DATABASE_GUID_FIELDS);

#define IMAGE_LOAD_EVENT_SIZE 32 /* four UINT64, then the device path */

void measurer_init(struct measurer *m, measure_extend_fn extend, void *ctx)
{
	memset(m, 0, sizeof(*m));
	m->extend = extend;
	m->ctx = ctx;
}

void measurer_free(struct measurer *m)
{
	OPENSSL_free(m->recorded);
	measurer_init(m, m->extend, m->ctx);
}

int measure_event_sha256(const struct measure_event *event, uint8_t digest[32])
{
	unsigned int len = 0;

	if (event->pe_image) {
		struct pe_image *img = OPENSSL_malloc(sizeof(*img));
		const char *reason;
		int r = -1;

		if (img && pe_parse(event->data, event->data_size, img, &reason) == 0)
			r = pe_authenticode_digest(img, EVP_sha256(), digest, &len, &reason);
		OPENSSL_free(img);
		if (r == 0 && len == 32)
			return 0;
	}
	if (EVP_Digest(event->data, event->data_size, digest, &len, EVP_sha256(), NULL) != 1 ||
	    len != 32)
		return -1;
	return 0;
}

/* Was this PCR 7 record (its SHA-256 @digest) extended already? */
static bool recorded(const struct measurer *m, const uint8_t digest[32])
{
	for (size_t i = 0; i < m->n_recorded; i++)
		if (memcmp(m->recorded[i], digest, 32) == 0)
			return true;
	return false;
}

static int remember(struct measurer *m, const uint8_t digest[32])
{
	if (buffer_reserve_one((void **)&m->recorded, &m->capacity, m->n_recorded,
			       sizeof(*m->recorded)) < 0)
		return -1;
	memcpy(m->recorded[m->n_recorded++], digest, 32);
	return 0;
}

/*
 * A UEFI_VARIABLE_DATA record into PCR 7 as EV_EFI_VARIABLE_AUTHORITY: the
 * GUID, the name's length in characters (no NUL), the data's length, the
 * name in UTF-16 without its NUL, then the data; the digest is the hash of
 * the whole record. Once per boot: a record extended already is skipped.
 */
static int measure_variable(struct measurer *m, const char *name, const uint8_t guid[16],
			    const uint8_t *prefix, size_t prefix_size, const uint8_t *data,
			    size_t size)
{
	size_t name_len = strlen(name), record_size;
	struct measure_event event;
	uint8_t digest[32], *record, *at;
	int r = -1;

	if (size > SIZE_MAX - prefix_size - 32 - 2 * name_len)
		return -1;
	record_size = 32 + 2 * name_len + prefix_size + size;
	record = OPENSSL_malloc(record_size);
	if (!record)
		return -1;
	memcpy(record, guid, 16);
	write_le64(record + 16, name_len);
	write_le64(record + 24, prefix_size + size);
	at = record + 32;
	for (size_t i = 0; i < name_len; i++, at += 2)
		write_le16(at, (uint8_t)name[i]);
	if (prefix_size)
		memcpy(at, prefix, prefix_size);
	if (size)
		memcpy(at + prefix_size, data, size);

	event = (struct measure_event){ .pcr = PCR_SECURE_BOOT_POLICY,
					.type = EV_EFI_VARIABLE_AUTHORITY,
					.event = record,
					.event_size = record_size,
					.data = record,
					.data_size = record_size };
	if (measure_event_sha256(&event, digest) < 0)
		goto out_free_record;
	if (recorded(m, digest)) {
		r = 0;
		goto out_free_record;
	}
	if (m->extend(&event, m->ctx) == 0)
		r = remember(m, digest);
out_free_record:
	OPENSSL_free(record);
	return r;
}

/* An EV_IPL event into PCR 14: @data hashed, its name with the NUL logged. */
static int log_ipl(struct measurer *m, const char *name, const uint8_t *data, size_t size)
{
	struct measure_event event = { .pcr = PCR_MOK,
				       .type = EV_IPL,
				       .event = (const uint8_t *)name,
				       .event_size = strlen(name) + 1,
				       .data = data,
				       .data_size = size };

	return m->extend(&event, m->ctx);
}

int measure_mok_list_payload(const struct mok_state_data *state, bool mok_list_x, uint8_t **out,
			     size_t *out_size)
{
	uint8_t zero[32] = { 0 };
	struct esl_entry entry;

	*out = NULL;
	*out_size = 0;
	if (mok_list_x) {
		if (buffer_append(out, out_size, state->vendor_dbx, state->vendor_dbx_size) < 0 ||
		    buffer_append(out, out_size, state->mok_list_x, state->mok_list_x_size) < 0)
			goto out_free_payload;
	} else if (state->vendor_cert_size) {
		entry = (struct esl_entry){ .type = ESL_X509,
					    .owner = esl_owner_shim,
					    .data = state->vendor_cert,
					    .size = state->vendor_cert_size };
		if (esl_append_entry(&entry, out, out_size) < 0 ||
		    buffer_append(out, out_size, state->mok_list, state->mok_list_size) < 0)
			goto out_free_payload;
	} else if (buffer_append(out, out_size, state->mok_list, state->mok_list_size) < 0) {
		goto out_free_payload;
	}
	if (*out_size)
		return 0;
	/* shim always creates the lists: an empty one holds a SHA-256 list of zeros */
	entry = (struct esl_entry){
		.type = ESL_SHA256, .owner = esl_owner_shim, .data = zero, .size = sizeof(zero)
	};
	return esl_append_entry(&entry, out, out_size);
out_free_payload:
	/* esl_append_entry frees the buffer on failure, buffer_append does not */
	OPENSSL_free(*out);
	*out = NULL;
	*out_size = 0;
	return -1;
}

static int measure_list(struct measurer *m, const struct mok_state_data *state, bool mok_list_x)
{
	uint8_t *payload;
	size_t size;
	int r;

	if (measure_mok_list_payload(state, mok_list_x, &payload, &size) < 0)
		return -1;
	r = log_ipl(m, variables[mok_list_x ? VAR_MOK_LIST_X : VAR_MOK_LIST].name, payload, size);
	OPENSSL_free(payload);
	return r;
}

int measure_mok_state(struct measurer *m, const struct mok_state_data *state)
{
	static const uint8_t trusted_absent = 1;
	int r = 0;

	r |= measure_list(m, state, false);
	r |= measure_list(m, state, true);
	if (state->mok_sb_state_size) {
		r |= measure_variable(m, variables[VAR_MOK_SB_STATE].name, esl_owner_shim, NULL, 0,
				      state->mok_sb_state, state->mok_sb_state_size);
		r |= log_ipl(m, variables[VAR_MOK_SB_STATE].name, state->mok_sb_state,
			     state->mok_sb_state_size);
	}
	if (state->sbat_level_size)
		r |= measure_variable(m, variables[VAR_SBAT_LEVEL].name, esl_owner_shim, NULL, 0,
				      state->sbat_level, state->sbat_level_size);
	if (!state->mok_list_trusted)
		r |= log_ipl(m, variables[VAR_MOK_LIST_TRUSTED].name, &trusted_absent, 1);
	return r ? -1 : 0;
}

int measure_image(struct measurer *m, const uint8_t *image, size_t size, uint64_t location,
		  const uint8_t *path, size_t path_size)
{
	struct measure_event event = { .pcr = PCR_BOOT_APPLICATIONS,
				       .type = EV_EFI_BOOT_SERVICES_APPLICATION,
				       .data = image,
				       .data_size = size,
				       .pe_image = true };
	uint64_t link_address = 0;
	uint8_t *load_event;
	int r;

	if (path && path_size) {
		struct pe_image *img = OPENSSL_malloc(sizeof(*img));
		const char *reason;

		if (img && pe_parse(image, size, img, &reason) == 0)
			link_address = img->image_base;
		OPENSSL_free(img);
	} else {
		path_size = 0;
	}
	if (path_size > SIZE_MAX - IMAGE_LOAD_EVENT_SIZE)
		return -1;
	load_event = OPENSSL_zalloc(IMAGE_LOAD_EVENT_SIZE + path_size);
	if (!load_event)
		return -1;
	write_le64(load_event, location);
	write_le64(load_event + 8, size);
	write_le64(load_event + 16, link_address);
	write_le64(load_event + 24, path_size);
	if (path_size)
		memcpy(load_event + IMAGE_LOAD_EVENT_SIZE, path, path_size);
	event.event = load_event;
	event.event_size = IMAGE_LOAD_EVENT_SIZE + path_size;
	r = m->extend(&event, m->ctx);
	OPENSSL_free(load_event);
	return r;
}

int measure_authority(struct measurer *m, const struct verify_policy *policy,
		      const struct verdict *verdict)
{
	const struct verdict_authority *a = &verdict->authority;
	const char *name = variables[VAR_MOK_LIST_RT].name;
	const uint8_t *guid = esl_owner_shim;
	unsigned char *der = NULL;
	int der_len, r;

	if (!verdict->allowed || !a->db)
		return 0;
	if (a->db == &policy->db) {
		name = variables[VAR_DB].name;
		guid = image_security_database_guid;
	} else if (a->db != &policy->vendor && a->db != &policy->mok) {
		return -1; /* no other list allows */
	}
	if (!a->cert) {
		const struct esl_digest *d;

		if (a->index >= a->db->n_digests)
			return -1;
		d = &a->db->digests[a->index];
		return measure_variable(m, name, guid, d->owner, ESL_OWNER_SIZE, d->digest,
					d->size);
	}
	if (a->index >= (size_t)sk_X509_num(a->db->certs))
		return -1;
	/* the certificate's own DER: OpenSSL keeps the encoding it was read from */
	der_len = i2d_X509(sk_X509_value(a->db->certs, (int)a->index), &der);
	if (der_len <= 0)
		return -1;
	r = measure_variable(m, name, guid, a->db->cert_owners[a->index], ESL_OWNER_SIZE, der,
			     (size_t)der_len);
	OPENSSL_free(der);
	return r;
}
