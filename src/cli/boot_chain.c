// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/x509.h>

#include "boot_chain_internal.h"
#include "esp.h"
#include "file.h"
#include "load_options.h"
#include "measure.h"
#include "pe.h"
#include "sbat.h"
#include "sbat_level.h"
#include "tcg_log.h"
#include "vendor_cert.h"
#include "verify.h"

#define MAX_CACHED    512
#define SHIM_DEFAULT  "grubx64.efi" /* rhboot/shim's DEFAULT_LOADER, as Debian builds it */
#define SHIM_FALLBACK "fbx64.efi"

/* ---- files, read once ---------------------------------------------------------- */

struct cached_file {
	char *path;
	uint8_t *data;
	size_t size;
	struct image_digests digests; /* hashed once, whatever decides on it */
};

struct image_cache {
	size_t n;
	struct cached_file file[MAX_CACHED];
};

struct image_cache *image_cache_new(void)
{
	return calloc(1, sizeof(struct image_cache));
}

void image_cache_free(struct image_cache *cache)
{
	for (size_t i = 0; cache && i < cache->n; i++) {
		free(cache->file[i].path);
		free(cache->file[i].data);
	}
	free(cache);
}

/* The digests kept for the cached file whose bytes are @data; NULL when none is. */
static struct image_digests *chain_cache_digests(struct image_cache *cache, const uint8_t *data)
{
	for (size_t i = 0; i < cache->n; i++)
		if (cache->file[i].data == data)
			return &cache->file[i].digests;
	return NULL;
}

/* The file at host path @path, read at most once. Returns 0, or -1 having said why. */
int chain_cache_read(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size)
{
	struct cached_file *f;

	for (size_t i = 0; i < cache->n; i++)
		if (strcmp(cache->file[i].path, path) == 0) {
			*data = cache->file[i].data;
			*size = cache->file[i].size;
			return 0;
		}
	if (cache->n == MAX_CACHED) {
		say_error("more than %d images to check", MAX_CACHED);
		return -1;
	}
	f = &cache->file[cache->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path || read_file(path, &f->data, &f->size) < 0) {
		free(f->path);
		return -1;
	}
	cache->n++;
	*data = f->data;
	*size = f->size;
	return 0;
}

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
 * Read @host_path as an image named @name. Returns 1 read, 0 missing (the
 * file does not exist), -1 having said why it cannot be read.
 */
static int image_load(const struct chain_files *files, const char *host_path, const char *name,
		      struct image *img)
{
	const char *reason;

	memset(img, 0, sizeof(*img));
	snprintf(img->name, sizeof(img->name), "%s", name);
	if (!host_path)
		return 0;
	if (chain_cache_read(files->cache, host_path, &img->data, &img->size) < 0)
		return -1;
	img->digests = chain_cache_digests(files->cache, img->data);
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

struct chain_step *chain_add_step(struct chain *out, const char *image, const char *role)
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

void chain_step_refuse(struct chain_step *s, enum verdict_reason reason, const char *message)
{
	s->allowed = false;
	s->reason = reason;
	snprintf(s->message, sizeof(s->message), "%s", message);
}

/* ---- policies ------------------------------------------------------------------- */

/* Add @blob's signature lists to @db of @policy, as the loader does (deny lists fail closed). */
static int policy_add_blob(struct verify_policy *policy, struct sig_db *db, const struct blob *b)
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

static int first_stage_init(const struct machine_state *m, const struct image *fs,
			    struct first_stage *out, char *why, size_t why_size)
{
	bool write;

	out->image = fs;
	out->enforced = m->secure_boot && !m->validation_off;
	verify_policy_init(&out->policy);
	if (add_vendor_keys(&out->policy, fs, why, why_size) < 0 ||
	    (!m->ignore_db && policy_add_blob(&out->policy, &out->policy.db, &m->db) < 0) ||
	    policy_add_blob(&out->policy, &out->policy.dbx, &m->dbx) < 0 ||
	    policy_add_blob(&out->policy, &out->policy.mok, &m->mok_list) < 0 ||
	    policy_add_blob(&out->policy, &out->policy.mokx, &m->mok_list_x) < 0)
		return -1;
	enforced_level(fs, m, SBAT_POLICY_NONE, &out->level, &write);
	out->policy.sbat_level = out->enforced ? &out->level : NULL;
	return 0;
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

