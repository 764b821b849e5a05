// SPDX-License-Identifier: BSD-2-Clause-Patent
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "second_stage.h"

#include "bls.h"
#include "esp.h"
#include "file.h"
#include "pe.h"

#define MAX_CONFIGFILES 8

/* Append @fmt to @note, cut at its end. */
static void note_add(char *note, size_t size, const char *fmt, const char *a, const char *b)
{
	size_t len = strlen(note);

	/* cut when full: the return value is checked only to say so to the compiler */
	if (len + 1 < size && snprintf(note + len, size - len, fmt, a, b) < 0)
		note[len] = '\0';
}

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

struct grub_files_ctx {
	const struct second_stage_files *files;
};

/* The variable @name of @vars; NULL when not set. */
static const char *grub_var(const struct grub_vars *vars, const char *name)
{
	for (size_t i = 0; i < vars->n; i++)
		if (strcmp(vars->var[i].name, name) == 0)
			return vars->var[i].value;
	return NULL;
}

/* @path's directory joined with @name into @out. */
static bool grub_beside(const struct grub_path *path, const char *name, struct grub_path *out)
{
	char *slash;

	*out = *path;
	slash = strrchr(out->path, '/');
	if (!slash || (size_t)(slash - out->path) + strlen(name) + 2 > sizeof(out->path))
		return false;
	snprintf(slash + 1, sizeof(out->path) - (size_t)(slash + 1 - out->path), "%s", name);
	return true;
}

/* A grubenv's NAME=value lines into @env (grub_envblk's format); false when unreadable. */
static bool grubenv_read(const struct second_stage_files *files, const struct grub_path *path,
			 struct grub_vars *env)
{
	char host[4096], name[32], value[GRUB_CFG_MAX_TEXT];
	const uint8_t *text;
	size_t size;

	memset(env, 0, sizeof(*env));
	if (grub_host_path(files, path, host, sizeof(host)) <= 0 ||
	    image_cache_read(files->cache, host, &text, &size) < 0)
		return false;
	for (size_t at = 0; at < size;) {
		const char *line = (const char *)text + at, *nl = memchr(line, '\n', size - at),
			   *eq;
		size_t n = nl ? (size_t)(nl - line) : size - at;

		at += n + 1;
		eq = memchr(line, '=', n);
		if (line[0] == '#' || !eq || (size_t)(eq - line) >= sizeof(name) ||
		    n - (size_t)(eq - line) > sizeof(value))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - line), line);
		snprintf(value, sizeof(value), "%.*s", (int)(n - (size_t)(eq - line) - 1), eq + 1);
		grub_vars_set(env, name, value);
	}
	return true;
}

static int grub_load_env(void *ctx, const struct grub_path *file, struct grub_vars *env)
{
	return grubenv_read(((struct grub_files_ctx *)ctx)->files, file, env);
}

/*
 * A one-shot entry (grub-reboot's next_entry) or a saved default
 * (saved_entry) in that grubenv which grub.cfg did not load is said after
 * the answer rather than guessed at.
 */
static void grubenv_note(const struct grub_vars *env, const struct grub_vars *vars,
			 struct second_stage_entries *out)
{
	static const char *const keys[] = { "next_entry", "saved_entry" };
	size_t len = strlen(out->note);

	for (size_t k = 0; k < 2; k++) {
		const char *value = grub_var(env, keys[k]);
		bool printable = value != NULL;

		for (const char *p = value; p && *p; p++)
			printable &= *p >= 0x20 && *p <= 0x7e;
		if (!printable || !value[0] || grub_var(vars, keys[k]) ||
		    len + 1 >= sizeof(out->note))
			continue;
		if (snprintf(out->note + len, sizeof(out->note) - len,
			     " (grubenv %s=%.80s: not evaluated)", keys[k], value) < 0)
			out->note[len] = '\0';
		len = strlen(out->note);
	}
}

