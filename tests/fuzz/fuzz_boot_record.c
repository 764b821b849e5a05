// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: the record of the boot (boot_record.c), what
 * `lockshim status` reads from a variable root can write, and the record
 * line format (record_add_field, record_parse in verdict_reason.c).
 *
 * Input: the whole of it is read as a LockshimBootLog, from a heap block
 * of exactly its size (ASan reports a read past it); a record it accepts
 * must point inside the input, count its lines, and each of them must read
 * as fields. Then it is cut at every 0xff byte into values: each, as the
 * value of a record line (byte 0's bit 0: an image record or a state one),
 * is added to a boot record, which must stay within BOOT_RECORD_SIZE,
 * count every record it let go, read back whole, and give the newest
 * value back unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot_record.h"
#include "fuzz.h"

static bool inside(const char *p, size_t n, const uint8_t *base, size_t size)
{
	const uint8_t *q = (const uint8_t *)p;

	return q >= base && (size_t)(q - base) <= size && n <= size - (size_t)(q - base);
}

static void check_read(const uint8_t *data, size_t size)
{
	static struct record_fields f;
	struct boot_record_view view;
	struct reason_buf buf;
	const char *reason = NULL, *line;
	size_t at = 0, len, n = 0;

	if (boot_record_parse(data, size, &view, &reason, &buf) < 0) {
		FUZZ_ASSERT(reason && reason[0]);
		return;
	}
	FUZZ_ASSERT(inside(view.lines, view.lines_size, data, size));
	FUZZ_ASSERT(!view.started || inside(view.started, view.started_len, data, size));
	FUZZ_ASSERT(!view.lockdown || inside(view.lockdown, view.lockdown_len, data, size));
	FUZZ_ASSERT(!view.secure_boot ||
		    inside(view.secure_boot, view.secure_boot_len, data, size));
	while (boot_record_next_line(view.lines, view.lines_size, &at, &line, &len)) {
		FUZZ_ASSERT(record_parse(line, len, &f, &reason) == 0);
		n++;
	}
	FUZZ_ASSERT(n == view.n);
	if (view.started) {
		FUZZ_ASSERT(record_parse(view.started, view.started_len, &f, &reason) == 0);
		FUZZ_ASSERT(strcmp(f.field[0].key, "verdict") == 0);
	}
}

static void check_write(const uint8_t *data, size_t size)
{
	static struct boot_record record;
	static struct record_fields f;
	static char value[VERDICT_RECORD_SIZE], line[VERDICT_RECORD_SIZE], out[BOOT_RECORD_SIZE];
	struct boot_record_view view;
	struct reason_buf buf;
	const char *reason = NULL, *line_at, *last = NULL;
	size_t added = 0, out_size, at = 0, len;
	char version[64];
	bool any = false;

	/* the version: any bytes, cut and made printable */
	memcpy(version, data, size < sizeof(version) - 1 ? size : sizeof(version) - 1);
	version[size < sizeof(version) - 1 ? size : sizeof(version) - 1] = '\0';
	boot_record_init(&record, version);
	for (size_t start = 0; start < size;) {
		const uint8_t *end = memchr(data + start, 0xff, size - start);
		size_t n = end ? (size_t)(end - data) - start : size - start;
		size_t v = 0;

		for (size_t i = 1; i < n && v + 1 < sizeof(value) && data[start + i]; i++)
			value[v++] = (char)data[start + i];
		value[v] = '\0';
		line[0] = '\0';
		record_add_field(line, sizeof(line), "value", value);
		if (strlen(line) + 1 < sizeof(line)) { /* a line that was cut is not added */
			boot_record_add(&record,
					n && (data[start] & 1) ? BOOT_RECORD_IMAGE :
								 BOOT_RECORD_STATE,
					line);
			added++;
			any = true;
		} else {
			any = false;
		}
		start += n + 1;
	}
	out_size = boot_record_serialize(&record, out, sizeof(out));
	FUZZ_ASSERT(out_size > 0 && out_size <= BOOT_RECORD_SIZE);
	FUZZ_ASSERT(boot_record_parse((const uint8_t *)out, out_size, &view, &reason, &buf) == 0);
	FUZZ_ASSERT(view.n == record.n && view.dropped + view.n == added);
	if (!any || !view.n)
		return;
	/* the newest line: the value it was given */
	while (boot_record_next_line(view.lines, view.lines_size, &at, &line_at, &len))
		last = line_at;
	FUZZ_ASSERT(last && record_parse(last, len, &f, &reason) == 0);
	FUZZ_ASSERT(strcmp(record_value(&f, "value"), value) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	check_read(copy, size);
	check_write(copy, size);
	free(copy);
	return 0;
}
