// SPDX-License-Identifier: BSD-2-Clause-Patent
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "second_stage.h"

#include "bls.h"
#include "esp.h"
#include "file.h"
#include "pe.h"

#define MAX_CONFIGFILES 8

/* A GRUB path: on the ESP, or on the filesystem --boot names (a leading /boot dropped). */
static int grub_host_path(const struct second_stage_files *files, const struct grub_path *p,
			  char *host, size_t size)
{
	const char *rest = p->path;

	if (p->on_esp)
		return esp_resolve(files->esp, p->path, host, size);
	if (!files->boot)
		return 0;
	if (strncmp(rest, "/boot/", 6) == 0 || strcmp(rest, "/boot") == 0)
		rest += 5;
	return esp_resolve(files->boot, rest, host, size);
}

/*
 * grub.cfg's conditions are not evaluated, so a one-shot entry
 * (grub-reboot's next_entry) or a saved default (saved_entry) in the
 * grubenv beside the last grub.cfg read is said after the answer rather
 * than guessed at.
 */
static void grubenv_note(const struct second_stage_files *files, const struct grub_path *cfg,
			 struct second_stage_entries *out)
{
	static const char *const keys[] = { "next_entry=", "saved_entry=" };
	struct grub_path env = *cfg;
	char *slash = strrchr(env.path, '/'), host[4096];
	const uint8_t *text;
	size_t size, len = strlen(out->note);

	if (!slash || (size_t)(slash - env.path) + sizeof("/grubenv") > sizeof(env.path))
		return;
	strcpy(slash, "/grubenv");
	if (grub_host_path(files, &env, host, sizeof(host)) <= 0 ||
	    image_cache_read(files->cache, host, &text, &size) < 0)
		return;
	for (size_t at = 0; at < size;) {
		const char *line = (const char *)text + at, *nl = memchr(line, '\n', size - at);
		size_t n = nl ? (size_t)(nl - line) : size - at;

		at += n + 1;
		for (size_t i = 0; i < n; i++)
			if (line[i] < 0x20 || line[i] > 0x7e)
				n = 0; /* said only when printable */
		for (size_t k = 0; k < 2; k++) {
			size_t key = strlen(keys[k]);

			if (n > key && strncmp(line, keys[k], key) == 0 &&
			    len + 1 < sizeof(out->note))
				len += (size_t)snprintf(out->note + len, sizeof(out->note) - len,
							" (grubenv %.*s: not evaluated)",
							(int)(n > 80 ? 80 : n), line);
			if (len >= sizeof(out->note))
				len = sizeof(out->note) - 1;
		}
	}
}

int second_stage_grub(const struct second_stage_files *files, const char *grub_path,
		      struct second_stage_entries *out)
{
	struct grub_vars *vars = calloc(1, sizeof(*vars));
	struct grub_cfg *cfg = calloc(1, sizeof(*cfg));
	struct grub_path where = { .on_esp = true };
	char dir[320], host[4096], prefix[400];
	const char *reason, *slash;
	long def;
	int r = -1;

	out->n = 0;
	out->none[0] = out->note[0] = '\0';
	if (!vars || !cfg) {
		say_error("out of memory");
		goto out;
	}
	slash = strrchr(grub_path, '\\');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - grub_path + 1) : 0, grub_path);
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	for (char *p = dir; *p; p++)
		if (*p == '\\')
			*p = '/';
	snprintf(prefix, sizeof(prefix), "(" GRUB_ESP_DEVICE ")%.*s", (int)strlen(dir) - 1, dir);
	grub_vars_set(vars, "root", GRUB_ESP_DEVICE);
	grub_vars_set(vars, "prefix", prefix);
	grub_vars_set(vars, "cmdpath", prefix);
	snprintf(where.path, sizeof(where.path), "%sgrub.cfg", dir);
	for (int hop = 0;; hop++) {
		const uint8_t *text;
		size_t size;
		int found = grub_host_path(files, &where, host, sizeof(host));

		if (found < 0)
			goto out;
		if (found == 0) {
			snprintf(out->none, sizeof(out->none),
				 "GRUB finds no %.400s: it stops at its prompt", where.path);
			r = 0;
			goto out;
		}
		if (hop == MAX_CONFIGFILES) {
			say_error("%s: configfile hands over more than %d times", host,
				  MAX_CONFIGFILES);
			goto out;
		}
		if (image_cache_read(files->cache, host, &text, &size) < 0)
			goto out;
		if (grub_cfg_parse((const char *)text, size, vars, cfg, &reason) < 0) {
			say_error("%s: %s", host, reason);
			goto out;
		}
		if (!cfg->has_configfile)
			break;
		where = cfg->configfile;
	}
	def = grub_cfg_default_index(cfg);
	if (def < 0) {
		snprintf(out->none, sizeof(out->none),
			 "%.400s has no menu entry that boots an image", host);
		r = 0;
		goto out;
	}
	/* the default entry first, then the others in menu order */
	for (size_t k = 0; k < cfg->n_entries; k++) {
		size_t i = k == 0 ? (size_t)def : (k <= (size_t)def ? k - 1 : k);
		const struct grub_entry *e = &cfg->entries[i];
		struct second_stage_entry *entry = &out->entry[out->n];
		int found;

		if (!e->has_image)
			continue;
		snprintf(entry->role, sizeof(entry->role), "%s '%s'",
			 k == 0 ? "default entry" : "entry", e->title);
		snprintf(entry->id, sizeof(entry->id), "%s", e->id);
		snprintf(entry->name, sizeof(entry->name), "%s%s", e->image.on_esp ? "(ESP)" : "",
			 e->image.path);
		found = grub_host_path(files, &e->image, entry->host, sizeof(entry->host));
		if (found < 0)
			goto out;
		if (found == 0)
			entry->host[0] = '\0';
		out->n++;
	}
	r = 0;
	grubenv_note(files, &where, out);