/* `[ -e|-f|-s|-d PATH ]` on the host's copy; a device check cannot see is "cannot tell". */
static int grub_file_test(void *ctx, char op, const struct grub_path *path)
{
	const struct second_stage_files *files = ((struct grub_files_ctx *)ctx)->files;
	char host[4096];
	struct stat st;
	int found;

	if (!path->on_esp && !files->boot)
		return -1;
	found = grub_host_path(files, path, host, sizeof(host));
	if (found < 0)
		return -1;
	if (found == 0 || stat(host, &st) < 0)
		return 0;
	switch (op) {
	case 'd':
		return S_ISDIR(st.st_mode);
	case 'f':
		return S_ISREG(st.st_mode);
	case 's':
		return st.st_size > 0;
	default:
		return 1;
	}
}

/*
 * The prefix grub-mkimage built into GRUB at @host (its "mods" section's
 * prefix object: Debian's is /EFI/debian), into @out; false when none.
 */
static bool grub_image_prefix(const struct second_stage_files *files, const char *host, char *out,
			      size_t size)
{
	struct pe_image *pe = malloc(sizeof(*pe));
	const struct pe_section *mods;
	const uint8_t *data, *p;
	const char *reason;
	size_t len, at;
	bool found = false;

	if (!pe || image_cache_read(files->cache, host, &data, &len) < 0 ||
	    pe_parse(data, len, pe, &reason) < 0 || !(mods = pe_find_section(pe, "mods")))
		goto out;
	p = data + mods->raw_offset;
	len = mods->raw_size;
	/* struct grub_module_info64: "mimg", padding, offset and size of the objects */
	if (len < 24 || memcmp(p, "mimg", 4) != 0)
		goto out;
	at = 24;
	while (!found && at + 8 <= len) {
		uint32_t type, obj;

		memcpy(&type, p + at, 4);
		memcpy(&obj, p + at + 4, 4);
		if (obj < 8 || obj > len - at)
			break;
		if (type == 3) { /* OBJ_TYPE_PREFIX */
			snprintf(out, size, "%.*s", (int)strnlen((const char *)p + at + 8, obj - 8),
				 (const char *)p + at + 8);
			found = out[0] == '/';
		}
		at += obj;
	}
out:
	free(pe);
	return found;
}

/* Entries sorted as Fedora's blscfg: version, then id, newest first. */
static int blscfg_cmp(const void *a, const void *b)
{
	const struct bls_entry *x = a, *y = b;
	int r = bls_version_compare(y->version, x->version);

	return r ? r : bls_version_compare(y->id, x->id);
}

/* blscfg: the entries of its directory, sorted, into @cfg at blscfg_at. 0, or -1 said. */
static int grub_blscfg(const struct second_stage_files *files, struct grub_cfg *cfg,
		       struct second_stage_entries *out)
{
	const struct grub_path *dirs[2] = { &cfg->blscfg_dir, &cfg->blscfg_boot_dir };
	struct bls_entry *bls = calloc(GRUB_CFG_MAX_ENTRIES, sizeof(*bls));
	char host[4096], path[8192];
	const struct grub_path *dir = NULL;
	size_t n = 0, room;
	struct dirent *d;
	DIR *dh = NULL;
	int r = -1;

