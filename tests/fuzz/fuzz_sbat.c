// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: SBAT text (sbat_parse, sbat_next_record, sbat_check),
 * the embedded .sbatlevel payload (sbat_levels_parse) and the SbatLevel
 * update decision (sbat_level_update).
 *
 * Input: byte 0 holds flags (bit 0: Secure Boot on; bits 1-3: the stored
 * variable's attributes, or absent; bit 4: the stored variable's size is
 * given as 4 GiB more than it is), byte 1 the SbatPolicy byte, and the
 * rest is up to four parts separated by 0xfe (a byte no valid text holds):
 *
 *   IMAGE .sbat text  0xfe  automatic level  0xfe  latest level  0xfe  stored SbatLevel
 *
 * Every part is parsed as both kinds, each from its own heap block of
 * exactly its size (ASan reports a read past it). A parsed text is checked
 * against a plain reference reading of the same bytes (records, names,
 * generations, datestamp); sbat_check against a reference comparison of
 * every pair of records, with the exact reason. The whole input also goes to
 * sbat_levels_parse as a raw payload, and a payload made of the two level
 * parts must parse exactly when both levels do. sbat_level_update, with the
 * levels of that payload (or fixed ones when they do not parse) and the
 * stored part, must keep what sbat_level.h promises: the chosen level
 * re-parses; it never has a lower datestamp than a valid NV|BS stored level
 * unless SbatPolicy is reset with Secure Boot off, which writes the
 * original level; a stored level that is absent, runtime-visible or
 * malformed is always replaced, and nothing else is written unless it
 * raises the level.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sbat.h"
#include "sbat_level.h"

#define SEPARATOR 0xfe
#define N_PARTS   4

static volatile uint8_t sink;

/* ---- a reference reading of validated text ----------------------------------- */

struct ref_record {
	const char *name;
	size_t name_len;
	uint32_t generation;
};

struct ref {
	struct ref_record rec[SBAT_MAX_RECORDS];
	size_t n;
	uint64_t datestamp;
};

/*
 * Read @len bytes of text that sbat_parse accepted, without its helpers:
 * lines end at '\n' (a '\r' before it dropped), empty ones skipped, fields
 * end at ','.
 */
static void ref_read(const char *text, size_t len, struct ref *r)
{
	size_t i = 0;

	r->n = 0;
	r->datestamp = 0;
	while (i < len) {
		size_t start = i, end, f1, f1_end;
		uint64_t gen = 0;

		while (i < len && text[i] != '\n')
			i++;
		end = i;
		if (i < len)
			i++;
		if (end > start && text[end - 1] == '\r')
			end--;
		if (end == start)
			continue;
		FUZZ_ASSERT(r->n < SBAT_MAX_RECORDS);
		f1 = start;
		while (f1 < end && text[f1] != ',')
			f1++;
		FUZZ_ASSERT(f1 < end); /* at least two fields */
		r->rec[r->n].name = text + start;
		r->rec[r->n].name_len = f1 - start;
		for (f1_end = f1 + 1; f1_end < end && text[f1_end] != ','; f1_end++) {
			FUZZ_ASSERT(text[f1_end] >= '0' && text[f1_end] <= '9');
			gen = gen * 10 + (uint64_t)(text[f1_end] - '0');
		}
		FUZZ_ASSERT(f1_end > f1 + 1 && f1_end - f1 - 1 <= 10 && gen <= UINT32_MAX);
		r->rec[r->n].generation = (uint32_t)gen;
		if (r->n == 0 && f1_end < end) {
			uint64_t d = 0;

			for (size_t k = f1_end + 1; k < end && text[k] != ','; k++)
				d = d * 10 + (uint64_t)(text[k] - '0'); /* checked for levels below */
			r->datestamp = d;
		}
		r->n++;
	}
}

static bool printable_field_byte(char c)
{
	return c >= 0x20 && c <= 0x7e && c != ',';
}