out:
	free(vars);
	free(cfg);
	return r;
}

/* Append @fmt to @note, cut at its end. */
static void note_add(char *note, size_t size, const char *fmt, const char *a, const char *b)
{
	size_t len = strlen(note);

	/* cut when full: the return value is checked only to say so to the compiler */
	if (len + 1 < size && snprintf(note + len, size - len, fmt, a, b) < 0)
		note[len] = '\0';
}

/* One systemd-boot entry: a Type #1 .conf or a UKI. */
struct sd_entry {
	struct bls_entry bls;
	char name[320];  /* as the chain shows the image */
	char host[4096]; /* the image's host path */
	char title[600]; /* as its menu shows it (config_title_generate) */
};

struct sd_scan {
	const struct second_stage_files *files;
	const char *self; /* systemd-boot's own ESP path: an `efi` entry naming it is left out */
	struct sd_entry *entries;
	size_t n;
	struct second_stage_entries *out;
};

/* The image of Type #1 entry @e on @root: 1 there, 0 left out (said), -1 unusable input. */
static int sd_type1(struct sd_scan *scan, const char *root, bool on_esp, const char *path,
		    const char *file, struct sd_entry *e)
{
	char note[sizeof(scan->out->note)];
	const uint8_t *text;
	const char *reason;
	size_t size;
	int r;

	if (image_cache_read(scan->files->cache, path, &text, &size) < 0)
		return -1;
	if (bls_entry_parse((const char *)text, size, &e->bls, &reason) < 0) {
		note_add(scan->out->note, sizeof(scan->out->note),
			 " (loader entry %s: %s: not read)", file, reason);
		return 0;
	}
	if (!e->bls.image[0] || e->bls.other_architecture)
		return 0; /* no image for this machine: 252 makes no entry */
	if (on_esp && scan->self) {
		char self[320];

		snprintf(self, sizeof(self), "%s", scan->self);
		for (char *p = self; *p; p++)
			if (*p == '\\')
				*p = '/';
		if (strcasecmp(self + (self[0] == '/'), e->bls.image + (e->bls.image[0] == '/')) ==
		    0)
			return 0; /* systemd-boot itself */
	}
	snprintf(e->name, sizeof(e->name), "%.319s", e->bls.image);
	r = esp_resolve(root, e->bls.image, e->host, sizeof(e->host));
	if (r == 0) {
		snprintf(note, sizeof(note), "%.200s", e->bls.image);
		note_add(scan->out->note, sizeof(scan->out->note),
			 " (loader entry %s: %s does not exist: systemd-boot leaves it out)", file,
			 note);
	}
	return r;
}

/* A UKI: its .osrel names it (bootspec_pick_name_version_sort_key); without one 252 skips it. */
static int sd_uki(struct sd_scan *scan, const char *path, const char *dir_name, const char *file,
		  struct sd_entry *e)
{
	struct pe_image *pe = malloc(sizeof(*pe));
	const struct pe_section *osrel;
	const uint8_t *data;
	const char *reason = "no .osrel section";
	size_t size;
	int r = -1;

