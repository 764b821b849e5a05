// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_chain.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/x509.h>

#include "boot_plan.h"
#include "esp.h"
#include "fallback.h"
#include "file.h"
#include "firmware_verdict.h"
#include "image_cache.h"
#include "load_options.h"
#include "measure.h"
#include "pe.h"
#include "sbat.h"
#include "sbat_level.h"
#include "second_stage.h"
#include "tcg_log.h"
#include "vendor_cert.h"
#include "verify.h"

#define SHIM_DEFAULT  "grubx64.efi" /* rhboot/shim's DEFAULT_LOADER, as Debian builds it */
#define SHIM_FALLBACK "fbx64.efi"
/* a first stage started by a first stage (the fallback's option, say), and no deeper */
#define MAX_FIRST_STAGES 2

enum image_kind {
	KIND_UNKNOWN,
	KIND_LOCKSHIM,
	KIND_SHIM,
	KIND_GRUB,
	KIND_SYSTEMD_BOOT,
	KIND_KERNEL, /* a Linux kernel's EFI stub, or a UKI */
};

/* One image read and parsed; @pe is heap memory (struct pe_image is large). */
struct image {
	char name[320]; /* as the chain shows it */
	const uint8_t *data;
	size_t size;
	struct pe_image *pe;           /* NULL when it is not a PE image */
	struct image_digests *digests; /* the cache's, kept across decisions (verify.h) */
	enum image_kind kind;
	char why[160]; /* why it was not read */
};

/*
 * lockshim's measurements at the next boot, into a copy of the firmware's
 * PCRs (PCR prediction): the events it extends, each recorded for
 * --pcrlock. @times: how often the next image decided is measured (GRUB's
 * `linux` asks SHIM_LOCK's Verify twice); 0 for an image off the default
 * path, which that boot does not run.
 */
struct chain_measure {
	struct measurer m;
	struct pcr_bank bank;
	struct chain_pcrs *pcrs;
	bool mok_state_done; /* later events are authorities and images */
	bool failed;
	unsigned int times;
};

/* What lockshim or shim @fs decides with at the next boot. */
struct first_stage {
	struct chain_measure *measure; /* NULL: nothing predicted */
	const struct image *image;
	struct verify_policy policy;
	struct sbat level;
	bool enforced; /* Secure Boot on and validation not turned off */
};

/* ---- what an image is ------------------------------------------------------------ */

static bool sbat_names(const struct pe_image *pe, const char *component)
{
	const struct pe_section *s = pe_find_section(pe, ".sbat");
	struct reason_buf why_buf;
	struct sbat_record rec;
	const char *why;
	struct sbat sbat;
	size_t pos = 0;

	if (!s || sbat_parse(pe->data + s->raw_offset,
			     s->raw_size < s->virtual_size ? s->raw_size : s->virtual_size,
			     SBAT_SECTION, &sbat, &why, &why_buf) < 0)
		return false;
	while (sbat_next_record(&sbat, &pos, &rec))
		if (rec.name_len == strlen(component) &&
		    memcmp(rec.name, component, rec.name_len) == 0)
			return true;
	return false;
}

/* The bytes of section @name (its file data, no more than its virtual size); NULL when none. */
static const uint8_t *section_data(const struct pe_image *pe, const char *name, size_t *size)
{
	const struct pe_section *s = pe_find_section_long(pe, name);

	if (!s)
		return NULL;
	*size = s->raw_size < s->virtual_size ? s->raw_size : s->virtual_size;
	return pe->data + s->raw_offset;
}

static bool section_says(const struct pe_image *pe, const char *name, const char *text)
{
	size_t size = 0;
	const uint8_t *data = section_data(pe, name, &size);
	size_t len = strlen(text);

	for (size_t i = 0; data && len <= size && i <= size - len; i++)
		if (memcmp(data + i, text, len) == 0)
			return true;
	return false;
}

static enum image_kind image_kind(const struct pe_image *pe)
{
	if (pe_find_section(pe, ".linux") || pe_is_linux_kernel(pe))
		return KIND_KERNEL;
	if (sbat_names(pe, "lockshim"))
		return KIND_LOCKSHIM;
	if (sbat_names(pe, "shim"))
		return KIND_SHIM;
	if (sbat_names(pe, "grub"))
		return KIND_GRUB;
	if (section_says(pe, ".sdmagic", "LoaderInfo: systemd-boot"))
		return KIND_SYSTEMD_BOOT;
	return KIND_UNKNOWN;
}

/*
 * Read @host_path as an image named @name. Returns 1 read; 0 missing (the
 * file does not exist); 2 when it cannot be used, an image's verdict
 * (img->why: not a regular file, too large, unreadable); -1 out of memory,
 * said.
 */
static int image_load(const struct chain_files *files, const char *host_path, const char *name,
		      struct image *img)
{
	const char *reason;
	int r;

	memset(img, 0, sizeof(*img));
	snprintf(img->name, sizeof(img->name), "%s", name);
	snprintf(img->why, sizeof(img->why), "no such file");
	if (!host_path)
		return 0;
	r = image_cache_load(files->cache, host_path, &img->data, &img->size, img->why,
			     sizeof(img->why));
	if (r <= 0)
		return r < 0 ? 2 : 0;
	img->digests = image_cache_digests(files->cache, img->data);
	img->pe = malloc(sizeof(*img->pe));
	if (!img->pe) {
		say_error("out of memory");
		return -1;
	}
	if (pe_parse(img->data, img->size, img->pe, &reason) < 0) {
		free(img->pe);
		img->pe = NULL;
	} else {
		img->kind = image_kind(img->pe);
	}
	return 1;
}

static void image_free(struct image *img)
{
	free(img->pe);
	img->pe = NULL;
}

/* ---- steps ------------------------------------------------------------------------ */

/* A new step of @out for @image in @role; NULL when the chain is full. */
static struct chain_step *chain_add_step(struct chain *out, const char *image, const char *role)
{
	struct chain_step *s;