/* What a successful sbat_parse promises, checked against the reference. */
static void check_parsed(const uint8_t *data, size_t size, enum sbat_kind kind,
			 const struct sbat *s, struct ref *r)
{
	const uint8_t *nul = size ? memchr(data, '\0', size) : NULL;
	struct sbat_record rec;
	size_t pos = 0, n = 0;

	FUZZ_ASSERT(s->text == (const char *)data && s->kind == kind);
	FUZZ_ASSERT(s->size == (nul ? (size_t)(nul - data) : size));
	for (size_t i = s->size; i < size; i++)
		FUZZ_ASSERT(data[i] == 0); /* only NUL padding after the text */
	FUZZ_ASSERT(size <= SBAT_MAX_SIZE);
	FUZZ_ASSERT(s->n_records >= 1 && s->n_records <= SBAT_MAX_RECORDS);
	for (size_t i = 0; i < s->size; i++) {
		uint8_t c = data[i];

		FUZZ_ASSERT((c >= 0x20 && c <= 0x7e) || c == '\n' ||
			    (c == '\r' && i + 1 < s->size && data[i + 1] == '\n') ||
			    (c == '\r' && i + 1 == s->size));
	}

	ref_read(s->text, s->size, r);
	FUZZ_ASSERT(r->n == s->n_records);
	while (sbat_next_record(s, &pos, &rec)) {
		FUZZ_ASSERT(n < r->n);
		FUZZ_ASSERT(rec.name == r->rec[n].name && rec.name_len == r->rec[n].name_len);
		FUZZ_ASSERT(rec.generation == r->rec[n].generation);
		FUZZ_ASSERT(rec.name_len >= 1 && rec.name_len <= SBAT_MAX_FIELD);
		for (size_t i = 0; i < rec.name_len; i++)
			FUZZ_ASSERT(printable_field_byte(rec.name[i]));
		FUZZ_ASSERT(pos <= s->size);
		n++;
	}
	FUZZ_ASSERT(n == s->n_records);
	FUZZ_ASSERT(!sbat_next_record(s, &pos, &rec)); /* stays at the end */
	FUZZ_ASSERT(r->rec[0].name_len == 4 && memcmp(r->rec[0].name, "sbat", 4) == 0);
	if (kind == SBAT_LEVEL)
		FUZZ_ASSERT(s->datestamp == r->datestamp);
	else
		FUZZ_ASSERT(s->datestamp == 0);
}

/* ---- parsing each part --------------------------------------------------------------- */

struct part {
	uint8_t *data; /* its own heap block of exactly size bytes (1 when empty) */
	size_t size;
	bool ok[2];    /* parsed as SBAT_SECTION, SBAT_LEVEL */
	struct sbat sbat[2];
	struct ref *ref[2]; /* the reference reading of each kind that parsed */
};

static struct ref refs[N_PARTS][2]; /* large: kept out of the stack and the heap */

static void parse_part(struct part *p)
{
	for (int k = 0; k < 2; k++) {
		enum sbat_kind kind = k ? SBAT_LEVEL : SBAT_SECTION;
		struct reason_buf *why_buf = malloc(sizeof(*why_buf)); /* ASan checks its bounds */
		const char *why = NULL;
		int r;

		memset(why_buf, 0x55, sizeof(*why_buf));
		r = sbat_parse(p->data, p->size, kind, &p->sbat[k], &why, why_buf);
		FUZZ_ASSERT(r == 0 || r == -1);
		FUZZ_ASSERT(r == 0 || why != why_buf->text ||
			    memchr(why_buf->text, '\0', sizeof(why_buf->text)) != NULL);
		if (r < 0) {
			FUZZ_ASSERT(why && why[0] != '\0');
			/* nothing to walk: sbat_next_record finds no record */
			FUZZ_ASSERT(p->sbat[k].text == NULL && p->sbat[k].size == 0);
		} else {
			p->ok[k] = true;
			check_parsed(p->data, p->size, kind, &p->sbat[k], p->ref[k]);
		}
		free(why_buf);
	}
	/* a section is a level's superset only in field count: the header differs */
	if (p->ok[SBAT_SECTION] && p->ok[SBAT_LEVEL])
		FUZZ_ASSERT(p->sbat[0].n_records == p->sbat[1].n_records);
}