	if (!pe) {
		say_error("out of memory");
		return -1;
	}
	if (image_cache_read(scan->files->cache, path, &data, &size) < 0)
		goto out;
	r = 0;
	if (pe_parse(data, size, pe, &reason) < 0 || !(osrel = pe_find_section(pe, ".osrel")) ||
	    !osrel->raw_size) {
		note_add(scan->out->note, sizeof(scan->out->note),
			 " (UKI %s: %s: systemd-boot leaves it out)", file, reason);
		goto out;
	}
	if (bls_osrel_parse((const char *)data + osrel->raw_offset,
			    osrel->raw_size < osrel->virtual_size ? osrel->raw_size :
								    osrel->virtual_size,
			    &e->bls, &reason) < 0 ||
	    !e->bls.title[0]) {
		note_add(scan->out->note, sizeof(scan->out->note),
			 " (UKI %s: %s: systemd-boot leaves it out)", file,
			 e->bls.title[0] ? reason : "its .osrel names no OS");
		goto out;
	}
	snprintf(e->name, sizeof(e->name), "%s/%s", dir_name, file);
	snprintf(e->host, sizeof(e->host), "%.4095s", path);
	r = 1;
out:
	free(pe);
	return r;
}

/* The entries of one directory, *.conf (Type #1) or *.efi (UKIs), on the partition at @root. */
static int sd_scan_dir(struct sd_scan *scan, const char *root, bool on_esp, bool ukis)
{
	const char *dir_name = ukis ? "EFI/Linux" : "loader/entries";
	const char *suffix = ukis ? ".efi" : ".conf";
	char dir_host[4096], path[8192];
	struct dirent *d;
	DIR *dir;
	int r = esp_resolve(root, dir_name, dir_host, sizeof(dir_host));

	if (r <= 0)
		return r;
	dir = opendir(dir_host);
	if (!dir) {
		say_error("%s: %s", dir_host, strerror(errno));
		return -1;
	}
	while ((d = readdir(dir))) {
		size_t len = strlen(d->d_name);
		struct sd_entry *e = &scan->entries[scan->n];

		if (d->d_name[0] == '.' || d->d_type == DT_DIR || len <= strlen(suffix) ||
		    strcasecmp(d->d_name + len - strlen(suffix), suffix) != 0 ||
		    strncmp(d->d_name, "auto-", 5) == 0)
			continue;
		if (scan->n == SECOND_STAGE_MAX_ENTRIES) {
			say_error("%s: more than %d entries: not all could be checked", dir_host,
				  SECOND_STAGE_MAX_ENTRIES);
			goto fail;
		}
		memset(e, 0, sizeof(*e));
		bls_entry_name(&e->bls, d->d_name, suffix);
		snprintf(path, sizeof(path), "%s/%s", dir_host, d->d_name);
		r = ukis ? sd_uki(scan, path, dir_name, d->d_name, e) :
			   sd_type1(scan, root, on_esp, path, d->d_name, e);
		if (r < 0)
			goto fail;
		scan->n += (size_t)r;
	}
	closedir(dir);
	return 0;
fail:
	closedir(dir);
	return -1;
}

/* Whether the titles of @e[@i] and another entry are the same. */
static bool sd_title_shared(const struct sd_entry *e, size_t n, size_t i)
{
	for (size_t k = 0; k < n; k++)
		if (k != i && strcmp(e[k].title, e[i].title) == 0)
			return true;
	return false;
}

/* config_title_generate(): the title, else the id; made unique by version, machine-id, id. */
static void sd_titles(struct sd_entry *e, size_t n)
{
	bool *shared = calloc(n ? n : 1, sizeof(*shared));

	for (size_t i = 0; i < n; i++)
		snprintf(e[i].title, sizeof(e[i].title), "%s",
			 e[i].bls.title[0] ? e[i].bls.title : e[i].bls.id);
	for (int round = 0; shared && round < 3; round++) {
		bool any = false;

		for (size_t i = 0; i < n; i++)
			any |= shared[i] = sd_title_shared(e, n, i);
		for (size_t i = 0; any && i < n; i++) {
			const char *add = round == 0 ? e[i].bls.version :
					  round == 1 ? e[i].bls.machine_id :
						       e[i].bls.id;
			size_t len = strlen(e[i].title);

			if (shared[i] && add[0])
				snprintf(e[i].title + len, sizeof(e[i].title) - len, " (%.*s)",
					 round == 1 ? 8 : 400, add);
		}
	}
	free(shared);
}

/* config_entry_find(): the first entry in menu order whose id @pattern matches; -1 when none. */
static long sd_find(const struct sd_entry *e, size_t n, const char *pattern)
{
	for (size_t i = 0; pattern && pattern[0] && i < n; i++)
		if (bls_glob_match(pattern, e[i].bls.id))
			return (long)i;
	return -1;
}

static void lower(char *to, size_t size, const char *s)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < size; i++)
		to[i] = (char)tolower((unsigned char)s[i]);
	to[i] = '\0';
}

