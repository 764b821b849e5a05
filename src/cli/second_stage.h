/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The kernels a second stage asks its first stage about through SHIM_LOCK,
 * as far as its configuration names files: GRUB's grub.cfg (grub_cfg.c)
 * and systemd-boot's Type #1 entries and UKIs (bls.c). These only read:
 * the chain (boot_chain.c) decides each entry, as the first stage would.
 */
#ifndef LOCKSHIM_SECOND_STAGE_H
#define LOCKSHIM_SECOND_STAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "grub_cfg.h"
#include "image_cache.h"

/* Where a second stage's files are on the host. */
struct second_stage_files {
	const char *esp;  /* the ESP's mount point or copy */
	const char *boot; /* the filesystem GRUB's `search` names (/boot); NULL when unknown */
	/* the partition of XBOOTLDR's type GUID systemd-boot also reads; NULL when none */
	const char *xbootldr;
	struct image_cache *cache;
};

/* systemd-boot's variables that choose its default entry (bootctl set-oneshot, set-default). */
struct loader_entry_vars {
	const char *oneshot;     /* LoaderEntryOneShot; "" when none */
	const char *default_set; /* LoaderEntryDefault */
	const char *last_booted; /* LoaderEntryLastBooted, what `@saved` names */
};

struct second_stage_entry {
	char name[400];  /* as the chain shows the image */
	char host[4096]; /* its host path; empty when missing */
	char role[600];  /* "default entry 'Debian'", "entry '...'": the full title */
	char id[256];    /* stable: the BLS id, GRUB's --id, else its '>'-joined title */
};

#define SECOND_STAGE_MAX_ENTRIES GRUB_CFG_MAX_ENTRIES

/* A second stage's entries that start an image, the default first. */
struct second_stage_entries {
	size_t n;
	struct second_stage_entry entry[SECOND_STAGE_MAX_ENTRIES];
	char none[512]; /* n == 0: what the second stage does instead */
	char note[512]; /* said after the answer: what was not evaluated */
};

/* GRUB at ESP path @grub_path: grub.cfg beside it, following configfile. 0, or -1 said. */
int second_stage_grub(const struct second_stage_files *files, const char *grub_path,
		      struct second_stage_entries *out);

/*
 * systemd-boot 252 at ESP path @self: its entries on the ESP and on
 * files->xbootldr in its menu's order, the default first, as
 * config_default_entry_select() picks it: LoaderEntryOneShot, else
 * LoaderEntryDefault (`@saved`: LoaderEntryLastBooted), else loader.conf's
 * `default` (the same), else the first; each a glob over entry ids.
 * Entries it leaves out (image missing, no .osrel, unreadable) are said in
 * out->note. 0, or -1 said.
 */
int second_stage_systemd_boot(const struct second_stage_files *files, const char *self,
			      const struct loader_entry_vars *vars,
			      struct second_stage_entries *out);

#endif
