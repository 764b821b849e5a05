// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "sbat_level.h"

#include <stdarg.h>
#include <string.h>

#include <openssl/bio.h>

#include "safe_math.h"

/*
 * At most this much of the parser's reason goes into a longer message, so
 * that what follows it there (the level applied instead) always fits.
 */
#define QUOTED_REASON_MAX 159

/* The NUL-terminated level at @offset (counted from byte 4) of the section. */
static int embedded_level(const uint8_t *data, size_t size, uint32_t offset, struct sbat *out,
			  const char *which, const char **reason, struct reason_buf *buf)
{
	struct reason_buf parser_buf;
	const char *why;
	size_t start;
	const uint8_t *nul;

	if (add_overflows(offset, 4, &start) || start >= size)
		return refusef(reason, buf, ".sbatlevel: %s offset %u is outside the section",
			       which, offset);
	nul = memchr(data + start, '\0', size - start);
	if (!nul)
		return refusef(reason, buf, ".sbatlevel: %s level is not NUL-terminated", which);
	if (sbat_parse(data + start, (size_t)(nul - (data + start)), SBAT_LEVEL, out, &why,
		       &parser_buf) < 0)
		return refusef(reason, buf, ".sbatlevel: %s level: %.*s", which, QUOTED_REASON_MAX,
			       why);
	return 0;
}

int sbat_levels_parse(const uint8_t *data, size_t size, struct sbat_levels *out,
		      const char **reason, struct reason_buf *buf)
{
	memset(out, 0, sizeof(*out));
	if (!data || size < 12)
		return refusef(reason, buf, ".sbatlevel: %zu bytes, too short", size);
	if (read_le32(data) != 0)
		return refusef(reason, buf, ".sbatlevel: format %u, this lockshim knows 0",
			       read_le32(data));
	if (embedded_level(data, size, read_le32(data + 4), &out->automatic, "automatic", reason,
			   buf) < 0)
		return -1;
	return embedded_level(data, size, read_le32(data + 8), &out->latest, "latest", reason, buf);
}

/* Append one clause to the console note. */
static __attribute__((__format__(__printf__, 2, 3))) void add_note(struct sbat_level_update *out,
								   const char *fmt, ...)
{
	size_t used = strlen(out->note);
	va_list ap;

	if (used && used + 2 < sizeof(out->note)) {
		memcpy(out->note + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	BIO_vsnprintf(out->note + used, sizeof(out->note) - used, fmt, ap);
	va_end(ap);
}

static void use(struct sbat_level_update *out, const struct sbat *level, bool write)
{
	out->level = *level;
	out->write = write;
}

void sbat_level_update(const struct sbat_levels *embedded, const struct sbat_level_stored *stored,
		       uint8_t policy, bool secure_boot, struct sbat_level_update *out)
{
	const struct sbat *candidate = &embedded->automatic;
	struct sbat current, original;
	struct reason_buf why_buf;
	const char *why;
	bool reset = false;

	memset(out, 0, sizeof(*out));

	switch (policy) {
	case SBAT_POLICY_NONE:
	case SBAT_POLICY_AUTOMATIC:
		break;
	case SBAT_POLICY_LATEST:
		candidate = &embedded->latest;
		break;
	case SBAT_POLICY_RESET:
		if (secure_boot)
			add_note(out, "SbatPolicy reset ignored: Secure Boot is on");
		else
			reset = true;
		break;
	default:
		add_note(out, "SbatPolicy %u unknown, ignored", policy);
		break;
	}

	if (reset) {
		/* a constant that parses: checked by the unit tests */
		sbat_parse(SBAT_LEVEL_ORIGINAL, strlen(SBAT_LEVEL_ORIGINAL), SBAT_LEVEL, &original,
			   &why, &why_buf);
		use(out, &original, true);
		out->delete_first = stored->present && stored->attributes != SBAT_LEVEL_ATTRIBUTES;
		add_note(out, "SbatLevel reset to %llu as SbatPolicy asked (Secure Boot is off)",
			 (unsigned long long)original.datestamp);
		return;
	}
	if (!stored->present) {
		use(out, candidate, true);
		return;
	}
	if (stored->attributes != SBAT_LEVEL_ATTRIBUTES) {
		use(out, candidate, true);
		out->delete_first = true;
		add_note(out, "SbatLevel had attributes 0x%x, not NV|BS: replaced with %llu",
			 stored->attributes, (unsigned long long)candidate->datestamp);
		return;
	}
	if (sbat_parse(stored->data, stored->size, SBAT_LEVEL, &current, &why, &why_buf) < 0) {
		use(out, candidate, true);
		add_note(out, "SbatLevel is malformed (%.*s): replaced with %llu",
			 QUOTED_REASON_MAX, why, (unsigned long long)candidate->datestamp);
		return;
	}
	if (candidate->datestamp > current.datestamp) {
		use(out, candidate, true);
		add_note(out, "SbatLevel raised from %llu to %llu",
			 (unsigned long long)current.datestamp,
			 (unsigned long long)candidate->datestamp);
		return;
	}
	use(out, &current, false);
}
