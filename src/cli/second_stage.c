// SPDX-License-Identifier: BSD-2-Clause-Patent
#define _GNU_SOURCE /* strverscmp */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "second_stage.h"

#include "bls.h"
#include "esp.h"
#include "file.h"

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
		snprintf(entry->role, sizeof(entry->role), "%s '%.70s'",
			 k == 0 ? "default entry" : "entry", e->title);
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

/* One systemd-boot entry: a Type #1 .conf or a UKI. */
struct sd_entry {
	char id[256];
	char name[320];  /* as the chain shows the image */
	char host[4096]; /* the image's host path; empty when missing */
};

static int sd_entry_cmp(const void *a, const void *b)
{
	/* newest version first, as systemd-boot orders entries without sort-key */
	return -strverscmp(((const struct sd_entry *)a)->id, ((const struct sd_entry *)b)->id);
}

/* Add the entries of one directory: *.conf (Type #1) or *.efi (UKIs), on the filesystem at @root. */
static int sd_scan(const struct second_stage_files *files, const char *root, const char *dir_name,
		   bool ukis, struct sd_entry *entries, size_t *n, size_t max)
{
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
		struct sd_entry *e = &entries[*n];
		const char *suffix = ukis ? ".efi" : ".conf";

		if (len <= strlen(suffix) ||
		    strcasecmp(d->d_name + len - strlen(suffix), suffix) != 0)
			continue;
		if (*n == max) {
			say_error("%s: more than %zu entries: not all could be checked", dir_host,
				  max);
			goto fail;
		}
		memset(e, 0, sizeof(*e));
		snprintf(e->id, sizeof(e->id), "%s", d->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir_host, d->d_name);
		if (ukis) {
			snprintf(e->name, sizeof(e->name), "%s/%s", dir_name, d->d_name);
			snprintf(e->host, sizeof(e->host), "%.3800s/%.255s", dir_host, d->d_name);
		} else {
			const uint8_t *text;
			struct bls_entry bls;
			const char *reason;
			size_t size;

			if (image_cache_read(files->cache, path, &text, &size) < 0)
				goto fail;
			if (bls_entry_parse((const char *)text, size, &bls, &reason) < 0) {
				say_error("%s: %s", path, reason);
				goto fail;
			}
			if (!bls.image[0])
				continue;
			snprintf(e->name, sizeof(e->name), "%s", bls.image);
			r = esp_resolve(root, bls.image, e->host, sizeof(e->host));
			if (r < 0)
				goto fail;
			if (r == 0)
				e->host[0] = '\0';
		}
		(*n)++;
	}
	closedir(dir);
	return 0;
fail:
	closedir(dir);
	return -1;
}

int second_stage_systemd_boot(const struct second_stage_files *files, const char *loader_entry,
			      struct second_stage_entries *out)
{
	struct sd_entry *entries = calloc(GRUB_CFG_MAX_ENTRIES, sizeof(*entries));
	char conf[4096], def[256] = "";
	const char *roots[2] = { files->esp, files->boot };
	size_t n = 0, first = 0;
	int r = -1;

	out->n = 0;
	out->none[0] = out->note[0] = '\0';
	if (!entries) {
		say_error("out of memory");
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (roots[i] && (sd_scan(files, roots[i], "loader/entries", false, entries, &n,
					 GRUB_CFG_MAX_ENTRIES) < 0 ||
				 sd_scan(files, roots[i], "EFI/Linux", true, entries, &n,
					 GRUB_CFG_MAX_ENTRIES) < 0))
			goto out;
	qsort(entries, n, sizeof(*entries), sd_entry_cmp);
	r = esp_resolve(files->esp, "loader/loader.conf", conf, sizeof(conf));
	if (r > 0) {
		const uint8_t *text;
		const char *reason;
		size_t size;

		if (image_cache_read(files->cache, conf, &text, &size) < 0)
			goto out_fail;
		if (bls_loader_default((const char *)text, size, def, sizeof(def), &reason) < 0) {
			say_error("%s: %s", conf, reason);
			goto out_fail;
		}
	} else if (r < 0) {
		goto out_fail;
	}
	/* bootctl set-oneshot or set-default: the entry of that id, before loader.conf */
	for (size_t i = 0; loader_entry[0] && i < n; i++)
		if (strcmp(entries[i].id, loader_entry) == 0) {
			first = i;
			def[0] = '\0';
			break;
		}
	for (size_t i = 0; def[0] && i < n; i++) {
		char id[256];

		snprintf(id, sizeof(id), "%.*s", (int)(strrchr(entries[i].id, '.') - entries[i].id),
			 entries[i].id);
		if (fnmatch(def, entries[i].id, 0) == 0 || fnmatch(def, id, 0) == 0) {
			first = i;
			break;
		}
	}
	if (n == 0)
		snprintf(out->none, sizeof(out->none), "systemd-boot finds no entry");
	for (size_t k = 0; k < n; k++) {
		size_t i = k == 0 ? first : (k <= first ? k - 1 : k);
		struct second_stage_entry *entry = &out->entry[out->n++];

		snprintf(entry->role, sizeof(entry->role), "%s '%.70s'",
			 k == 0 ? "default entry" : "entry", entries[i].id);
		snprintf(entry->name, sizeof(entry->name), "%s", entries[i].name);
		snprintf(entry->host, sizeof(entry->host), "%s", entries[i].host);
	}
	r = 0;
	goto out;
out_fail:
	r = -1;
out:
	free(entries);
	return r;
}
