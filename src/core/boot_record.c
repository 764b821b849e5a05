// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_record.h"

#include <string.h>

#include "safe_math.h"

void boot_record_init(struct boot_record *record, const char *version)
{
	size_t i;

	memset(record, 0, sizeof(*record));
	/* as it is in the header: never quoted, so the header always fits */
	for (i = 0; version && version[i] && i + 1 < sizeof(record->version); i++) {
		char c = version[i];

		record->version[i] = c > ' ' && c <= '~' && c != '"' && c != '\\' ? c : '?';
	}
	record->version[i] = '\0';
}

/* Where the line starting at @start ends, its newline included. */
static size_t line_end(const struct boot_record *record, size_t start)
{
	const char *nl = memchr(record->text + start, '\n', record->used - start);

	return (size_t)(nl - record->text) + 1; /* every line has its newline */
}

/* Forget line @index (it gives way), counting it. */
static void drop_line(struct boot_record *record, size_t index)
{
	size_t start = 0, end;

	for (size_t i = 0; i < index; i++)
		start = line_end(record, start);
	end = line_end(record, start);
	memmove(record->text + start, record->text + end, record->used - end);
	record->used -= end - start;
	memmove(record->kind + index, record->kind + index + 1, record->n - index - 1);
	record->n--;
	record->dropped++;
}

/* The oldest line of @kind, or -1 when there is none. */
static long oldest(const struct boot_record *record, enum boot_record_kind kind)
{
	for (size_t i = 0; i < record->n; i++)
		if (record->kind[i] == kind)
			return (long)i;
	return -1;
}

void boot_record_add(struct boot_record *record, enum boot_record_kind kind, const char *line)
{
	size_t len = 0;

	while (line[len] && len + 1 < VERDICT_RECORD_SIZE)
		len++;
	/* room for the line and its newline, and its kind */
	while (record->n && (record->n == BOOT_RECORD_LINES_MAX ||
			     !range_inside(record->used, len + 1, sizeof(record->text)))) {
		long i = oldest(record, BOOT_RECORD_IMAGE);

		drop_line(record, i >= 0 ? (size_t)i : 0);
	}
	if (!range_inside(record->used, len + 1, sizeof(record->text))) {
		record->dropped++; /* cannot happen: a line is shorter than the room */
		return;
	}
	for (size_t i = 0; i < len; i++) {
		char c = line[i];

		record->text[record->used++] = c >= ' ' && c <= '~' ? c : '?';
	}
	record->text[record->used++] = '\n';
	record->kind[record->n++] = (uint8_t)kind;
}

/* @v in decimal at @out (room for 21 bytes); returns its length. */
static size_t put_decimal(char *out, uint64_t v)
{
	char digits[20];
	size_t n = 0, len;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (len = 0; len < n; len++)
		out[len] = digits[n - 1 - len];
	out[len] = '\0';
	return len;
}

size_t boot_record_serialize(const struct boot_record *record, char *out, size_t size)
{
	char header[BOOT_RECORD_HEADER_MAX], number[21];
	size_t header_len;

	header[0] = '\0';
	put_decimal(number, BOOT_RECORD_VERSION);
	record_add_field(header, sizeof(header), "boot-record", number);
	record_add_field(header, sizeof(header), "lockshim", record->version);
	put_decimal(number, record->dropped);
	record_add_field(header, sizeof(header), "dropped", number);
	header_len = strlen(header);
	/* never quoted (boot_record_init), the version leaves the header room */
	if (header_len + 1 >= sizeof(header) || !range_inside(header_len + 1, record->used, size))
		return 0;
	memcpy(out, header, header_len);
	out[header_len] = '\n';
	memcpy(out + header_len + 1, record->text, record->used);
	return header_len + 1 + record->used;
}

bool boot_record_next_line(const char *lines, size_t size, size_t *at, const char **line,
			   size_t *len)
{
	const char *nl;

	if (*at >= size)
		return false;
	nl = memchr(lines + *at, '\n', size - *at);
	*line = lines + *at;
	*len = nl ? (size_t)(nl - *line) : size - *at;
	*at += *len + 1;
	return true;
}

static bool is_word(const char *value, const char *const *words)
{
	for (; *words; words++)
		if (strcmp(value, *words) == 0)
			return true;
	return false;
}

/* [a-z0-9-]+, as verdict_reason_name's names */
static bool is_name(const char *value)
{
	if (!*value)
		return false;
	for (; *value; value++)
		if (!((*value >= 'a' && *value <= 'z') || (*value >= '0' && *value <= '9') ||
		      *value == '-'))
			return false;
	return true;
}

static bool is_decimal(const char *value)
{
	if (!*value || strlen(value) > 20)
		return false;
	for (; *value; value++)
		if (*value < '0' || *value > '9')
			return false;
	return true;
}

static uint64_t decimal(const char *value)
{
	uint64_t v = 0;

	for (; *value; value++)
		v = v * 10 + (uint64_t)(*value - '0'); /* wraps past 2^64: a count, never a size */
	return v;
}