	if (out->n_steps == CHAIN_MAX_STEPS)
		return NULL;
	s = &out->steps[out->n_steps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->image, sizeof(s->image), "%.319s", image);
	snprintf(s->role, sizeof(s->role), "%s", role);
	return s;
}

static void step_from_verdict(struct chain_step *s, const struct verdict *v, bool enforced)
{
	s->allowed = v->allowed || !enforced;
	s->reason = v->allowed || enforced ? v->reason : VERDICT_NOT_ENFORCED;
	snprintf(s->list, sizeof(s->list), "%s", v->list ? v->list : "");
	snprintf(s->entry, sizeof(s->entry), "%s", v->entry);
	if (v->allowed || enforced)
		snprintf(s->message, sizeof(s->message), "%s", v->message);
	else
		snprintf(s->message, sizeof(s->message),
			 "runs unverified (Secure Boot off): %.300s", v->message);
}

/* @s refused for a reason outside the policy (a missing file, no SHIM_LOCK). */
static void chain_step_refuse(struct chain_step *s, enum verdict_reason reason, const char *message)
{
	s->allowed = false;
	s->reason = reason;
	snprintf(s->message, sizeof(s->message), "%s", message);
}

/* ---- policies ------------------------------------------------------------------- */

int policy_add_blob(struct verify_policy *policy, struct sig_db *db, const struct blob *b)
{
	const char *reason = "";
	int rejected;

	if (!b->present)
		return verify_policy_list_loaded(policy, db, LIST_ABSENT, 0, NULL), 0;
	rejected = sig_db_add_esl(db, b->data, b->size, &reason);
	if (rejected < 0) {
		say_error("out of memory");
		return -1;
	}
	verify_policy_list_loaded(policy, db, LIST_READ, rejected, reason);
	return 0;
}

/* The firmware's: db and dbx, no SBAT (UEFI has none). */
static int firmware_policy(const struct machine_state *m, struct verify_policy *p)
{
	verify_policy_init(p);
	return policy_add_blob(p, &p->db, &m->db) < 0 || policy_add_blob(p, &p->dbx, &m->dbx) < 0 ?
		       -1 :
		       0;
}

/* A first stage's keys, from its .vendor_cert (shim's layout, lockshim's too). */
static int add_vendor_keys(struct verify_policy *p, const struct image *fs, char *why,
			   size_t why_size)
{
	struct vendor_cert_table table;
	const uint8_t *section;
	const char *reason;
	size_t size = 0;

	section = section_data(fs->pe, ".vendor_cert", &size);
	if (!section)
		return 0; /* built without one: no vendor keys */
	if (vendor_cert_table_parse(section, size, &table, &reason) < 0) {
		snprintf(why, why_size, "%.200s: %.90s", fs->name, reason);
		return -1;
	}
	if (table.authorized) {
		const unsigned char *der = table.authorized;
		X509 *cert = d2i_X509(NULL, &der, (long)table.authorized_size);
		struct blob list = { true, (uint8_t *)table.authorized, table.authorized_size };

		if (cert && der == table.authorized + table.authorized_size) {
			int r = sig_db_add_cert(&p->vendor, cert, NULL);

			X509_free(cert);
			if (r < 0)
				return -1;
		} else {
			X509_free(cert);
			if (policy_add_blob(p, &p->vendor, &list) < 0)
				return -1;
		}
	}
	if (table.deauthorized) {
		struct blob list = { true, (uint8_t *)table.deauthorized, table.deauthorized_size };

		return policy_add_blob(p, &p->vendor_dbx, &list);
	}
	return 0;
}

static int chain_extend(const struct measure_event *event, void *ctx)
{
	struct chain_measure *cm = ctx;
	struct chain_pcrs *p = cm->pcrs;
	uint8_t digest[32];

	if (measure_event_sha256(event, digest) < 0 ||
	    pcr_bank_extend(&cm->bank, event->pcr, digest) < 0 || p->n_events == CHAIN_MAX_EVENTS) {
		cm->failed = true;
		return -1;
	}
	p->events[p->n_events].kind = !cm->mok_state_done                 ? EVENT_MOK_STATE :
				      event->pcr == PCR_BOOT_APPLICATIONS ? EVENT_IMAGE :
									    EVENT_AUTHORITY;
	p->events[p->n_events].pcr = event->pcr;
	memcpy(p->events[p->n_events].sha256, digest, 32);
	p->n_events++;
	return 0;
}

/* The levels @fs carries (.sbatlevel); false when it has none that parse. */
static bool embedded_levels(const struct image *fs, struct sbat_levels *levels)
{
	struct reason_buf why_buf;
	const uint8_t *data;
	const char *why;
	size_t size = 0;

	data = section_data(fs->pe, ".sbatlevel", &size);
	return data && sbat_levels_parse(data, size, levels, &why, &why_buf) == 0;
}

/* The level @fs enforces at the next boot, from the stored one; with no .sbatlevel, the stored one. */
static void enforced_level(const struct image *fs, const struct machine_state *m, uint8_t policy,
			   struct sbat *out, bool *write)
{
	struct sbat_level_stored stored = { m->sbat_level.present, m->sbat_level.data,
					    m->sbat_level.size, SBAT_LEVEL_ATTRIBUTES };
	static const char original[] = SBAT_LEVEL_ORIGINAL;
	struct sbat_level_update update;
	struct sbat_levels levels;
	struct reason_buf why_buf;
	const char *why;

	*write = false;
	if (embedded_levels(fs, &levels)) {
		sbat_level_update(&levels, &stored, policy, m->secure_boot, &update);
		*out = update.level;
		*write = update.write;
		return;
	}
	if (!stored.present ||
	    sbat_parse(stored.data, stored.size, SBAT_LEVEL, out, &why, &why_buf) < 0)
		sbat_parse(original, sizeof(original) - 1, SBAT_LEVEL, out, &why, &why_buf);
}

