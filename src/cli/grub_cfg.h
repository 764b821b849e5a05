/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What GRUB would boot from a grub.cfg, as far as the text names files:
 * its menu entries (submenus flattened), the kernel or image each starts
 * (`linux`, `linuxefi`, `chainloader`), the default entry (`set
 * default=`), and where the menu continues when the file hands over to
 * another (`configfile`). `search ... --set=VAR` and `set VAR=` are
 * followed as far as they name a device: a path is on the ESP (GRUB's own
 * device, "esp") or on another filesystem (what `check --boot` stands
 * for). Conditions are not evaluated: the last assignment a file makes
 * counts, and values naming variables grub.cfg does not set (saved_entry,
 * next_entry) are left out.
 *
 * The text is hostile: lines, words, entries and nesting are bounded, and
 * anything longer is refused with the reason.
 */
#ifndef LOCKSHIM_GRUB_CFG_H
#define LOCKSHIM_GRUB_CFG_H

#include <stdbool.h>
#include <stddef.h>

#define GRUB_CFG_MAX_SIZE    (1024 * 1024)
#define GRUB_CFG_MAX_ENTRIES 64
#define GRUB_CFG_MAX_VARS    32
#define GRUB_CFG_MAX_TEXT    256
#define GRUB_ESP_DEVICE      "esp"

struct grub_path {
	bool on_esp;                  /* else on the filesystem `check --boot` names */
	char path[GRUB_CFG_MAX_TEXT]; /* '/'-separated, from that filesystem's root */
};

struct grub_entry {
	char title[GRUB_CFG_MAX_TEXT]; /* submenu titles joined with '>' */
	char id[GRUB_CFG_MAX_TEXT];
	unsigned int top, sub; /* its number at the top level, and in its submenu */
	bool in_submenu;
	bool has_image, chainloader;
	struct grub_path image; /* the kernel, or the image chainloaded */
};

/* Variables as GRUB would hold them while reading; the caller sets root and prefix first. */
struct grub_vars {
	size_t n;
	struct {
		char name[32];
		char value[GRUB_CFG_MAX_TEXT];
	} var[GRUB_CFG_MAX_VARS];
};

struct grub_cfg {
	struct grub_entry entries[GRUB_CFG_MAX_ENTRIES];
	size_t n_entries;
	char default_entry[GRUB_CFG_MAX_TEXT]; /* as set: a number, "N>M", a title or an id */
	bool has_configfile;
	struct grub_path configfile; /* where the menu continues: this file's entries do not count */
};

/* Set @name to @value in @vars. Returns 0, or -1 when either is too long or the table is full. */
int grub_vars_set(struct grub_vars *vars, const char *name, const char *value);

/*
 * Read @size bytes of grub.cfg text at @text with the variables @vars
 * (updated as the text sets them) into @out. Returns 0, or -1 with a
 * reason (a NUL byte, a line or word too long, too many entries, unbalanced
 * braces).
 */
int grub_cfg_parse(const char *text, size_t size, struct grub_vars *vars, struct grub_cfg *out,
		   const char **reason);

/* The index in out->entries of the default entry (the first when it names none); -1 when none. */
long grub_cfg_default_index(const struct grub_cfg *cfg);

#endif
