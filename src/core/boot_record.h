/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The record of this boot: lockshim's decisions, kept in the volatile
 * variable LockshimBootLog (VAR_LOCKSHIM_BOOT_LOG of variables.h, lockshim's
 * own vendor GUID; BS|RT, never NV) for `lockshim status` to read
 * from Linux. Its data is text, at most BOOT_RECORD_SIZE bytes, each line
 * ending in '\n': first a header,
 *
 *   boot-record=1 lockshim=VERSION dropped=N
 *
 * (the format's version, lockshim's, and how many records gave way), then
 * the record lines of verdict_reason.h exactly as the console shows them
 * after "lockshim: ", oldest first:
 *
 *   memory-attributes=present|absent
 *   secure-boot=enforced|insecure-mode|setup-mode|off SecureBoot=N SetupMode=N
 *       MokSBState=0|1 MokDBState=0|1 MokListTrusted=0|1      (one line)
 *   variable=NAME action=deleted|ignored reason=attributes attributes=0xN
 *   sbat-level=DATESTAMP
 *   mirror=NAME written=no status=TEXT           a runtime mirror not written
 *   lockdown=locked|none reason=WORD
 *   next-stage=IMAGE                             the image lockshim starts itself,
 *   verdict=WORD image=IMAGE reason=NAME ...     then its verdict; and every
 *                                                verdict of the boot
 *
 * Bounded: a record that does not fit makes the oldest image records a
 * second stage asked about give way first, then the oldest of the others
 * (the state of the boot, lockshim's own verdicts); the header counts them.
 */
#ifndef LOCKSHIM_BOOT_RECORD_H
#define LOCKSHIM_BOOT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reason.h"
#include "verdict_reason.h"

#define BOOT_RECORD_VERSION          1
#define BOOT_RECORD_SIZE             4096 /* the variable's data, at most */
#define BOOT_RECORD_HEADER_MAX       128  /* the header line's room, its '\n' included */
#define BOOT_RECORD_LINES_MAX        256
#define BOOT_RECORD_VERSION_TEXT_MAX 48 /* lockshim's version, cut to this */

enum boot_record_kind {
	BOOT_RECORD_STATE, /* the state of the boot, and what lockshim itself starts */
	BOOT_RECORD_IMAGE, /* an image a second stage asked about: the first to give way */
};

/* The records being kept, as the variable's lines after the header. */
struct boot_record {
	char text[BOOT_RECORD_SIZE - BOOT_RECORD_HEADER_MAX];
	size_t used; /* bytes of @text in use: whole lines, each ending in '\n' */
	size_t n;    /* lines */
	uint8_t kind[BOOT_RECORD_LINES_MAX];
	uint64_t dropped;
	char version[BOOT_RECORD_VERSION_TEXT_MAX];
};

/* An empty record, for lockshim @version (cut to BOOT_RECORD_VERSION_TEXT_MAX - 1 bytes). */
void boot_record_init(struct boot_record *record, const char *version);

/*
 * Add the record line @line (no newline; a byte that is not printable
 * ASCII becomes '?', a longer line than VERDICT_RECORD_SIZE - 1 is cut),
 * making older records give way as said above when it does not fit.
 */
void boot_record_add(struct boot_record *record, enum boot_record_kind kind, const char *line);

/*
 * The variable's data: the header, then the lines, into @out of @size
 * bytes (BOOT_RECORD_SIZE is always enough). Returns the size written (no
 * NUL), or 0 when @size is too small.
 */
size_t boot_record_serialize(const struct boot_record *record, char *out, size_t size);

/* ---- reading it (`lockshim status`) ---- */

/* A record as read: pointers into the data it was read from. */
struct boot_record_view {
	uint64_t dropped;
	char version[BOOT_RECORD_VERSION_TEXT_MAX * 4 + 1]; /* lockshim's, as the header says */
	const char *lines; /* the record lines after the header, each ending in '\n' */
	size_t lines_size;
	size_t n; /* record lines */
	/* the last line of each kind, or NULL (its length in *_len) */
	const char *secure_boot, *lockdown;
	size_t secure_boot_len, lockdown_len;
	/* the verdict on the image lockshim started itself (after next-stage=), or NULL */
	const char *started;
	size_t started_len;
};

/*
 * Read the variable's @size bytes at @data into @view. Returns 0, or -1
 * with a reason naming the line when it is not a record lockshim writes:
 * larger than BOOT_RECORD_SIZE, empty, a last line without its newline
 * (truncated), a byte that is not printable ASCII, a line that is not
 * KEY=VALUE fields (record_parse), no header or another version, a verdict
 * or lockdown record without its fields, or a next-stage record not
 * followed by the verdict on that image.
 */
int boot_record_parse(const uint8_t *data, size_t size, struct boot_record_view *view,
		      const char **reason, struct reason_buf *buf);

/*
 * The next line of the @size bytes at @lines from *@at (0 first): *@line
 * and *@len (without the newline). Returns false at the end.
 */
bool boot_record_next_line(const char *lines, size_t size, size_t *at, const char **line,
			   size_t *len);

#endif
