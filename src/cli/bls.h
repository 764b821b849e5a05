/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * systemd-boot 252's menu as `lockshim check` reads it (src/boot/efi/boot.c
 * of Debian 12's systemd): Type #1 entries (loader/entries/NAME.conf: "key
 * value" lines), Type #2 entries' .osrel (os-release "KEY=value" lines),
 * loader.conf's `default`, the boot counter in a file name, the order of
 * config_entry_compare() and efi_fnmatch()'s globs. Read as 252 reads:
 * lines end at '\n' or '\r', text at a NUL byte, a line without a
 * separator is skipped, a value in double quotes loses them.
 */
#ifndef LOCKSHIM_BLS_H
#define LOCKSHIM_BLS_H

#include <stdbool.h>
#include <stddef.h>

#define BLS_MAX_SIZE  (64 * 1024)
#define BLS_MAX_VALUE 512

/* One entry as systemd-boot sorts and shows it; an empty value is an absent one (252 never has one empty). */
struct bls_entry {
	char id[256]; /* the file name, lower case, counter and suffix kept, as 252 names it */
	char title[BLS_MAX_VALUE];
	char version[BLS_MAX_VALUE];
	char sort_key[BLS_MAX_VALUE];
	char machine_id[BLS_MAX_VALUE];
	char image[BLS_MAX_VALUE];  /* the last `linux` or `efi` line's; '/'-separated */
	bool other_architecture;    /* `architecture` other than x64: 252 leaves it out */
	int tries_left, tries_done; /* "+LEFT-DONE" before the suffix; -1 when none */
};

/*
 * Read @size bytes of a Type #1 entry at @text into @out (id and tries
 * not touched). Returns 0, or -1 with a reason (larger than any entry, a
 * value too long for check).
 */
int bls_entry_parse(const char *text, size_t size, struct bls_entry *out, const char **reason);

/* A UKI's .osrel text: title, version and sort key as bootspec_pick_name_version_sort_key picks. */
int bls_osrel_parse(const char *text, size_t size, struct bls_entry *out, const char **reason);

/*
 * The `default` of loader.conf text (@size bytes at @text) into @out
 * (@out_size bytes; empty when none). Returns 0, or -1 with a reason.
 */
int bls_loader_default(const char *text, size_t size, char *out, size_t out_size,
		       const char **reason);

/* @e's id and boot counter from its file name @name with @suffix (".conf", ".efi"). */
void bls_entry_name(struct bls_entry *e, const char *name, const char *suffix);

/* config_entry_compare(): < 0 when @a comes first in systemd-boot 252's menu. */
int bls_entry_compare(const struct bls_entry *a, const struct bls_entry *b);

/* strverscmp_improved(): < 0 when version @a is older than @b. */
int bls_version_compare(const char *a, const char *b);

/* efi_fnmatch(): '*', '?', '[...]' with ranges, '\\' escapes; no '!' negation. */
bool bls_glob_match(const char *pattern, const char *id);

#endif