int chain_next_sbat_level(const struct chain_files *files, const char *first_stage,
			  struct machine_state *state)
{
	char host[4096];
	struct image img;
	struct sbat level;
	uint8_t *copy;
	bool write;
	int r = esp_resolve(files->esp, first_stage, host, sizeof(host));

	if (r > 0)
		r = image_load(files, host, first_stage, &img);
	if (r < 0)
		return -1;
	if (r != 1 || !img.pe || (img.kind != KIND_LOCKSHIM && img.kind != KIND_SHIM)) {
		if (r == 1)
			image_free(&img);
		return 0;
	}
	enforced_level(&img, state, state->sbat_policy, &level, &write);
	image_free(&img);
	state->sbat_policy = SBAT_POLICY_NONE; /* the request is consumed by that boot */
	if (!write)
		return 0;
	copy = OPENSSL_memdup(level.text, level.size ? level.size : 1);
	if (!copy) {
		say_error("out of memory");
		return -1;
	}
	OPENSSL_free(state->sbat_level.data);
	state->sbat_level = (struct blob){ true, copy, level.size };
	return 0;
}

/* ---- paths ---------------------------------------------------------------------- */

/*
 * The ESP path of the @name_len UCS-2 characters at @name as a first stage
 * in @dir (an ESP path ending in '\\') opens it (boot_plan_next_path), into
 * @out; non-ASCII characters are shown as '?'. Returns 0, or -1 when the
 * path is empty or too long.
 */
static int next_path_u16(const char *dir, const uint16_t *name, size_t name_len, char *out,
			 size_t size)
{
	uint16_t d[BOOT_PLAN_PATH_MAX + 1], joined[BOOT_PLAN_PATH_MAX + 1];
	size_t dir_len = strlen(dir);
	long len;

	if (dir_len > BOOT_PLAN_PATH_MAX)
		return -1;
	for (size_t i = 0; i < dir_len; i++)
		d[i] = (uint8_t)dir[i];
	len = boot_plan_next_path(d, dir_len, name, name_len, joined);
	if (len < 0 || (size_t)len >= size)
		return -1;
	for (long i = 0; i < len; i++)
		out[i] = joined[i] < 0x80 ? (char)joined[i] : '?';
	out[len] = '\0';
	return 0;
}

/* next_path_u16 for an ASCII @name. */
static int next_path(const char *dir, const char *name, char *out, size_t size)
{
	uint16_t n[BOOT_PLAN_PATH_MAX + 1];
	size_t len = strlen(name);

	if (len > BOOT_PLAN_PATH_MAX)
		return -1;
	for (size_t i = 0; i < len; i++)
		n[i] = (uint8_t)name[i];
	return next_path_u16(dir, n, len, out, size);
}

/* The directory of ESP path @path, with its trailing '\'. */
static void chain_esp_dir(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '\\');

	snprintf(out, size, "%.*s", slash ? (int)(slash - path + 1) : 0, path);
	if (!out[0])
		snprintf(out, size, "\\");
}

/* ---- the stages ------------------------------------------------------------------ */

/*
 * Measure @img as lockshim does once it has decided (pcr --predict's
 * rule): an image it starts only when allowed; one a second stage hands
 * to SHIM_LOCK's Verify before the verdict, each time it asks; the entry
 * that allowed it into PCR 7 under enforcement, once per boot.
 */
static void measure_decision(const struct first_stage *fs, const struct image *img,
			     enum verify_request request, const struct verdict *v,
			     unsigned int times)
{
	struct chain_measure *cm = fs->measure;
	bool refused = fs->enforced && !v->allowed;

	if (!times || (request == VERIFY_TO_START && refused))
		return;
	for (unsigned int i = 0; i < times; i++)
		if (measure_image(&cm->m, img->data, img->size, 0, NULL, 0) < 0)
			cm->failed = true;
	if (!refused && fs->enforced && measure_authority(&cm->m, &fs->policy, v) < 0)
		cm->failed = true;
}

/*
 * Decide on the image at @host (NULL: missing) named @name, for @request
 * under @fs's policy (NULL: the firmware's LoadImage, db and dbx), as a
 * step with @role. Returns 1 with *@img loaded when it is a PE image that
 * was allowed, 0 when the chain stops there, -1 on unusable input.
 */
static int decide(const struct chain_files *files, const struct machine_state *m,
		  const struct first_stage *fs, enum verify_request request, const char *host,
		  const char *name, const char *role, struct chain *out, struct image *img)
{
	struct chain_step *s = chain_add_step(out, name, role);
	unsigned int times = fs && fs->measure ? fs->measure->times : 0;
	struct firmware_verdict *fv;
	struct verify_policy fw;
	struct verdict *v;
	int r;

	if (times)
		fs->measure->times = 0; /* for this image only */
	if (!s) {
		say_error("%s: more than %d images in one chain", out->option, CHAIN_MAX_STEPS);
		return -1;
	}
	r = image_load(files, host, name, img);
	if (r != 1) {
		if (r >= 0)
			chain_step_refuse(s, r == 0 ? VERDICT_MISSING : VERDICT_UNREADABLE,
					  img->why);
		return r < 0 ? -1 : 0;
	}
	fv = malloc(sizeof(*fv));
	if (!fv || (!fs && firmware_policy(m, &fw) < 0)) {
		free(fv);
		image_free(img);
		say_error("out of memory");
		return -1;
	}
	v = &fv->verdict;
	/* the firmware decides as EDK2 does (several signatures, nested ones unseen) */
	if (fs)
		verify_image_digests(img->data, img->size, &fs->policy, request, img->digests, v);
	else
		firmware_verify_image(img->data, img->size, &fw.db, &fw.dbx, fv);
	step_from_verdict(s, v, fs ? fs->enforced : m->secure_boot);
	if (times)
		measure_decision(fs, img, request, v, times);
	free(fv);
	if (!fs)
		verify_policy_free(&fw);
	if (!s->allowed || !img->pe) {
		image_free(img);
		return 0;
	}
	return 1;
}