/* The header's fields into @view. */
static int parse_header(const struct record_fields *f, struct boot_record_view *view,
			const char **reason)
{
	const char *version = record_value(f, "boot-record");
	const char *lockshim = record_value(f, "lockshim");
	const char *dropped = record_value(f, "dropped");

	if (!version || strcmp(f->field[0].key, "boot-record") != 0)
		return refuse(reason, "line 1 is not the header boot-record=1 ...");
	if (strcmp(version, "1") != 0)
		return refuse(reason, "line 1: a boot-record version other than 1");
	if (!lockshim || !dropped || !is_decimal(dropped) || f->n != 3)
		return refuse(reason,
			      "line 1: the header is not boot-record=1 lockshim=V dropped=N");
	if (strlen(lockshim) >= sizeof(view->version))
		return refuse(reason, "line 1: lockshim's version is too long");
	memcpy(view->version, lockshim, strlen(lockshim) + 1);
	view->dropped = decimal(dropped);
	return 0;
}

/* A verdict line's fields: verdict, image, reason, then list and entry when there are. */
static const char *verdict_line_problem(const struct record_fields *f)
{
	static const char *const words[] = { "allowed", "refused", "unverified", NULL };
	static const char *const keys[] = { "verdict", "image", "reason", "list", "entry" };
	size_t k = 0;

	for (size_t i = 0; i < f->n; i++) {
		while (k < 5 && strcmp(f->field[i].key, keys[k]) != 0)
			k++;
		if (k == 5 || (i < 3 && k != i))
			return "a verdict record's fields are not verdict image reason [list] [entry]";
	}
	if (f->n < 3)
		return "a verdict record without image and reason";
	if (!is_word(f->field[0].value, words))
		return "a verdict other than allowed, refused or unverified";
	if (!is_name(f->field[2].value))
		return "a verdict record's reason is not a reason name";
	return NULL;
}

/* What is wrong with the record line @f, by its kind; NULL when nothing. */
static const char *line_problem(const struct record_fields *f)
{
	static const char *const lockdown_words[] = { "locked", "none", NULL };
	const char *kind = f->field[0].key;

	if (strcmp(kind, "verdict") == 0)
		return verdict_line_problem(f);
	if (strcmp(kind, "lockdown") == 0)
		return is_word(f->field[0].value, lockdown_words) && f->n == 2 &&
				       strcmp(f->field[1].key, "reason") == 0 &&
				       is_name(f->field[1].value) ?
			       NULL :
			       "a lockdown record is not lockdown=locked|none reason=NAME";
	if (strcmp(kind, "next-stage") == 0)
		return f->n == 1 ? NULL : "a next-stage record with more than the image";
	if (strcmp(kind, "boot-record") == 0)
		return "a second header";
	return NULL; /* the other kinds are said as they are */
}

int boot_record_parse(const uint8_t *data, size_t size, struct boot_record_view *view,
		      const char **reason, struct reason_buf *buf)
{
	/* static: the fields of two lines are 17 KiB; the parser is the host's, single-threaded */
	static struct record_fields f;
	const char *text = (const char *)data, *line, *next_stage = NULL;
	size_t at = 0, len, line_no = 0, next_stage_len = 0;
	const char *why;

	memset(view, 0, sizeof(*view));
	if (size > BOOT_RECORD_SIZE)
		return refusef(reason, buf, "%zu bytes, more than the %d lockshim writes", size,
			       BOOT_RECORD_SIZE);
	if (!size)
		return refuse(reason, "empty");
	if (text[size - 1] != '\n')
		return refuse(reason, "the last line has no newline: truncated");
	while (boot_record_next_line(text, size, &at, &line, &len)) {
		line_no++;
		for (size_t i = 0; i < len; i++)
			if (line[i] < ' ' || line[i] > '~')
				return refusef(reason, buf,
					       "line %zu: a byte that is not printable ASCII",
					       line_no);
		if (record_parse(line, len, &f, &why) < 0)
			return refusef(reason, buf, "line %zu: %s", line_no, why);
		if (line_no == 1) {
			if (parse_header(&f, view, reason) < 0)
				return -1;
			view->lines = line + len + 1;
			view->lines_size = size - at;
			continue;
		}
		why = line_problem(&f);
		if (why)
			return refusef(reason, buf, "line %zu: %s", line_no, why);
		if (next_stage) {
			const char *image = record_value(&f, "image");

			if (strcmp(f.field[0].key, "verdict") != 0 || !image ||
			    strlen(image) != next_stage_len ||
			    memcmp(image, next_stage, next_stage_len))
				return refusef(
					reason, buf,
					"line %zu: not the verdict on the next stage of line %zu",
					line_no, line_no - 1);
			view->started = line;
			view->started_len = len;
			next_stage = NULL;
		}
		if (strcmp(f.field[0].key, "next-stage") == 0) {
			/* the value, unquoted, is kept for the comparison with the next line */
			static char value[VERDICT_RECORD_SIZE];

			next_stage_len = strlen(f.field[0].value);
			memcpy(value, f.field[0].value, next_stage_len + 1);
			next_stage = value;
		} else if (strcmp(f.field[0].key, "secure-boot") == 0) {
			view->secure_boot = line;
			view->secure_boot_len = len;
		} else if (strcmp(f.field[0].key, "lockdown") == 0) {
			view->lockdown = line;
			view->lockdown_len = len;
		}
		view->n++;
	}
	if (next_stage)
		return refusef(reason, buf, "line %zu: a next-stage record without its verdict",
			       line_no);
	return 0;
}
