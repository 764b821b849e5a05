/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * systemd-boot's menu as `lockshim check` reads it (the Boot Loader
 * Specification): Type #1 entries (loader/entries/NAME.conf: "key value"
 * lines; `linux` or `efi` names the image, from the root of the partition
 * the entry is on) and loader/loader.conf's `default` (a glob over entry
 * ids). Type #2 entries (UKIs in EFI/Linux) need no parsing.
 */
#ifndef LOCKSHIM_BLS_H
#define LOCKSHIM_BLS_H

#include <stdbool.h>
#include <stddef.h>

#define BLS_MAX_SIZE  (64 * 1024)
#define BLS_MAX_VALUE 256

struct bls_entry {
	char title[BLS_MAX_VALUE];
	char version[BLS_MAX_VALUE];
	char sort_key[BLS_MAX_VALUE];
	char image[BLS_MAX_VALUE]; /* `linux`, else `efi`; '/'-separated; empty when neither */
};

/*
 * Read @size bytes of a Type #1 entry at @text into @out. Returns 0, or -1
 * with a reason (a NUL byte, a line or value too long, too large).
 */
int bls_entry_parse(const char *text, size_t size, struct bls_entry *out, const char **reason);

/*
 * The `default` of loader.conf text (@size bytes at @text) into @out
 * (@out_size bytes; empty when none). Returns 0, or -1 with a reason.
 */
int bls_loader_default(const char *text, size_t size, char *out, size_t out_size,
		       const char **reason);

#endif