/* The chain ends as @outcome says, why in @fmt with @what. */
static void chain_ends(struct chain *out, enum boot_outcome outcome, const char *fmt,
		       const char *what)
{
	out->outcome = outcome;
	out->boots = outcome == BOOT_OUTCOME_BOOTS;
	snprintf(out->why, sizeof(out->why), fmt, what);
}

/*
 * The last step's refusal, as why the chain stops: the firmware's LoadImage
 * failing, or lockshim or shim returning, hands the boot to the next option.
 */
static void chain_refused(struct chain *out)
{
	const struct chain_step *s = &out->steps[out->n_steps - 1];

	out->boots = false;
	out->outcome = BOOT_OUTCOME_FALLS_THROUGH;
	if (s->reason == VERDICT_MISSING)
		snprintf(out->why, sizeof(out->why), "%.240s does not exist", s->image);
	else
		snprintf(out->why, sizeof(out->why), "%.240s is refused: %.240s", s->image,
			 s->message);
}

/* What a second stage's reader noted of its entries, after why the chain ends. */
static void chain_add_note(struct chain *out, const char *note)
{
	size_t used = strlen(out->why);

	snprintf(out->why + used, sizeof(out->why) - used, "%s", note);
}

/*
 * A second stage's default entry is refused, and the chain ends as
 * @outcome says, why in @fmt's text: GRUB shows the error and keeps the
 * machine (BOOT_OUTCOME_STOPS); systemd-boot 252 returns it, lockshim
 * returns it, and the firmware goes on (BOOT_OUTCOME_FALLS_THROUGH, seen on
 * every such boot of the differential run).
 */
static void __attribute__((format(printf, 3, 4)))
chain_entry_refused(struct chain *out, enum boot_outcome outcome, const char *fmt, ...)
{
	va_list ap;

	out->boots = false;
	out->outcome = outcome;
	va_start(ap, fmt);
	vsnprintf(out->why, sizeof(out->why), fmt, ap);
	va_end(ap);
}

/*
 * A kernel a second stage's entry names, decided as the second stage asks
 * @fs about it (SHIM_LOCK's rule; NULL @fs: the firmware's db and dbx), at
 * @host (NULL: missing), as a step: *@boots when it is an allowed kernel.
 * @firmware_fallback: a refusal goes on to db (systemd-boot's override
 * under shim). Returns 0, or -1 on unusable input.
 */
static int second_stage_image(const struct chain_files *files, const struct machine_state *m,
			      const struct first_stage *fs, const char *host, const char *name,
			      const char *role, bool firmware_fallback, struct chain *out,
			      bool *boots)
{
	struct image img;
	int r = decide(files, m, fs, VERIFY_FOR_LOADER, host, name, role, out, &img);

	/* systemd-boot's override asks shim, then the firmware's own check (db) */
	if (r == 0 && fs && firmware_fallback &&
	    out->steps[out->n_steps - 1].reason != VERDICT_MISSING) {
		out->n_steps--;
		r = decide(files, m, NULL, VERIFY_FOR_LOADER, host, name, role, out, &img);
	}
	if (r < 0)
		return -1;
	*boots = r > 0 && img.kind == KIND_KERNEL;
	if (r > 0)
		image_free(&img);
	return 0;
}

/* Where the second stages' readers find files: the chain's own. */
static struct second_stage_files stage_files(const struct chain_files *files)
{
	return (struct second_stage_files){ files->esp, files->boot, files->xbootldr,
					    files->cache };
}

/* GRUB at @grub_path: each entry's kernel through SHIM_LOCK, the default entry's end the chain's. */
static int grub_stage(const struct chain_files *files, const struct machine_state *m,
		      const struct first_stage *fs, const char *grub_path, struct chain *out)
{
	const struct second_stage_files where = stage_files(files);
	struct second_stage_entries *entries = malloc(sizeof(*entries));
	bool default_boots = false;
	int r = -1;

	if (!entries) {
		say_error("out of memory");
		return -1;
	}
	if (second_stage_grub(&where, grub_path, entries) < 0)
		goto out;
	if (!entries->n) {
		chain_ends(out, BOOT_OUTCOME_STOPS, "%s", entries->none);
		r = 0;
		goto out;
	}
	for (size_t k = 0; k < entries->n; k++) {
		const struct second_stage_entry *e = &entries->entry[k];
		bool boots = false;

		/* Debian's GRUB asks SHIM_LOCK's Verify twice about the kernel it boots */
		if (k == 0 && fs && fs->measure)
			fs->measure->times = 2;
		if (!fs && m->secure_boot) {
			struct chain_step *s = chain_add_step(out, e->name, e->role);

			if (s)
				chain_step_refuse(
					s, VERDICT_NO_SHIM_LOCK,
					"GRUB started by the firmware finds no shim_lock protocol");
		} else if (second_stage_image(files, m, fs, e->host[0] ? e->host : NULL, e->name,
					      e->role, false, out, &boots) < 0) {
			goto out;
		}
		snprintf(out->steps[out->n_steps - 1].id, sizeof(out->steps[0].id), "%s", e->id);
		if (k == 0)
			default_boots = boots;
	}
	r = 0;
	/* the default entry's step says how the chain ends */
	for (size_t i = 0; i < out->n_steps; i++)
		if (strncmp(out->steps[i].role, "default entry", 13) == 0) {
			if (out->steps[i].allowed && default_boots)
				chain_ends(out, BOOT_OUTCOME_BOOTS, "GRUB's default entry boots %s",
					   out->steps[i].image);
			else if (!out->steps[i].allowed)
				chain_entry_refused(
					out, BOOT_OUTCOME_STOPS,
					"GRUB's default entry: %.200s is refused: %.250s",
					out->steps[i].image, out->steps[i].message);
			else
				chain_ends(
					out, BOOT_OUTCOME_NOT_FOLLOWED,
					"GRUB's default entry starts %s, not a kernel: not followed",
					out->steps[i].image);
			break;
		}
	if (!out->why[0] && entries->none[0]) /* entries, but which one boots is not known */
		chain_ends(out, false, "%s", entries->none);
	chain_add_note(out, entries->note);
out:
	free(entries);
	return r;
}

