/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What GRUB would boot from a grub.cfg, as far as the text names files:
 * its menu entries (submenus flattened), the kernel or image each starts
 * (`linux`, `linuxefi`, `chainloader`), the default entry (`set
 * default=`), and where the menu continues when the file hands over to
 * another (`configfile`), and where Fedora's `blscfg` adds the entries of
 * /loader/entries. `search ... --set=VAR` and `set VAR=` are followed as
 * far as they name a device: a path is on the ESP (GRUB's own device,
 * "esp") or on another filesystem (what `check --boot` stands for); `..`
 * in a path goes up as GRUB's fshelp does. Read as GRUB 2.06 reads: '\r'
 * dropped (grub_file_getline), ';' and bare '{' '}' end commands, a line
 * it cannot parse skipped (said in the note). `if`/`elif`/`else`/`fi`
 * are evaluated where the test is a string test over known variables or a
 * file test the caller answers; any other condition is "not evaluated":
 * what its branches set becomes unknown, entries inside it are marked, a
 * default set there leaves the default undecided, all said, never guessed.
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
	char title[2 * GRUB_CFG_MAX_TEXT + 2]; /* submenu titles joined with '>', whole */
	char id[2 * GRUB_CFG_MAX_TEXT + 2]; /* --id (else the title), the submenu's joined with '>' */
	bool unevaluated;      /* defined or its image chosen under a condition not evaluated */
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
		bool unknown; /* set under a condition not evaluated */
	} var[GRUB_CFG_MAX_VARS];
	/* load_env ran where it was not evaluated: a variable grub.cfg does not set is unknown */
	bool env_unknown;
};

/* What grub.cfg asks of the files around it. */
struct grub_cfg_files {
	/* `[ -e|-f|-s|-d PATH ]`: 1 true, 0 false, -1 cannot tell */
	int (*test)(void *ctx, char op, const struct grub_path *path);
	/* load_env: the variables of grubenv @file into @env; 1 read, 0 none or unreadable */
	int (*load_env)(void *ctx, const struct grub_path *file, struct grub_vars *env);
	void *ctx;
};

struct grub_cfg {
	struct grub_entry entries[GRUB_CFG_MAX_ENTRIES];
	size_t n_entries;
	char default_entry[GRUB_CFG_MAX_TEXT]; /* as set: a number, "N>M", a title or an id */
	bool default_unknown;                  /* set where it was not evaluated */
	bool has_configfile;
	struct grub_path configfile; /* where the menu continues: this file's entries do not count */
	bool has_blscfg;             /* blscfg: the entries of blscfg_dir follow these */
	size_t blscfg_at;            /* how many entries came before it */
	struct grub_path blscfg_dir,
		blscfg_boot_dir; /* /loader/entries, else /boot/loader/entries */
	char note[512];          /* what was skipped or not evaluated, with its line */
};

/* Set @name to @value in @vars. Returns 0, or -1 when either is too long or the table is full. */
int grub_vars_set(struct grub_vars *vars, const char *name, const char *value);

/*
 * Read @size bytes of grub.cfg text at @text with the variables @vars
 * (updated as the text sets them) into @out, @files answering its file
 * tests and load_env. A line GRUB would skip is said in out->note. Returns
 * 0, or -1 with a reason the whole file cannot be read for (larger than
 * any grub.cfg, a NUL byte, out of memory).
 */
int grub_cfg_parse(const char *text, size_t size, struct grub_vars *vars,
		   const struct grub_cfg_files *files, struct grub_cfg *out, const char **reason);

/* @word as GRUB opens it: "(DEVICE)/path" or "/path" on $root, `.` and `..` resolved. */
void grub_cfg_path(const struct grub_vars *vars, const char *word, struct grub_path *out);

/* The index in out->entries of the default entry (the first when it names none); -1 when none. */
long grub_cfg_default_index(const struct grub_cfg *cfg);

#endif