	if (!bls) {
		say_error("out of memory");
		return -1;
	}
	for (int i = 0; i < 2 && !dir; i++)
		if (grub_host_path(files, dirs[i], host, sizeof(host)) > 0)
			dir = dirs[i];
	if (!dir) {
		note_add(out->note, sizeof(out->note), " (blscfg: no %s%s)", dirs[0]->path, "");
		r = 0;
		goto out;
	}
	dh = opendir(host);
	if (!dh) {
		say_error("%s: %s", host, strerror(errno));
		goto out;
	}
	room = GRUB_CFG_MAX_ENTRIES - cfg->n_entries;
	while ((d = readdir(dh))) {
		size_t len = strlen(d->d_name);
		const uint8_t *text;
		const char *reason;
		size_t size;

		if (d->d_name[0] == '.' || len <= 5 || strcmp(d->d_name + len - 5, ".conf") != 0)
			continue;
		if (n == room) {
			note_add(out->note, sizeof(out->note), " (blscfg: more entries than %s%s)",
				 "check reads", "");
			break;
		}
		snprintf(path, sizeof(path), "%s/%s", host, d->d_name);
		if (image_cache_read(files->cache, path, &text, &size) < 0)
			goto out;
		if (bls_entry_parse((const char *)text, size, &bls[n], &reason) < 0) {
			note_add(out->note, sizeof(out->note), " (blscfg %s: %s: not read)",
				 d->d_name, reason);
			continue;
		}
		snprintf(bls[n].id, sizeof(bls[n].id), "%.*s", (int)(len - 5), d->d_name);
		n++;
	}
	qsort(bls, n, sizeof(*bls), blscfg_cmp);
	/* they take the place of the blscfg command: the entries after it move down */
	memmove(&cfg->entries[cfg->blscfg_at + n], &cfg->entries[cfg->blscfg_at],
		(cfg->n_entries - cfg->blscfg_at) * sizeof(cfg->entries[0]));
	for (size_t i = cfg->blscfg_at + n; i < cfg->n_entries + n; i++)
		cfg->entries[i].top += (unsigned int)n;
	for (size_t k = 0; k < n; k++) {
		struct grub_entry *e = &cfg->entries[cfg->blscfg_at + k];

		memset(e, 0, sizeof(*e));
		e->top = (unsigned int)(cfg->blscfg_at ?
						cfg->entries[cfg->blscfg_at - 1].top + 1 + k :
						k);
		snprintf(e->title, sizeof(e->title), "%s",
			 bls[k].title[0] ? bls[k].title : bls[k].id);
		snprintf(e->id, sizeof(e->id), "%s", bls[k].id);
		e->has_image = bls[k].image[0] != '\0';
		e->image.on_esp = dir->on_esp;
		snprintf(e->image.path, sizeof(e->image.path), "%s%.250s",
			 bls[k].image[0] == '/' ? "" : "/", bls[k].image);
	}
	cfg->n_entries += n;
	r = 0;
out:
	if (dh)
		closedir(dh);
	free(bls);
	return r;
}

/* The variables GRUB 2.06's normal mode sets before it reads grub.cfg. */
static void grub_builtins(struct grub_vars *vars, const char *prefix, const char *cmdpath)
{
	static const char *const features[] = {
		"feature_chainloader_bpb",      "feature_ntldr",
		"feature_platform_search_hint", "feature_default_font_path",
		"feature_all_video_module",     "feature_menuentry_id",
		"feature_menuentry_options",    "feature_200_final",
		"feature_nativedisk_cmd",       "feature_timeout_style",
	};

	grub_vars_set(vars, "root", GRUB_ESP_DEVICE);
	grub_vars_set(vars, "prefix", prefix);
	grub_vars_set(vars, "cmdpath", cmdpath);
	grub_vars_set(vars, "grub_cpu", "x86_64");
	grub_vars_set(vars, "grub_platform", "efi");
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		grub_vars_set(vars, features[i], "y");
}

/*
 * Which grub.cfg GRUB at @grub_path reads first, into @where. With a
 * prefix built in (Debian's signed GRUB: /EFI/debian), its memdisk
 * configuration's order: $prefix/x86_64-efi/grub.cfg, $prefix/grub.cfg,
 * then grub.cfg beside the image ($cmdpath); a $prefix that is not there
 * becomes /boot/grub. Without one, grub.cfg beside it.
 */