/* systemd-boot: each entry through SHIM_LOCK (or db, under shim), the default entry's end the chain's. */
static int systemd_boot_stage(const struct chain_files *files, const struct machine_state *m,
			      const struct first_stage *fs, const char *path, struct chain *out)
{
	const struct second_stage_files where = stage_files(files);
	const struct loader_entry_vars vars = { m->loader_entry_oneshot, m->loader_entry_default,
						m->loader_entry_last_booted };
	struct second_stage_entries *entries = malloc(sizeof(*entries));
	int r = -1;

	if (!entries) {
		say_error("out of memory");
		return -1;
	}
	/* whether its security override and lockshim's both measure has not been checked on a boot */
	if (fs && fs->measure) {
		snprintf(out->pcrs.note, sizeof(out->pcrs.note),
			 "PCRs behind systemd-boot are not predicted");
		fs->measure->failed = true;
	}
	if (second_stage_systemd_boot(&where, path, &vars, entries) < 0)
		goto out;
	if (!entries->n)
		chain_ends(out, BOOT_OUTCOME_STOPS, "%s", entries->none);
	for (size_t k = 0; k < entries->n; k++) {
		const struct second_stage_entry *e = &entries->entry[k];
		bool boots = false;

		if (second_stage_image(files, m, fs, e->host[0] ? e->host : NULL, e->name, e->role,
				       fs && fs->image->kind == KIND_SHIM, out, &boots) < 0)
			goto out;
		snprintf(out->steps[out->n_steps - 1].id, sizeof(out->steps[0].id), "%s", e->id);
		if (k == 0) {
			const struct chain_step *s = &out->steps[out->n_steps - 1];

			if (boots)
				chain_ends(out, BOOT_OUTCOME_BOOTS,
					   "systemd-boot's default entry boots %s", s->image);
			else if (s->allowed)
				chain_ends(out, BOOT_OUTCOME_NOT_FOLLOWED,
					   "systemd-boot's default entry starts %s, not a kernel: "
					   "not followed",
					   s->image);
			else /* 252's image_start failing ends run(): the firmware goes on */
				chain_entry_refused(out, BOOT_OUTCOME_FALLS_THROUGH,
						    "systemd-boot's default entry: %.180s: %.220s: "
						    "systemd-boot returns the error",
						    s->image, s->message);
		}
	}
	r = 0;
	chain_add_note(out, entries->note);
out:
	free(entries);
	return r;
}

/*
 * The MokList (@mok_list_x: MokListX) variable inside its runtime mirror
 * @mirror, which holds the vendor's part first (measure_mok_list_payload,
 * what lockshim measures), into *@out (pointing into the mirror; NULL when
 * the variable is empty). Returns 0, or -1 when the mirror does not start
 * with this first stage's vendor part (another loader wrote it).
 */
static int mirrored_variable(const struct mok_state_data *vendor_only, bool mok_list_x,
			     const struct blob *mirror, const uint8_t **out, size_t *out_size)
{
	bool no_vendor_part = mok_list_x ? !vendor_only->vendor_dbx_size :
					   !vendor_only->vendor_cert_size;
	uint8_t *prefix = NULL;
	size_t n = 0;
	int r = 0;

	*out = NULL;
	*out_size = 0;
	if (!mirror->present || !mirror->size)
		return 0;
	if (measure_mok_list_payload(vendor_only, mok_list_x, &prefix, &n) < 0)
		return -1;
	if (mirror->size == n && memcmp(mirror->data, prefix, n) == 0)
		; /* the vendor's part alone, or the zero list standing for nothing */
	else if (no_vendor_part)
		*out = mirror->data, *out_size = mirror->size;
	else if (mirror->size > n && memcmp(mirror->data, prefix, n) == 0)
		*out = mirror->data + n, *out_size = mirror->size - n;
	else
		r = -1;
	OPENSSL_free(prefix);
	return r;
}

/*
 * Start predicting @fs's measurements on top of the firmware's PCRs: its
 * MOK state first, as lockshim measures it before anything runs. Says in
 * out->pcrs.note why when it cannot.
 */
static void measure_start(const struct chain_files *files, const struct machine_state *m,
			  struct first_stage *fs, struct chain_measure *cm, struct chain *out)
{
	struct chain_pcrs *p = &out->pcrs;
	struct mok_state_data state = { 0 };
	struct vendor_cert_table table = { 0 };
	uint8_t digest[EVP_MAX_MD_SIZE], one = 1;
	const uint8_t *section;
	const char *reason;
	unsigned int len;
	size_t size = 0;

	if (!files->firmware)
		return;
	if (fs->image->kind != KIND_LOCKSHIM) {
		snprintf(p->note, sizeof(p->note), "only lockshim's measurements are predicted");
		return;
	}
	if (pe_authenticode_digest(fs->image->pe, EVP_sha256(), digest, &len, &reason) < 0 ||
	    memcmp(digest, files->first_stage_sha256, 32) != 0) {
		snprintf(
			p->note, sizeof(p->note),
			"the event log is of another first stage: the firmware's PCR 4 would differ");
		return;
	}
	section = section_data(fs->image->pe, ".vendor_cert", &size);
	if (section && vendor_cert_table_parse(section, size, &table, &reason) < 0)
		return; /* said with the policy */
	state.vendor_cert = table.authorized;
	state.vendor_cert_size = table.authorized_size;
	state.vendor_dbx = table.deauthorized;
	state.vendor_dbx_size = table.deauthorized_size;
	if (mirrored_variable(&state, false, &m->mok_list, &state.mok_list, &state.mok_list_size) <
		    0 ||
	    mirrored_variable(&state, true, &m->mok_list_x, &state.mok_list_x,
			      &state.mok_list_x_size) < 0) {
		snprintf(p->note, sizeof(p->note),
			 "the MOK mirrors do not start with this lockshim's vendor keys");
		return;
	}
	state.sbat_level = (const uint8_t *)fs->level.text;
	state.sbat_level_size = fs->level.size;
	if (m->validation_off) {
		state.mok_sb_state = &one;
		state.mok_sb_state_size = 1;
	}
	state.mok_list_trusted = m->mok_list_trusted;
	memset(cm, 0, sizeof(*cm));
	cm->pcrs = p;
	cm->bank = *files->firmware;
	measurer_init(&cm->m, chain_extend, cm);
	if (measure_mok_state(&cm->m, &state) < 0)
		cm->failed = true;
	cm->mok_state_done = true;
	fs->measure = cm;
}

