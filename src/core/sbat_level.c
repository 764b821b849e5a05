// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "sbat_level.h"

#include <stdarg.h>
#include <string.h>

#include <openssl/bio.h>

#include "safe_math.h"

/* The NUL-terminated level at @offset (counted from byte 4) of the section. */
static int embedded_level(const uint8_t *data, size_t size, uint32_t offset, struct sbat *out,
			  const char *which, char *reason, size_t reason_size)
{
	char why[160];
	size_t start;
	const uint8_t *nul;

	if (add_overflows(offset, 4, &start) || start >= size) {
		BIO_snprintf(reason, reason_size, ".sbatlevel: %s offset %u is outside the section",
			     which, offset);
		return -1;
	}
	nul = memchr(data + start, '\0', size - start);
	if (!nul) {
		BIO_snprintf(reason, reason_size, ".sbatlevel: %s level is not NUL-terminated",
			     which);
		return -1;
	}
	if (sbat_parse(data + start, (size_t)(nul - (data + start)), SBAT_LEVEL, out, why,
		       sizeof(why)) < 0) {
		BIO_snprintf(reason, reason_size, ".sbatlevel: %s level: %s", which, why);
		return -1;
	}
	return 0;
}

int sbat_levels_parse(const uint8_t *data, size_t size, struct sbat_levels *out, char *reason,
		      size_t reason_size)
{
	memset(out, 0, sizeof(*out));
	if (!data || size < 12) {
		BIO_snprintf(reason, reason_size, ".sbatlevel: %zu bytes, too short", size);
		return -1;
	}
	if (read_le32(data) != 0) {
		BIO_snprintf(reason, reason_size, ".sbatlevel: format %u, this lockshim knows 0",
			     read_le32(data));
		return -1;
	}
	if (embedded_level(data, size, read_le32(data + 4), &out->automatic, "automatic", reason,
			   reason_size) < 0 ||
	    embedded_level(data, size, read_le32(data + 8), &out->latest, "latest", reason,
			   reason_size) < 0)
		return -1;
	return 0;
}

/* Append one clause to the console note. */
static void add_note(struct sbat_level_update *out, const char *fmt, ...)
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
	char why[160];
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
		add_note(out, "SbatPolicy %u unknown, ignored",
			     policy);
		break;
	}

	if (reset) {
		/* a constant that parses: checked by the unit tests */
		sbat_parse(SBAT_LEVEL_ORIGINAL, strlen(SBAT_LEVEL_ORIGINAL), SBAT_LEVEL, &original,
			   why, sizeof(why));
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
	if (sbat_parse(stored->data, stored->size, SBAT_LEVEL, &current, why, sizeof(why)) < 0) {
		use(out, candidate, true);
		add_note(out, "SbatLevel is malformed (%s): replaced with %llu",
			     why, (unsigned long long)candidate->datestamp);
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