/* ---- sbat_check against the reference -------------------------------------------------- */

/*
 * sbat_check walks the image once per level record: up to 512 x 512 record
 * reads, a tenth of a second with this instrumentation. Large pairs add no
 * behaviour, only time, so they are left to the unit tests.
 */
#define MAX_PAIRS 16384

static bool pairs_ok(const struct part *image, const struct part *level)
{
	return image->sbat[SBAT_SECTION].n_records * level->sbat[SBAT_LEVEL].n_records <= MAX_PAIRS;
}

static void check_check(const struct part *image, const struct part *level)
{
	const struct ref *ri = image->ref[SBAT_SECTION], *rl = level->ref[SBAT_LEVEL];
	struct reason_buf *why_buf = malloc(sizeof(*why_buf)); /* ASan checks its bounds */
	const char *why = "";
	char expect[sizeof(why_buf->text)];
	bool revoked = false;
	int r;

	expect[0] = '\0';
	for (size_t l = 0; l < rl->n && !revoked; l++)
		for (size_t i = 0; i < ri->n && !revoked; i++)
			if (ri->rec[i].name_len == rl->rec[l].name_len &&
			    memcmp(ri->rec[i].name, rl->rec[l].name, rl->rec[l].name_len) == 0 &&
			    ri->rec[i].generation < rl->rec[l].generation) {
				revoked = true;
				snprintf(expect, sizeof(expect),
					 "SBAT revokes component %.*s generation %u (SbatLevel %llu requires %u)",
					 (int)ri->rec[i].name_len, ri->rec[i].name, ri->rec[i].generation,
					 (unsigned long long)level->sbat[SBAT_LEVEL].datestamp,
					 rl->rec[l].generation);
			}
	r = sbat_check(&image->sbat[SBAT_SECTION], &level->sbat[SBAT_LEVEL], &why, why_buf);
	FUZZ_ASSERT(r == (revoked ? -1 : 0));
	/* the same text as the reference, cut where it cuts */
	if (revoked)
		FUZZ_ASSERT(why == why_buf->text && strcmp(why, expect) == 0);
	free(why_buf);
}

/* ---- .sbatlevel payloads -------------------------------------------------------------- */

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The whole input as a payload: whatever parses lies inside it and re-parses. */
static void check_raw_payload(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	struct sbat_levels lv;
	struct reason_buf why_buf;
	const char *why = "";

	if (size)
		memcpy(copy, data, size);
	if (sbat_levels_parse(copy, size, &lv, &why, &why_buf) == 0) {
		const struct sbat *both[2] = { &lv.automatic, &lv.latest };

		FUZZ_ASSERT(size >= 12);
		for (int i = 0; i < 2; i++) {
			const uint8_t *t = (const uint8_t *)both[i]->text;
			struct sbat again;
			struct reason_buf w_buf;
			const char *w;

			FUZZ_ASSERT(t >= copy + 4 && both[i]->size < size &&
				    (size_t)(t - copy) <= size - both[i]->size - 1);
			FUZZ_ASSERT(t[both[i]->size] == '\0'); /* NUL-terminated in the payload */
			FUZZ_ASSERT(sbat_parse(t, both[i]->size, SBAT_LEVEL, &again, &w, &w_buf) == 0);
			FUZZ_ASSERT(again.datestamp == both[i]->datestamp);
		}
	} else {
		FUZZ_ASSERT(strncmp(why, ".sbatlevel: ", 12) == 0);
	}
	free(copy);
}

/*
 * A payload of the two level parts, each cut at its first NUL and
 * terminated: parses exactly when both cut texts do. Returns true with
 * @out filled (pointing into *@payload, which the caller frees).
 */