/* The PCRs the chain's boot leaves, when it boots and every event could be measured. */
static void measure_finish(struct first_stage *fs, struct chain *out)
{
	struct chain_measure *cm = fs->measure;

	if (!cm)
		return;
	if (cm->failed || !out->boots) {
		if (!out->pcrs.note[0])
			snprintf(out->pcrs.note, sizeof(out->pcrs.note), "%s",
				 out->boots ? "an event could not be measured" :
					      "it does not boot");
	} else {
		memcpy(out->pcrs.pcr4, cm->bank.pcr[PCR_BOOT_APPLICATIONS], 32);
		memcpy(out->pcrs.pcr7, cm->bank.pcr[PCR_SECURE_BOOT_POLICY], 32);
		memcpy(out->pcrs.pcr14, cm->bank.pcr[PCR_MOK], 32);
		out->pcrs.predicted = true;
	}
	measurer_free(&cm->m);
	fs->measure = NULL;
}

/* ---- the plan, as check predicts it (boot_plan.h) -------------------------------- */

/* One first stage's boot as its plan's steps build it. */
struct plan_run {
	const struct chain_files *files;
	const struct machine_state *m;
	const struct image *first; /* lockshim or shim */
	const char *path;          /* its ESP path */
	const uint8_t *options;    /* its load options; NULL when none */
	size_t options_size;
	unsigned int depth; /* first stages before it in this chain */
	struct first_stage fs;
	struct chain_measure cm;
	struct chain *out;
	char dir[320];
	/* the next stage, what starts it, and its load options (the fallback's option's data) */
	char next[640];
	const char *from;
	uint16_t next_options[FALLBACK_OPTIONS_MAX + 1];
	size_t next_options_len;
	struct image next_img; /* allowed at BOOT_STEP_NEXT_STAGE */
	bool ended;            /* the chain has its end: nothing more to follow */
};

static int first_stage_chain(const struct chain_files *files, const struct machine_state *m,
			     const struct image *first, const char *path, const uint8_t *options,
			     size_t options_size, unsigned int depth, struct chain *out);

/*
 * Its own SBAT: the level it will enforce, and revoked it starts nothing.
 * shim checks itself too in secure mode ("SBAT self-check failed"): what
 * a level Windows wrote does to old Linux media.
 */
static void plan_self_check(struct plan_run *p)
{
	const struct image *first = p->first;
	struct reason_buf why_buf;
	const char *reason;
	size_t size = 0;
	const uint8_t *own;
	struct sbat sbat;
	bool write;

	p->fs.enforced = p->m->secure_boot && !p->m->validation_off;
	enforced_level(first, p->m, SBAT_POLICY_NONE, &p->fs.level, &write);
	if (!p->fs.enforced)
		return;
	own = section_data(first->pe, ".sbat", &size);
	if (own && sbat_parse(own, size, SBAT_SECTION, &sbat, &reason, &why_buf) == 0 &&
	    sbat_check(&sbat, &p->fs.level, &reason, &why_buf) < 0) {
		struct chain_step *s = chain_add_step(p->out, p->path, "first stage's own SBAT");

		if (s)
			chain_step_refuse(s, VERDICT_SBAT_REVOKED, reason);
		chain_refused(p->out);
		p->ended = true;
	}
}

/* The lists it decides with; its MOK state measured first (PCR prediction, lockshim only). */
static int plan_policy(struct plan_run *p)
{
	const struct machine_state *m = p->m;
	struct verify_policy *policy = &p->fs.policy;
	char why[300] = "";

	if (add_vendor_keys(policy, p->first, why, sizeof(why)) < 0 ||
	    policy_add_blob(policy, &policy->db, &m->db) < 0 ||
	    policy_add_blob(policy, &policy->dbx, &m->dbx) < 0 ||
	    policy_add_blob(policy, &policy->mok, &m->mok_list) < 0 ||
	    policy_add_blob(policy, &policy->mokx, &m->mok_list_x) < 0) {
		say_error("%s", why[0] ? why : "out of memory");
		return -1;
	}
	policy->sbat_level = p->fs.enforced ? &p->fs.level : NULL;
	if (!p->depth)
		measure_start(p->files, m, &p->fs, &p->cm, p->out);
	else if (p->files->firmware)
		snprintf(p->out->pcrs.note, sizeof(p->out->pcrs.note),
			 "PCRs behind a first stage started by another are not predicted");
	return 0;
}

/*
 * shim from \EFI\BOOT\ with fbx64.efi beside it runs rhboot/shim's
 * fallback, which resets after writing options: check again after it ran.
 */
static int plan_shim_fallback(struct plan_run *p)
{
	char fb[400], host[4096];
	struct image img;
	int r, found;

	if (strcasecmp(p->dir, "\\EFI\\BOOT\\") != 0 ||
	    next_path(p->dir, SHIM_FALLBACK, fb, sizeof(fb)) < 0)
		return 0;
	found = esp_resolve(p->files->esp, fb, host, sizeof(host));
	if (found <= 0)
		return found;
	r = decide(p->files, p->m, &p->fs, VERIFY_TO_START, host, fb, "fallback", p->out, &img);
	if (r > 0) {
		image_free(&img);
		chain_ends(p->out, BOOT_OUTCOME_NOT_FOLLOWED,
			   "%s creates boot options from \\EFI\\*\\BOOTX64.CSV "
			   "and boots the first: check again after it ran",
			   fb);
	} else if (r == 0) {
		chain_refused(p->out);
		p->out->outcome = BOOT_OUTCOME_UNKNOWN; /* what shim does then is not modelled */
	}
	p->ended = true;
	return r < 0 ? -1 : 0;
}

