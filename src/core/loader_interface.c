// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "loader_interface.h"

#include <stdbool.h>
#include <string.h>

#include "device_path.h"
#include "reason.h"
#include "signature_list.h"

#define USEC_PER_SEC    1000000u
#define STALLS_PER_SEC  1000u /* the frequency is measured over a 1 ms stall */
#define LOADER_PRODUCT  "lockshim "
#define DECIMAL_MAX_LEN 20 /* digits of UINT64_MAX */

/* A text being built: @len code units so far; @full once something did not fit. */
struct text_builder {
	struct loader_text *out;
	size_t len;
	bool full;
};

static void put(struct text_builder *b, uint16_t c)
{
	if (b->len + 1 >= LOADER_TEXT_MAX) { /* room for the NUL stays */
		b->full = true;
		return;
	}
	b->out->text[b->len++] = c;
}

static void put_ascii(struct text_builder *b, const char *s)
{
	for (; *s; s++)
		put(b, (uint8_t)*s);
}

/* @v in decimal, at least @min_digits of them (zeros in front): printf's %0Nu */
static void put_decimal(struct text_builder *b, uint64_t v, unsigned int min_digits)
{
	char digits[DECIMAL_MAX_LEN];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (; n < min_digits; min_digits--)
		put(b, '0');
	while (n)
		put(b, (uint8_t)digits[--n]);
}

/* "%u.%02u" of a UEFI revision: the major version in the high 16 bits */
static void put_revision(struct text_builder *b, uint32_t revision)
{
	put_decimal(b, revision >> 16, 1);
	put(b, '.');
	put_decimal(b, revision & 0xffff, 2);
}

/* NUL-terminate; 0, or -1 with @why when the text did not fit. */
static int finish(struct text_builder *b, const char *why, const char **reason)
{
	if (b->full)
		return refuse(reason, why);
	b->out->text[b->len] = 0;
	b->out->size = (b->len + 1) * sizeof(uint16_t);
	return 0;
}

static struct text_builder builder(struct loader_text *out)
{
	out->size = 0;
	return (struct text_builder){ .out = out };
}

int loader_info_text(const char *version, struct loader_text *out, const char **reason)
{
	struct text_builder b = builder(out);

	for (const char *c = version; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			return refuse(reason, "the version is not printable ASCII");
	put_ascii(&b, LOADER_PRODUCT);
	put_ascii(&b, version);
	return finish(&b, "the version is too long", reason);
}

int loader_firmware_info_text(const uint16_t *vendor, uint32_t revision, struct loader_text *out,
			      const char **reason)
{
	struct text_builder b = builder(out);

	if (!vendor)
		return refuse(reason, "the firmware names no vendor");
	/* stops at the NUL, or once full: reads at most LOADER_TEXT_MAX code units */
	for (; !b.full && *vendor; vendor++)
		put(&b, *vendor);
	put(&b, ' ');
	put_revision(&b, revision);
	return finish(&b, "the firmware vendor's name is too long", reason);
}

void loader_firmware_type_text(uint32_t revision, struct loader_text *out)
{
	struct text_builder b = builder(out);
	const char *unused;

	put_ascii(&b, "UEFI ");
	put_revision(&b, revision);
	finish(&b, "", &unused); /* at most 17 characters: always fits */
}

uint64_t loader_tsc_frequency(uint64_t start, uint64_t end)
{
	uint64_t frequency;

	if (end <= start || __builtin_mul_overflow(end - start, STALLS_PER_SEC, &frequency))
		return 0;
	return frequency;
}

uint64_t loader_time_usec(uint64_t ticks, uint64_t frequency)
{
	uint64_t whole, part, usec;

	if (ticks == 0 || frequency == 0)
		return 0;
	/* floor(ticks * 10^6 / frequency) as whole seconds and the rest: no 128-bit division */
	if (__builtin_mul_overflow(ticks / frequency, USEC_PER_SEC, &whole))
		return 0;
	/* ticks % frequency < frequency: its product overflows only past 1.8 * 10^13 Hz */
	if (__builtin_mul_overflow(ticks % frequency, USEC_PER_SEC, &part))
		return 0;
	if (__builtin_add_overflow(whole, part / frequency, &usec))
		return 0;
	return usec;
}

void loader_usec_text(uint64_t usec, struct loader_text *out)
{
	struct text_builder b = builder(out);
	const char *unused;

	put_decimal(&b, usec, 1);
	finish(&b, "", &unused); /* at most 20 digits: always fits */
}

int loader_device_part_uuid_text(const uint8_t *dp, size_t size, struct loader_text *out,
				 const char **reason)
{
	struct text_builder b = builder(out);
	char text[ESL_GUID_TEXT_SIZE];
	struct dp_node hd;
	const uint8_t *guid;
	int r;

	/* the whole path up to its end node, which a well-formed path has: the first GPT HD() */
	r = device_path_gpt_find(dp, size, &hd, &guid, reason);
	if (r <= 0)
		return r; /* no GPT partition (a zero GUID names none), or a malformed path */
	esl_guid_text(guid, text);
	for (const char *c = text; *c; c++) /* uppercase, as gnu-efi prints it for systemd-boot */
		put(&b, *c >= 'a' && *c <= 'f' ? (uint16_t)(*c - 'a' + 'A') : (uint8_t)*c);
	return finish(&b, "", reason) < 0 ? -1 : 1;
}