/*
 * config_default_entry_select() over the sorted entries: the index, and
 * in *@why what chose it.
 */
static size_t sd_default(const struct sd_entry *e, size_t n, const struct loader_entry_vars *vars,
			 const char *conf, const char **why)
{
	char oneshot[256], def[256], config[256];
	bool saved_conf, saved_var;
	long i;

	lower(oneshot, sizeof(oneshot), vars->oneshot);
	lower(def, sizeof(def), vars->default_set);
	lower(config, sizeof(config), conf);
	saved_conf = strcmp(config, "@saved") == 0;
	saved_var = strcmp(def, "@saved") == 0;
	/* 252 lower-cases the others before it reads LoaderEntryLastBooted: that one is taken as is */
	*why = "LoaderEntryOneShot";
	if ((i = sd_find(e, n, oneshot)) >= 0)
		return (size_t)i;
	*why = saved_var ? "LoaderEntryDefault @saved: LoaderEntryLastBooted" :
			   "LoaderEntryDefault";
	if ((i = sd_find(e, n, saved_var ? vars->last_booted : def)) >= 0)
		return (size_t)i;
	*why = saved_conf ? "loader.conf default @saved: LoaderEntryLastBooted" :
			    "loader.conf default";
	i = saved_conf ? (saved_var ? -1 : sd_find(e, n, vars->last_booted)) :
			 sd_find(e, n, config);
	if (i >= 0)
		return (size_t)i;
	*why = "the first in its menu";
	return 0;
}

int second_stage_systemd_boot(const struct second_stage_files *files, const char *self,
			      const struct loader_entry_vars *vars,
			      struct second_stage_entries *out)
{
	struct sd_scan scan = { files, self,
				calloc(SECOND_STAGE_MAX_ENTRIES, sizeof(struct sd_entry)), 0, out };
	char conf[4096], def[256] = "";
	const char *why = "";
	size_t first;
	int r = -1;

	out->n = 0;
	out->none[0] = out->note[0] = '\0';
	if (!scan.entries) {
		say_error("out of memory");
		return -1;
	}
	/* 252's order of reading: the ESP's UKIs and entries, then XBOOTLDR's */
	if (sd_scan_dir(&scan, files->esp, true, true) < 0 ||
	    sd_scan_dir(&scan, files->esp, true, false) < 0 ||
	    (files->xbootldr && (sd_scan_dir(&scan, files->xbootldr, false, true) < 0 ||
				 sd_scan_dir(&scan, files->xbootldr, false, false) < 0)))
		goto out;
	/* an insertion sort, as 252's sort_pointer_array: equal entries keep that order */
	for (size_t i = 1; i < scan.n; i++) {
		struct sd_entry tmp = scan.entries[i];
		size_t k = i;

		for (; k > 0 && bls_entry_compare(&scan.entries[k - 1].bls, &tmp.bls) > 0; k--)
			scan.entries[k] = scan.entries[k - 1];
		scan.entries[k] = tmp;
	}
	sd_titles(scan.entries, scan.n);
	r = esp_resolve(files->esp, "loader/loader.conf", conf, sizeof(conf));
	if (r > 0) {
		const uint8_t *text;
		const char *reason;
		size_t size;

		r = -1;
		if (image_cache_read(files->cache, conf, &text, &size) < 0)
			goto out;
		if (bls_loader_default((const char *)text, size, def, sizeof(def), &reason) < 0)
			note_add(out->note, sizeof(out->note), " (%s: %s: not read)",
				 "loader/loader.conf", reason);
	} else if (r < 0) {
		goto out;
	}
	r = 0;
	if (scan.n == 0) {
		snprintf(out->none, sizeof(out->none), "systemd-boot finds no entry");
		goto out;
	}
	first = sd_default(scan.entries, scan.n, vars, def, &why);
	note_add(out->note, sizeof(out->note), " (default entry chosen by %s%s)", why, "");
	for (size_t k = 0; k < scan.n; k++) {
		size_t i = k == 0 ? first : (k <= first ? k - 1 : k);
		struct second_stage_entry *entry = &out->entry[out->n++];

		snprintf(entry->role, sizeof(entry->role), "%s '%.580s'",
			 k == 0 ? "default entry" : "entry", scan.entries[i].title);
		snprintf(entry->id, sizeof(entry->id), "%s", scan.entries[i].bls.id);
		snprintf(entry->name, sizeof(entry->name), "%s", scan.entries[i].name);
		snprintf(entry->host, sizeof(entry->host), "%s", scan.entries[i].host);
	}
out:
	free(scan.entries);
	return r;
}