static void grub_first_cfg(const struct second_stage_files *files, const char *grub_host,
			   const char *dir, struct grub_vars *vars, struct grub_path *where)
{
	char built[200], prefix[400], cmdpath[400], host[4096];
	struct grub_path p = { .on_esp = true };
	static const char *const names[] = { "/x86_64-efi/grub.cfg", "/grub.cfg" };

	snprintf(cmdpath, sizeof(cmdpath), "(" GRUB_ESP_DEVICE ")%.*s", (int)strlen(dir) - 1, dir);
	snprintf(prefix, sizeof(prefix), "%s", cmdpath);
	*where = (struct grub_path){ .on_esp = true };
	snprintf(where->path, sizeof(where->path), "%sgrub.cfg", dir);
	if (grub_image_prefix(files, grub_host, built, sizeof(built))) {
		snprintf(p.path, sizeof(p.path), "%s", built);
		if (esp_resolve(files->esp, p.path, host, sizeof(host)) <= 0)
			snprintf(built, sizeof(built), "/boot/grub");
		snprintf(prefix, sizeof(prefix), "(" GRUB_ESP_DEVICE ")%s", built);
		for (size_t i = 0; i < 2; i++) {
			snprintf(p.path, sizeof(p.path), "%s%s", built, names[i]);
			if (esp_resolve(files->esp, p.path, host, sizeof(host)) > 0) {
				*where = p;
				break;
			}
		}
	}
	grub_builtins(vars, prefix, cmdpath);
}

int second_stage_grub(const struct second_stage_files *files, const char *grub_path,
		      struct second_stage_entries *out)
{
	struct grub_vars *vars = calloc(1, sizeof(*vars)), *env = calloc(1, sizeof(*env));
	struct grub_cfg *cfg = calloc(1, sizeof(*cfg));
	struct grub_files_ctx ctx = { files };
	struct grub_path where;
	char dir[320], host[4096];
	const char *reason, *slash;
	long def;
	int r = -1;

	out->n = 0;
	out->none[0] = out->note[0] = '\0';
	if (!vars || !cfg || !env) {
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
	if (esp_resolve(files->esp, grub_path, host, sizeof(host)) <= 0)
		host[0] = '\0';
	grub_first_cfg(files, host, dir, vars, &where);
	for (int hop = 0;; hop++) {
		struct grub_cfg_files cfg_files = { grub_file_test, grub_load_env, &ctx };
		struct grub_path env_path;
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
		/* the grubenv beside the last grub.cfg: what it holds that grub.cfg did not load is said */
		if (!grub_beside(&where, "grubenv", &env_path) ||
		    !grubenv_read(files, &env_path, env))
			memset(env, 0, sizeof(*env));
		if (grub_cfg_parse((const char *)text, size, vars, &cfg_files, cfg, &reason) < 0) {
			say_error("%s: %s", host, reason);
			goto out;
		}
		note_add(out->note, sizeof(out->note), "%s%s", cfg->note, "");
		if (!cfg->has_configfile)
			break;
		where = cfg->configfile;
	}
	if (cfg->has_blscfg && grub_blscfg(files, cfg, out) < 0)
		goto out;
	def = grub_cfg_default_index(cfg);
	r = 0;
	if (def < 0) {
		snprintf(out->none, sizeof(out->none),
			 "%.400s has no menu entry that boots an image", host);
		goto out;
	}
	if (cfg->default_unknown) {
		snprintf(
			out->none, sizeof(out->none),
			"cannot tell which entry GRUB boots: its default (%.200s) is set where check "
			"does not evaluate",
			cfg->default_entry);
		def = 0;
	}
	/* the default entry first, then the others in menu order */
	for (size_t k = 0; k < cfg->n_entries; k++) {
		size_t i = k == 0 ? (size_t)def : (k <= (size_t)def ? k - 1 : k);
		const struct grub_entry *e = &cfg->entries[i];
		struct second_stage_entry *entry = &out->entry[out->n];
		int found;

		if (!e->has_image)
			continue;
		snprintf(entry->role, sizeof(entry->role), "%s '%.540s'%s",
			 k == 0 && !cfg->default_unknown ? "default entry" : "entry", e->title,
			 e->unevaluated ? ", not evaluated" : "");
		snprintf(entry->id, sizeof(entry->id), "%.255s", e->id);
		snprintf(entry->name, sizeof(entry->name), "%s%s", e->image.on_esp ? "(ESP)" : "",
			 e->image.path);
		found = grub_host_path(files, &e->image, entry->host, sizeof(entry->host));
		if (found < 0) {
			r = -1;
			goto out;
		}
		if (found == 0)
			entry->host[0] = '\0';
		out->n++;
	}
	grubenv_note(env, vars, out);
out:
	free(vars);
	free(env);
	free(cfg);
	return r;
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