static bool make_levels(const struct part *automatic, const struct part *latest,
			struct sbat_levels *out, uint8_t **payload)
{
	size_t a = strnlen((const char *)automatic->data, automatic->size);
	size_t l = strnlen((const char *)latest->data, latest->size);
	size_t size = 12 + a + 1 + l + 1;
	uint8_t *p = malloc(size);
	struct sbat cut;
	struct reason_buf why_buf;
	const char *why;
	bool want, got;

	put_le32(p, 0);
	put_le32(p + 4, 8);
	put_le32(p + 8, (uint32_t)(8 + a + 1));
	memcpy(p + 12, automatic->data, a);
	p[12 + a] = '\0';
	memcpy(p + 13 + a, latest->data, l);
	p[13 + a + l] = '\0';

	want = sbat_parse(automatic->data, a, SBAT_LEVEL, &cut, &why, &why_buf) == 0 &&
	       sbat_parse(latest->data, l, SBAT_LEVEL, &cut, &why, &why_buf) == 0;
	got = sbat_levels_parse(p, size, out, &why, &why_buf) == 0;
	FUZZ_ASSERT(want == got);
	if (got) {
		FUZZ_ASSERT(out->automatic.text == (const char *)p + 12 && out->automatic.size == a);
		FUZZ_ASSERT(out->latest.text == (const char *)p + 13 + a && out->latest.size == l);
		if (automatic->ok[SBAT_LEVEL])
			FUZZ_ASSERT(out->automatic.datestamp == automatic->sbat[SBAT_LEVEL].datestamp);
	}
	*payload = p;
	return got;
}

/* ---- sbat_level_update ------------------------------------------------------------------ */

/* lockshim's levels when the input's do not parse */
static const struct part fixed_automatic = {
	.data = (uint8_t *)"sbat,1,2025021800\nshim,4\ngrub,5\n",
	.size = 32,
};
static const struct part fixed_latest = {
	.data = (uint8_t *)"sbat,1,2026120600\nshim,4\ngrub,5\nlockshim,2\n",
	.size = 43,
};

static bool inside(const void *p, size_t len, const void *base, size_t size)
{
	const uint8_t *q = p, *b = base;

	return q >= b && (size_t)(q - b) <= size && len <= size - (size_t)(q - b);
}

