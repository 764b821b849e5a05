// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "sbat.h"

#include <string.h>

/* The fields a record's meaning depends on; the rest are only validated. */
struct fields {
	size_t count;
	const char *at[3];
	size_t len[3];
};

/*
 * The next non-blank line of @text[0..@len) from *@pos: its bytes without
 * the '\n' and an optional '\r' before it, and its 1-based number, counted
 * in *@line_no. Returns false at the end.
 */
static bool next_line(const char *text, size_t len, size_t *pos, size_t *line_no, const char **line,
		      size_t *line_len)
{
	while (*pos < len) {
		const char *start = text + *pos;
		const char *nl = memchr(start, '\n', len - *pos);
		size_t n = nl ? (size_t)(nl - start) : len - *pos;

		*pos += n + (nl ? 1 : 0);
		(*line_no)++;
		if (n && start[n - 1] == '\r')
			n--;
		if (n) {
			*line = start;
			*line_len = n;
			return true;
		}
	}
	return false;
}

static void split_fields(const char *line, size_t len, struct fields *f)
{
	size_t start = 0;

	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (f->count < 3) {
			f->at[f->count] = line + start;
			f->len[f->count] = i - start;
		}
		f->count++;
		start = i + 1;
	}
}

/* A decimal number of 1 to @max_digits digits no larger than @max. */
static bool parse_decimal(const char *s, size_t len, size_t max_digits, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > max_digits)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0'); /* 19 digits cannot overflow */
	}
	if (v > max)
		return false;
	*out = v;
	return true;
}

static int check_line(const char *line, size_t len, size_t line_no, enum sbat_kind kind, bool first,
		      uint64_t *datestamp, const char **reason, struct reason_buf *buf)
{
	size_t min_fields = kind == SBAT_SECTION ? 6 : first ? 3 : 2;
	size_t field_len = 0;
	struct fields f;
	uint64_t value;

	if (len > SBAT_MAX_LINE)
		return refusef(reason, buf, "line %zu is longer than %d bytes", line_no,
			       SBAT_MAX_LINE);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];

		if (c == ',') {
			field_len = 0;
			continue;
		}
		if (c < 0x20 || c > 0x7e)
			return refusef(reason, buf,
				       "line %zu: byte 0x%02x at column %zu is not printable ASCII",
				       line_no, c, i + 1);
		if (++field_len > SBAT_MAX_FIELD)
			return refusef(reason, buf, "line %zu: a field is longer than %d bytes",
				       line_no, SBAT_MAX_FIELD);
	}
	split_fields(line, len, &f);
	if (f.count < min_fields)
		return refusef(reason, buf, "line %zu has %zu fields, %s needs at least %zu",
			       line_no, f.count,
			       kind == SBAT_SECTION ? "a .sbat record" :
			       first                ? "the SbatLevel header" :
						      "a SbatLevel record",
			       min_fields);
	if (f.len[0] == 0)
		return refusef(reason, buf, "line %zu: empty component name", line_no);
	if (!parse_decimal(f.at[1], f.len[1], 10, UINT32_MAX, &value))
		return refusef(reason, buf,
			       "line %zu: generation '%.*s' is not a number from 0 to 4294967295",
			       line_no, (int)f.len[1], f.at[1]);
	if (first && (f.len[0] != 4 || memcmp(f.at[0], "sbat", 4) != 0))
		return refusef(reason, buf,
			       "line %zu: the first record must be the sbat entry, not '%.*s'",
			       line_no, (int)f.len[0], f.at[0]);
	if (first && kind == SBAT_LEVEL &&
	    !parse_decimal(f.at[2], f.len[2], 19, UINT64_MAX, datestamp))
		return refusef(reason, buf, "line %zu: datestamp '%.*s' is not a number", line_no,
			       (int)f.len[2], f.at[2]);
	return 0;
}

int sbat_parse(const void *data, size_t size, enum sbat_kind kind, struct sbat *out,
	       const char **reason, struct reason_buf *buf)
{
	const char *text = data, *nul, *line;
	size_t len, pos = 0, line_no = 0, line_len;

	memset(out, 0, sizeof(*out));
	out->kind = kind;
	if (size > SBAT_MAX_SIZE)
		return refusef(reason, buf, "%zu bytes, more than the limit of %d", size,
			       SBAT_MAX_SIZE);
	if (!text)
		size = 0;
	nul = size ? memchr(text, '\0', size) : NULL;
	len = nul ? (size_t)(nul - text) : size;
	for (size_t i = len; i < size; i++)
		if (text[i])
			return refusef(reason, buf, "byte 0x%02x at offset %zu follows a NUL",
				       (unsigned char)text[i], i);

	while (next_line(text, len, &pos, &line_no, &line, &line_len)) {
		if (out->n_records == SBAT_MAX_RECORDS)
			return refusef(reason, buf, "more than %d records", SBAT_MAX_RECORDS);
		if (check_line(line, line_len, line_no, kind, out->n_records == 0, &out->datestamp,
			       reason, buf) < 0)
			return -1;
		out->n_records++;
	}
	if (out->n_records == 0)
		return refuse(reason, "no records: the sbat entry is missing");
	out->text = text;
	out->size = len;
	return 0;
}

bool sbat_next_record(const struct sbat *sbat, size_t *pos, struct sbat_record *rec)
{
	const char *line;
	size_t line_len, line_no = 0;
	struct fields f;
	uint64_t gen = 0;

	if (!next_line(sbat->text, sbat->size, pos, &line_no, &line, &line_len))
		return false;
	split_fields(line, line_len, &f);
	parse_decimal(f.at[1], f.len[1], 10, UINT32_MAX, &gen); /* checked by sbat_parse */
	rec->name = f.at[0];
	rec->name_len = f.len[0];
	rec->generation = (uint32_t)gen;
	return true;
}

/* The first record of @image that @want revokes: the same name, a lower generation. */
static bool find_revoked(const struct sbat *image, const struct sbat_record *want,
			 struct sbat_record *have)
{
	size_t pos = 0;

	while (sbat_next_record(image, &pos, have))
		if (have->name_len == want->name_len &&
		    memcmp(have->name, want->name, want->name_len) == 0 &&
		    have->generation < want->generation)
			return true;
	return false;
}

int sbat_check(const struct sbat *image, const struct sbat *level, const char **reason,
	       struct reason_buf *buf)
{
	struct sbat_record want, have;
	size_t pos = 0;

	while (sbat_next_record(level, &pos, &want)) {
		if (!find_revoked(image, &want, &have))
			continue;
		return refusef(
			reason, buf,
			"SBAT revokes component %.*s generation %u (SbatLevel %llu requires %u)",
			(int)have.name_len, have.name, have.generation,
			(unsigned long long)level->datestamp, want.generation);
	}
	return 0;
}