/*
 * The CSV of the vendor directory @name of \EFI\, as efi_fallback.c takes
 * it: every file decided as an image lockshim starts, in order, the first
 * refusal ending it (nothing of it is created); taken whole, its first
 * option is the next stage when none is yet. Returns 0, or -1 said.
 */
static int plan_fallback_csv(struct plan_run *p, const char *name)
{
	uint16_t dir[FALLBACK_NAME_MAX];
	struct fallback_path first;
	struct fallback_csv *csv = NULL;
	char csv_path[400], host[4096], role[96], why[160];
	struct reason_buf buf;
	const char *reason;
	const uint8_t *text;
	size_t len = strlen(name), size;
	int r = -1, found;

	if (len > FALLBACK_NAME_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		dir[i] = (uint8_t)name[i];
	if (fallback_vendor_dir(dir, len, &reason) <= 0)
		return 0;
	snprintf(csv_path, sizeof(csv_path), "\\EFI\\%s\\BOOTX64.CSV", name);
	found = esp_resolve(p->files->esp, csv_path, host, sizeof(host));
	if (found <= 0)
		return found;
	csv = malloc(sizeof(*csv));
	if (!csv) {
		say_error("out of memory");
		return -1;
	}
	r = 0;
	/* one it cannot read (a FIFO, a directory) the fallback cannot either: nothing of it */
	if (image_cache_load(p->files->cache, host, &text, &size, why, sizeof(why)) <= 0 ||
	    size > FALLBACK_CSV_MAX_SIZE || fallback_csv_parse(text, size, csv, &buf, &reason) < 0)
		goto out; /* the fallback creates nothing of it */
	snprintf(role, sizeof(role), "fallback (%.80s)", csv_path);
	for (size_t i = 0; i < csv->count; i++) {
		struct fallback_path path;
		struct image img;

		fallback_entry_path(dir, len, &csv->entry[i], &path);
		found = esp_resolve(p->files->esp, path.ascii, host, sizeof(host));
		if (found < 0)
			goto out_fail;
		r = decide(p->files, p->m, &p->fs, VERIFY_TO_START, found ? host : NULL, path.ascii,
			   role, p->out, &img);
		if (r <= 0)
			goto out; /* refused or missing: the CSV is not taken */
		image_free(&img);
	}
	r = 0;
	if (p->from)
		goto out; /* the first option of the CSVs taken is started */
	fallback_entry_path(dir, len, &csv->entry[0], &first);
	snprintf(p->next, sizeof(p->next), "%s", first.ascii);
	memcpy(p->next_options, csv->entry[0].options,
	       (csv->entry[0].options_len + 1) * sizeof(uint16_t));
	p->next_options_len = csv->entry[0].options_len;
	p->from = "fallback's boot option";
	goto out;
out_fail:
	r = -1;
out:
	free(csv);
	return r;
}

/*
 * lockshim from the removable path: the boot options of every
 * \EFI\<vendor>\BOOTX64.CSV, in the directory's order, as
 * efi_fallback.c creates them on a fixed disk; the first becomes the next
 * stage.
 */
static int plan_fallback(struct plan_run *p)
{
	char host[4096];
	struct dirent *d;
	DIR *dir;
	uint16_t self[BOOT_PLAN_PATH_MAX];
	size_t len = strlen(p->path);
	int r;

	if (p->first->kind == KIND_SHIM)
		return plan_shim_fallback(p);
	if (p->first->kind != KIND_LOCKSHIM || len > BOOT_PLAN_PATH_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		self[i] = (uint8_t)p->path[i];
	if (!boot_plan_runs_fallback(self, len))
		return 0;
	r = esp_resolve(p->files->esp, "\\EFI", host, sizeof(host));
	if (r <= 0)
		return r;
	dir = opendir(host);
	if (!dir) {
		say_error("%s: %s", host, strerror(errno));
		return -1;
	}
	while ((d = readdir(dir)))
		if ((d->d_type == DT_DIR || d->d_type == DT_UNKNOWN) &&
		    plan_fallback_csv(p, d->d_name) < 0) {
			closedir(dir);
			return -1;
		}
	closedir(dir);
	return 0;
}

/*
 * When the fallback chose none: the load options' image, else the default
 * loader (.ldrname; shim's grubx64.efi), into p->next. 0, or -1 said.
 */
static int plan_next_path(struct plan_run *p)
{
	char loader[256] = SHIM_DEFAULT;
	const char *reason;
	uint16_t *aligned;
	struct load_options lo;

	if (p->first->kind == KIND_LOCKSHIM) {
		size_t size = 0;
		const uint8_t *name = section_data(p->first->pe, ".ldrname", &size);

		snprintf(loader, sizeof(loader), "%.*s",
			 name ? (int)strnlen((const char *)name, size) : 0,
			 name ? (const char *)name : "");
		if (!loader[0]) {
			say_error(
				"%s: no .ldrname: a lockshim too old for check to know its default loader",
				p->path);
			return -1;
		}
	}
	p->from = "default loader";
	if (next_path(p->dir, loader, p->next, sizeof(p->next)) < 0) {
		say_error("%s: its default loader's path is too long", p->path);
		return -1;
	}
	if (!p->options || !p->options_size)
		return 0;
	aligned = malloc(p->options_size + 1);
	if (!aligned) {
		say_error("out of memory");
		return -1;
	}
	memcpy(aligned, p->options, p->options_size);
	if (load_options_parse(aligned, p->options_size, &lo, &reason) == 0 && lo.kernel_path &&
	    next_path_u16(p->dir, lo.kernel_path, lo.kernel_path_len, p->next, sizeof(p->next)) ==
		    0)
		p->from = "load options";
	free(aligned);
	return 0;
}

/* The next stage: the fallback's option, else plan_next_path's; decided as lockshim starts it. */
static int plan_next_stage(struct plan_run *p)
{
	char host[4096];
	int r, found;

	if (!p->from && plan_next_path(p) < 0)
		return -1;
	found = esp_resolve(p->files->esp, p->next, host, sizeof(host));
	if (found < 0)
		return -1;
	if (p->fs.measure)
		p->fs.measure->times = 1;
	r = decide(p->files, p->m, &p->fs, VERIFY_TO_START, found ? host : NULL, p->next, p->from,
		   p->out, &p->next_img);
	if (r == 0) {
		chain_refused(p->out);
		p->ended = true;
	}
	return r < 0 ? -1 : 0;
}

/*
 * What the allowed image @img at @path does once started by @fs (NULL: by
 * the firmware), with the @options_len UCS-2 characters of @options as its
 * load options; @depth first stages before it.
 */
static int follow(const struct chain_files *files, const struct machine_state *m,
		  struct first_stage *fs, const struct image *img, const char *path,
		  const uint16_t *options, size_t options_len, unsigned int depth,
		  struct chain *out)
{
	switch (img->kind) {
	case KIND_KERNEL:
		chain_ends(out, BOOT_OUTCOME_BOOTS, "it boots %s", path);
		return 0;
	case KIND_GRUB:
		return grub_stage(files, m, fs, path, out);
	case KIND_SYSTEMD_BOOT:
		return systemd_boot_stage(files, m, fs, path, out);
	case KIND_LOCKSHIM:
	case KIND_SHIM:
		if (fs && fs->measure) /* the inner one's events are not predicted */
			fs->measure->failed = true;
		if (depth + 1 < MAX_FIRST_STAGES)
			return first_stage_chain(
				files, m, img, path, (const uint8_t *)options,
				options_len ? (options_len + 1) * sizeof(uint16_t) : 0, depth + 1,
				out);
		chain_ends(out, BOOT_OUTCOME_NOT_FOLLOWED,
			   "check does not follow %s: a first stage too deep", path);
		return 0;
	case KIND_UNKNOWN:
		break;
	}
	/* Windows Boot Manager, fwupd, memtest86, rEFInd: it starts, what then is its own */
	chain_ends(out, BOOT_OUTCOME_NOT_FOLLOWED,
		   "starts %s, not followed: check does not know it", path);
	return 0;
}

/* One step of the plan, as check predicts it; 0, or -1 on unusable input (said). */
static int plan_step(struct plan_run *p, enum boot_step step)
{
	switch (step) {
	case BOOT_STEP_SELF_CHECK:
		plan_self_check(p);
		return 0;
	case BOOT_STEP_POLICY:
		return plan_policy(p);
	case BOOT_STEP_HANDOFF:
		return 0; /* tables, not images: nothing here decides what starts */
	case BOOT_STEP_MOK_REQUESTS:
		/* a pending request is said apart (mok_pending.c); then MokDBState drops db */
		if (p->m->ignore_db)
			sig_db_free(&p->fs.policy.db);
		return 0;
	case BOOT_STEP_FALLBACK:
		return plan_fallback(p);
	case BOOT_STEP_NEXT_STAGE:
		return plan_next_stage(p);
	case BOOT_STEP_START:
		return follow(p->files, p->m, &p->fs, &p->next_img, p->next, p->next_options,
			      p->next_options_len, p->depth, p->out);
	}
	return -1;
}

/* The chain of lockshim or shim @first at @path, started with @options, by its plan. */
static int first_stage_chain(const struct chain_files *files, const struct machine_state *m,
			     const struct image *first, const char *path, const uint8_t *options,
			     size_t options_size, unsigned int depth, struct chain *out)
{
	struct plan_run *p = calloc(1, sizeof(*p));
	int r = 0;

	if (!p) {
		say_error("out of memory");
		return -1;
	}
	*p = (struct plan_run){ .files = files,
				.m = m,
				.first = first,
				.path = path,
				.options = options,
				.options_size = options_size,
				.depth = depth,
				.out = out };
	p->fs.image = first;
	verify_policy_init(&p->fs.policy);
	chain_esp_dir(path, p->dir, sizeof(p->dir));
	for (size_t i = 0; i < boot_plan_length && !p->ended && r == 0; i++)
		r = plan_step(p, boot_plan[i].step);
	if (p->next_img.pe)
		image_free(&p->next_img);
	if (r == 0 && !depth)
		measure_finish(&p->fs, out);
	if (p->fs.measure)
		measurer_free(&p->fs.measure->m);
	verify_policy_free(&p->fs.policy);
	free(p);
	return r;
}

int chain_evaluate(const struct chain_files *files, const struct machine_state *m, const char *path,
		   const uint8_t *load_options, size_t options_size, struct chain *out)
{
	char host[4096];
	struct image first;
	int r, found;

	out->n_steps = 0;
	out->boots = false;
	out->outcome = BOOT_OUTCOME_UNKNOWN; /* until an end is known: never a guess */
	out->why[0] = '\0';
	memset(&out->pcrs, 0, sizeof(out->pcrs));
	found = esp_resolve(files->esp, path, host, sizeof(host));
	if (found < 0)
		return -1;
	/* the firmware's verdict: db and dbx, whatever the image is */
	r = decide(files, m, NULL, VERIFY_FOR_LOADER, found ? host : NULL, path, "first stage", out,
		   &first);
	if (r <= 0) {
		if (r == 0)
			chain_refused(out);
		return r;
	}
	if (first.kind == KIND_LOCKSHIM || first.kind == KIND_SHIM)
		r = first_stage_chain(files, m, &first, path, load_options, options_size, 0, out);
	else
		r = follow(files, m, NULL, &first, path, NULL, 0, 0, out);
	image_free(&first);
	return r;
}