static void check_update(const struct sbat_levels *embedded, const struct part *stored_part,
			 uint8_t flags, uint8_t policy)
{
	static const uint32_t attrs[8] = { 0, SBAT_LEVEL_ATTRIBUTES, 0x7, 0x1,
					   0x27, SBAT_LEVEL_ATTRIBUTES, SBAT_LEVEL_ATTRIBUTES,
					   SBAT_LEVEL_ATTRIBUTES };
	unsigned choice = (flags >> 1) & 7;
	bool secure_boot = flags & 1, reset = policy == SBAT_POLICY_RESET && !secure_boot;
	const struct sbat *candidate =
		policy == SBAT_POLICY_LATEST ? &embedded->latest : &embedded->automatic;
	struct sbat_level_stored stored = { 0 };
	struct sbat_level_update *out = malloc(sizeof(*out));
	struct sbat again, current;
	bool stored_valid = false;
	struct reason_buf why_buf;
	const char *why;

	if (choice != 0) {
		stored.present = true;
		stored.data = stored_part->data;
		stored.size = stored_part->size;
		stored.attributes = attrs[choice];
		/* a variable claiming about 4 GiB: refused on its size, before any read */
		if (flags & 0x10)
			stored.size += (size_t)UINT32_MAX;
	}
	if (stored.present && stored.attributes == SBAT_LEVEL_ATTRIBUTES)
		stored_valid = sbat_parse(stored.data, stored.size, SBAT_LEVEL, &current, &why,
					  &why_buf) == 0;

	memset(out, 0xa5, sizeof(*out));
	sbat_level_update(embedded, &stored, policy, secure_boot, out);

	/* the chosen level is valid text with the datestamp it claims */
	FUZZ_ASSERT(out->level.kind == SBAT_LEVEL && out->level.text);
	FUZZ_ASSERT(sbat_parse(out->level.text, out->level.size, SBAT_LEVEL, &again, &why,
			       &why_buf) == 0);
	FUZZ_ASSERT(again.datestamp == out->level.datestamp &&
		    again.n_records == out->level.n_records);
	FUZZ_ASSERT(memchr(out->note, '\0', sizeof(out->note)) != NULL);
	FUZZ_ASSERT(!out->delete_first || out->write);
	for (size_t i = 0; out->note[i]; i++)
		sink ^= (uint8_t)out->note[i];

	if (reset) {
		FUZZ_ASSERT(out->write && out->level.size == strlen(SBAT_LEVEL_ORIGINAL) &&
			    memcmp(out->level.text, SBAT_LEVEL_ORIGINAL, out->level.size) == 0);
		FUZZ_ASSERT(out->delete_first ==
			    (stored.present && stored.attributes != SBAT_LEVEL_ATTRIBUTES));
		FUZZ_ASSERT(out->note[0] != '\0');
		free(out);
		return;
	}
	if (policy > SBAT_POLICY_RESET || policy == SBAT_POLICY_RESET)
		FUZZ_ASSERT(out->note[0] != '\0'); /* unknown, or reset refused */

	if (stored_valid) {
		/* never lowers; writes only to raise, and then the requested level */
		FUZZ_ASSERT(!out->delete_first);
		FUZZ_ASSERT(out->level.datestamp >= current.datestamp);
		if (candidate->datestamp > current.datestamp) {
			FUZZ_ASSERT(out->write && out->level.text == candidate->text &&
				    out->level.datestamp == candidate->datestamp);
		} else {
			FUZZ_ASSERT(!out->write && out->level.text == current.text &&
				    out->level.size == current.size);
			FUZZ_ASSERT(inside(out->level.text, out->level.size, stored.data, stored.size));
		}
	} else {
		/* absent, not NV|BS, or malformed: the requested level is written */
		FUZZ_ASSERT(out->write && out->level.text == candidate->text &&
			    out->level.size == candidate->size);
		FUZZ_ASSERT(out->delete_first ==
			    (stored.present && stored.attributes != SBAT_LEVEL_ATTRIBUTES));
	}
	free(out);
}

/* ---- entry point ------------------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part parts[N_PARTS];
	const uint8_t *p, *end;
	struct sbat_levels embedded;
	uint8_t flags, policy, *payload = NULL;
	size_t n = 0;

	check_raw_payload(data, size);
	if (size < 2)
		return 0;
	flags = data[0];
	policy = data[1];

	memset(parts, 0, sizeof(parts));
	p = data + 2;
	end = data + size;
	for (n = 0; n < N_PARTS; n++) {
		const uint8_t *sep = n + 1 < N_PARTS ? memchr(p, SEPARATOR, (size_t)(end - p)) : NULL;
		size_t len = sep ? (size_t)(sep - p) : (size_t)(end - p);

		parts[n].size = len;
		parts[n].ref[0] = &refs[n][0];
		parts[n].ref[1] = &refs[n][1];
		parts[n].data = malloc(len ? len : 1);
		if (len)
			memcpy(parts[n].data, p, len);
		parse_part(&parts[n]);
		p = sep ? sep + 1 : end;
	}

	/* 1. the image's section against each level part, and against itself read as a level */
	if (parts[0].ok[SBAT_SECTION])
		for (int l = 0; l < N_PARTS; l++)
			if (parts[l].ok[SBAT_LEVEL] && pairs_ok(&parts[0], &parts[l]))
				check_check(&parts[0], &parts[l]);

	/* 2. the two level parts as a .sbatlevel payload, or fixed levels */
	if (!make_levels(&parts[1], &parts[2], &embedded, &payload)) {
		free(payload);
		FUZZ_ASSERT(make_levels(&fixed_automatic, &fixed_latest, &embedded, &payload));
	}

	/* 3. the update decision with the stored part */
	check_update(&embedded, &parts[3], flags, policy);

	free(payload);
	for (n = 0; n < N_PARTS; n++) {
		free(parts[n].data);
	}
	return 0;
}