	if (r < 0 || (r > 0 && image_load(files, host, first_stage, &img) < 0))
		return -1;
	if (r == 0 || !img.pe || (img.kind != KIND_LOCKSHIM && img.kind != KIND_SHIM)) {
		if (r > 0)
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

/* The ESP path of @name as a loader beside @dir (a '\' path ending in '\') would open it. */
static void esp_path_beside(const char *dir, const char *name, char *out, size_t size)
{
	if (name[0] == '\\' || name[0] == '/')
		snprintf(out, size, "%s", name);
	else
		snprintf(out, size, "%s%s", dir, name);
	for (char *p = out; *p; p++)
		if (*p == '/')
			*p = '\\';
}

/* The directory of ESP path @path, with its trailing '\'. */
void chain_esp_dir(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '\\');

	snprintf(out, size, "%.*s", slash ? (int)(slash - path + 1) : 0, path);
	if (!out[0])
		snprintf(out, size, "\\");
}

/* @path on the ESP as a host path: 1 found, 0 missing, -1 said. */
static int on_esp(const struct chain_files *files, const char *path, char *host, size_t size)
{
	return esp_resolve(files->esp, path, host, size);
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
	if (r <= 0) {
		if (r == 0)
			chain_step_refuse(s, VERDICT_MISSING, "no such file");
		return r;
	}
	v = malloc(sizeof(*v));
	if (!v || (!fs && firmware_policy(m, &fw) < 0)) {
		free(v);
		image_free(img);
		say_error("out of memory");
		return -1;
	}
	verify_image_digests(img->data, img->size, fs ? &fs->policy : &fw, request, img->digests,
			     v);
	step_from_verdict(s, v, fs ? fs->enforced : m->secure_boot);
	if (times)
		measure_decision(fs, img, request, v, times);
	free(v);
	if (!fs)
		verify_policy_free(&fw);
	if (!s->allowed || !img->pe) {
		image_free(img);
		return 0;
	}
	return 1;
}

void chain_ends(struct chain *out, bool boots, const char *fmt, const char *what)
{
	out->boots = boots;
	snprintf(out->why, sizeof(out->why), fmt, what);
}

/* The last step's refusal, as why the chain stops. */
static void chain_refused(struct chain *out)
{
	const struct chain_step *s = &out->steps[out->n_steps - 1];

	out->boots = false;
	if (s->reason == VERDICT_MISSING)
		snprintf(out->why, sizeof(out->why), "%.240s does not exist", s->image);
	else
		snprintf(out->why, sizeof(out->why), "%.240s is refused: %.240s", s->image,
			 s->message);
}

/* A kernel an entry names, decided as a second stage asks about it. */
int chain_second_stage_image(const struct chain_files *files, const struct machine_state *m,
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

/* What a second stage (or a kernel) that was allowed does next. */
static int next_stage(const struct chain_files *files, const struct machine_state *m,
		      const struct first_stage *fs, const struct image *img, const char *path,
		      struct chain *out)
{
	switch (img->kind) {
	case KIND_KERNEL:
		chain_ends(out, true, "it boots %s", path);
		return 0;
	case KIND_GRUB:
		return chain_grub_stage(files, m, fs, path, out);
	case KIND_SYSTEMD_BOOT:
		return chain_systemd_boot_stage(files, m, fs, out);
	default:
		chain_ends(out, false, "lockshim cannot tell what %s starts", path);
		return 0;
	}
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

/* lockshim or shim: its own SBAT, then what it starts, with its policy. */
static int loader_stage(const struct chain_files *files, const struct machine_state *m,
			const struct image *first, const char *path, const uint8_t *options,
			size_t options_size, struct chain *out)
{
	struct first_stage *fs = calloc(1, sizeof(*fs));
	struct chain_measure *cm = calloc(1, sizeof(*cm));
	char dir[320], next[640], host[4096], why[300] = "", loader[256] = SHIM_DEFAULT;
	struct load_options lo;
	struct reason_buf why_buf;
	const char *reason, *from = "default loader";
	uint16_t *aligned = NULL;
	struct image img;
	int r = -1, found;

	if (!fs || !cm) {
		say_error("out of memory");
		free(fs);
		free(cm);
		return -1;
	}
	if (first_stage_init(m, first, fs, why, sizeof(why)) < 0) {
		say_error("%s", why[0] ? why : "out of memory");
		goto out;
	}
	chain_esp_dir(path, dir, sizeof(dir));
	/* its own .sbat against the level it enforces: revoked, it starts nothing */
	if (fs->enforced && first->kind == KIND_LOCKSHIM) {
		size_t size = 0;
		const uint8_t *own = section_data(first->pe, ".sbat", &size);
		struct sbat sbat;

		if (own && sbat_parse(own, size, SBAT_SECTION, &sbat, &reason, &why_buf) == 0 &&
		    sbat_check(&sbat, &fs->level, &reason, &why_buf) < 0) {
			struct chain_step *s = chain_add_step(out, path, "first stage's own SBAT");

			if (s)
				chain_step_refuse(s, VERDICT_SBAT_REVOKED, reason);
			chain_refused(out);
			r = 0;
			goto out;
		}
	}
	if (first->kind == KIND_LOCKSHIM) {
		size_t size = 0;
		const uint8_t *name = section_data(first->pe, ".ldrname", &size);

		snprintf(loader, sizeof(loader), "%.*s",
			 name ? (int)strnlen((const char *)name, size) : 0,
			 name ? (const char *)name : "");
		if (!loader[0]) {
			say_error(
				"%s: no .ldrname: a lockshim too old for check to know its default loader",
				path);
			goto out;
		}
	}
	esp_path_beside(dir, loader, next, sizeof(next));
	if (options && options_size) {
		aligned = malloc(options_size + 1);
		if (!aligned) {
			say_error("out of memory");
			goto out;
		}
		memcpy(aligned, options, options_size);
		if (load_options_parse(aligned, options_size, &lo, &reason) == 0 &&
		    lo.kernel_path) {
			char name[LOAD_OPTIONS_MAX_PATH + 1];

			for (size_t i = 0; i < lo.kernel_path_len; i++)
				name[i] = lo.kernel_path[i] < 0x80 ? (char)lo.kernel_path[i] : '?';
			name[lo.kernel_path_len] = '\0';
			esp_path_beside(dir, name, next, sizeof(next));
			from = "load options";
		}
	}
	/* shim from \EFI\BOOT\ with fbx64.efi beside it runs the fallback */
	if (first->kind == KIND_SHIM && strcasecmp(dir, "\\EFI\\BOOT\\") == 0) {
		char fb[400];

		esp_path_beside(dir, SHIM_FALLBACK, fb, sizeof(fb));
		found = on_esp(files, fb, host, sizeof(host));
		if (found < 0)
			goto out;
		if (found) {
			r = decide(files, m, fs, VERIFY_TO_START, host, fb, "fallback", out, &img);
			if (r > 0) {
				image_free(&img);
				chain_ends(out, false,
					   "%s creates boot options from \\EFI\\*\\BOOTX64.CSV "
					   "and boots the first: check again after it ran",
					   fb);
			} else if (r == 0) {
				chain_refused(out); /* what shim does then is not modelled */
			}
			r = r < 0 ? -1 : 0;
			goto out;
		}
	}
	found = on_esp(files, next, host, sizeof(host));
	if (found < 0)
		goto out;
	measure_start(files, m, fs, cm, out);
	if (fs->measure)
		fs->measure->times = 1;
	r = decide(files, m, fs, VERIFY_TO_START, found ? host : NULL, next, from, out, &img);
	if (r == 0)
		chain_refused(out);
	if (r > 0) {
		r = next_stage(files, m, fs, &img, next, out);
		image_free(&img);
	}
	measure_finish(fs, out);
out:
	if (fs->measure)
		measurer_free(&fs->measure->m);
	free(cm);
	free(aligned);
	verify_policy_free(&fs->policy);
	free(fs);
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
	out->why[0] = '\0';
	memset(&out->pcrs, 0, sizeof(out->pcrs));
	found = on_esp(files, path, host, sizeof(host));
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
		r = loader_stage(files, m, &first, path, load_options, options_size, out);
	else
		r = next_stage(files, m, NULL, &first, path, out);
	image_free(&first);
	return r;
}
