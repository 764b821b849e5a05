// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "dbx_warning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "authenticode.h"
#include "ca_names.h"
#include "dbx_revocation.h"
#include "esp.h"
#include "file.h"
#include "firmware_verdict.h"
#include "json.h"
#include "macro.h"
#include "pe.h"
#include "signature_list.h"

/* ---- the warnings ---------------------------------------------------------------- */

/* An update to weigh: what it is called, and the dbx it leaves. */
struct update {
	const char *label;  /* "uefi-ca-2011", "--dbx-update FILE" */
	const char *status; /* "given", "published 2024-04-09", "not published" */
	const char *what;   /* its description; empty for a file */
	const struct sig_db *dbx_before, *dbx_after;
};

struct warnings {
	const struct chain_files *files;
	const struct chain *chains;
	size_t n;
	const struct sig_db *db;
	bool json;
	size_t count;
};

/* Does @dbx revoke @ca itself: the certificate, or a TBS digest of it? */
static bool ca_revoked(X509 *ca, const struct sig_db *dbx)
{
	static const enum esl_type tbs[] = { ESL_X509_SHA256, ESL_X509_SHA384, ESL_X509_SHA512 };

	for (int i = 0; i < sk_X509_num(dbx->certs); i++)
		if (X509_cmp(ca, sk_X509_value(dbx->certs, i)) == 0)
			return true;
	for (size_t t = 0; t < ARRAY_SIZE(tbs); t++) {
		uint8_t digest[EVP_MAX_MD_SIZE];
		unsigned int size;

		if (esl_cert_tbs_digest(ca, esl_type_md(tbs[t]), digest, &size) == 0 &&
		    sig_db_has_digest(dbx, tbs[t], digest, size))
			return true;
	}
	return false;
}

/*
 * Whether a signature of @img the firmware sees chains to db's certificate
 * @ca: the firmware's verdict with @ca alone in db (1 yes, 0 no, -1 out of
 * memory).
 */
static int depends_on(const uint8_t *img, size_t size, X509 *ca, const struct sig_db *dbx)
{
	struct firmware_verdict *fv = malloc(sizeof(*fv));
	struct sig_db one;
	int r = -1;

	sig_db_init(&one, "db");
	if (fv && sig_db_add_cert(&one, ca, NULL) == 0) {
		firmware_verify_image(img, size, &one, dbx, fv);
		r = fv->verdict.allowed && fv->verdict.authority.cert;
	}
	sig_db_free(&one);
	free(fv);
	return r;
}

/* Whether any signature of @img, nested ones too, signs it and chains to @ca. */
static bool any_signature_chains(const struct pe_image *pe,
				 const struct authenticode_signatures *all, X509 *ca)
{
	STACK_OF(X509) *one = sk_X509_new_null();
	X509_STORE *store = NULL;
	bool found = false;

	if (one && sk_X509_push(one, ca))
		store = authenticode_trust_store(one);
	sk_X509_free(one);
	for (size_t i = 0; store && !found && i < all->count; i++) {
		const struct authenticode_signature *sig = &all->sigs[i];
		uint8_t digest[EVP_MAX_MD_SIZE];
		STACK_OF(X509) *chain = NULL;
		unsigned int len;
		const char *reason;

		if (pe_authenticode_digest(pe, sig->md, digest, &len, &reason) < 0 ||
		    authenticode_check_image(sig, digest, len, &reason) < 0)
			continue;
		if (authenticode_check_signer(sig, store, &chain, &reason) == 0) {
			sk_X509_pop_free(chain, X509_free);
			found = true;
		}
	}
	X509_STORE_free(store);
	return found;
}

/* The names of db's certificates marked in @set, joined by " and ", into @out. */
static void join_names(const struct sig_db *db, const bool *set, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < sk_X509_num(db->certs); i++) {
		char name[256];

		if (!set[i])
			continue;
		ca_name(sk_X509_value(db->certs, i), name, sizeof(name));
		snprintf(out + used, size - used, "%s%s", used ? " and " : "", name);
		used += strlen(out + used);
	}
}

static void print_names_json(const char *key, const struct sig_db *db, const bool *set)
{
	bool first = true;

	json_print_key(key, true);
	printf("[");
	for (int i = 0; i < sk_X509_num(db->certs); i++) {
		char name[256];

		if (!set[i])
			continue;
		ca_name(sk_X509_value(db->certs, i), name, sizeof(name));
		printf("%s", first ? "" : ", ");
		json_print_string(name);
		first = false;
	}
	printf("]");
}

/* The CA sets of one first stage under one update (indices of db's certificates). */
struct dependence {
	bool *depends, *revoked, *kept, *nested_only;
	size_t n_depends, n_revoked, n_nested_only;
};

static void say_warning(struct warnings *ws, const struct chain *c, const struct update *u,
			const struct dependence *d, const struct firmware_verdict *after)
{
	char revoked[512], kept[512], nested[512], label[1400], message[8192];
	bool refused = !after->verdict.allowed;

	join_names(ws->db, d->revoked, revoked, sizeof(revoked));
	join_names(ws->db, d->kept, kept, sizeof(kept));
	join_names(ws->db, d->nested_only, nested, sizeof(nested));
	if (u->what[0])
		snprintf(label, sizeof(label), "%s (%s)", u->label, u->what);
	else
		snprintf(label, sizeof(label), "%s", u->label);
	if (d->n_revoked == d->n_depends && d->n_nested_only)
		snprintf(
			message, sizeof(message),
			"%s's first stage %s is dual-signed, but its signature under %s is nested "
			"inside the one under %s, which is all the firmware sees (EDK2 checks the "
			"outer signer of each certificate table entry): it depends only on %s, which "
			"%s revokes: %s",
			c->option, c->steps[0].image, nested, revoked, revoked, label,
			refused ? "the firmware will refuse it" :
				  "yet the firmware would allow it");
	else if (d->n_revoked == d->n_depends)
		snprintf(message, sizeof(message),
			 "%s's first stage %s depends only on %s, which %s revokes: %s", c->option,
			 c->steps[0].image, revoked, label,
			 refused ? "the firmware will refuse it" :
				   "yet the firmware would allow it");
	else
		snprintf(
			message, sizeof(message),
			"%s's first stage %s is signed under %s and under %s; %s revokes %s and "
			"leaves %s, but EDK2 refuses an image when any of its signatures chains to "
			"dbx: %s",
			c->option, c->steps[0].image, revoked, kept, label, revoked, kept,
			refused ? "the firmware will refuse it, dual-signed as it is" :
				  "yet the firmware would allow it");
	if (!ws->json) {
		printf("warning: %s\n", message);
		ws->count++;
		return;
	}
	printf("%s{", ws->count++ ? ", " : "");
	json_print_key("option", false);
	json_print_string(c->option);
	json_print_key("image", true);
	json_print_string(c->steps[0].image);
	json_print_key("update", true);
	json_print_string(u->label);
	json_print_key("update_status", true);
	json_print_string(u->status);
	print_names_json("depends_on", ws->db, d->depends);
	print_names_json("revoked", ws->db, d->revoked);
	print_names_json("nested_only", ws->db, d->nested_only);
	json_print_key("refused", true);
	printf("%s", refused ? "true" : "false");
	json_print_key("message", true);
	json_print_string(message);
	printf("}");
}

/* The first stage of @c under update @u: a warning when @u revokes a CA it depends on. */
static int weigh_first_stage(struct warnings *ws, const struct chain *c, const struct update *u,
			     struct dependence *d)
{
	struct firmware_verdict *fv = malloc(sizeof(*fv));
	struct authenticode_signatures all;
	const uint8_t *img;
	struct pe_image pe;
	const char *reason;
	char host[4096], why[200];
	size_t size;
	int ncerts = sk_X509_num(ws->db->certs), r = -1;

	if (!fv)
		goto oom;
	/* an image that cannot be read or parsed is the chain's verdict, said there */
	if (esp_resolve(ws->files->esp, c->steps[0].image, host, sizeof(host)) != 1 ||
	    image_cache_load(ws->files->cache, host, &img, &size, why, sizeof(why)) != 1 ||
	    pe_parse(img, size, &pe, &reason) < 0) {
		free(fv);
		return 0;
	}
	firmware_verify_image(img, size, ws->db, u->dbx_before, fv);
	if (!fv->verdict.allowed) {
		free(fv);
		return 0; /* refused before the update: the chain says why */
	}
	d->n_depends = d->n_revoked = d->n_nested_only = 0;
	for (int i = 0; i < ncerts; i++) {
		X509 *ca = sk_X509_value(ws->db->certs, i);
		int dep = depends_on(img, size, ca, u->dbx_before);

		if (dep < 0)
			goto oom;
		d->depends[i] = dep;
		d->revoked[i] = dep && ca_revoked(ca, u->dbx_after) &&
				!ca_revoked(ca, u->dbx_before);
		d->kept[i] = dep && !d->revoked[i];
		d->nested_only[i] = false;
		d->n_depends += d->depends[i];
		d->n_revoked += d->revoked[i];
	}
	if (!d->n_revoked) {
		free(fv);
		return 0;
	}
	if (authenticode_collect(&pe, &all, &reason) == 0) {
		for (int i = 0; i < ncerts; i++) {
			X509 *ca = sk_X509_value(ws->db->certs, i);

			d->nested_only[i] = !d->depends[i] && any_signature_chains(&pe, &all, ca);
			d->n_nested_only += d->nested_only[i];
		}
		authenticode_signatures_free(&all);
	}
	firmware_verify_image(img, size, ws->db, u->dbx_after, fv);
	say_warning(ws, c, u, d, fv);
	r = 0;
	free(fv);
	return r;
oom:
	free(fv);
	say_error("out of memory");
	return -1;
}

static int weigh_update(struct warnings *ws, const struct update *u)
{
	int ncerts = sk_X509_num(ws->db->certs);
	size_t slots = ncerts > 0 ? (size_t)ncerts : 1;
	bool *sets = calloc(4 * slots, sizeof(*sets));
	struct dependence d;
	bool revokes = false;
	int r = 0;

	if (!sets) {
		say_error("out of memory");
		return -1;
	}
	d = (struct dependence){ sets, sets + slots, sets + 2 * slots, sets + 3 * slots, 0, 0, 0 };
	/* most updates revoke no CA of db: no first stage to weigh then */
	for (int i = 0; i < ncerts && !revokes; i++) {
		X509 *ca = sk_X509_value(ws->db->certs, i);

		revokes = ca_revoked(ca, u->dbx_after) && !ca_revoked(ca, u->dbx_before);
	}
	for (size_t i = 0; revokes && i < ws->n && r == 0; i++)
		if (ws->chains[i].n_steps)
			r = weigh_first_stage(ws, &ws->chains[i], u, &d);
	free(sets);
	return r;
}

/* Add @b's lists to @db as the firmware reads them; 0, or -1 out of memory, said. */
static int load_list(struct sig_db *db, const struct blob *b)
{
	const char *reason;

	if (b->present && sig_db_add_esl(db, b->data, b->size, &reason) < 0) {
		say_error("out of memory");
		return -1;
	}
	return 0;
}

struct published {
	struct warnings *ws;
	const struct machine_state *state;
	const struct sig_db *dbx;
	int r;
};

static int weigh_published(const struct dbx_revocation *rev, void *ctx)
{
	struct published *p = ctx;
	struct blob added = { true, NULL, 0 };
	struct sig_db dbx_after;
	struct update u = { rev->name, rev->status, rev->what, p->dbx, &dbx_after };

	if (dbx_revocation_payload(rev, &p->state->db, &added.data, &added.size) < 0)
		return p->r = -1;
	if (!added.size)
		return 0; /* db does not hold that CA: nothing depends on it */
	sig_db_init(&dbx_after, "dbx");
	if (load_list(&dbx_after, &p->state->dbx) < 0 ||
	    sig_db_add_esl(&dbx_after, added.data, added.size, &(const char *){ NULL }) < 0) {
		say_error("out of memory");
		p->r = -1;
	} else {
		p->r = weigh_update(p->ws, &u);
	}
	sig_db_free(&dbx_after);
	OPENSSL_free(added.data);
	return p->r;
}

/* The given dbx updates in words ("--dbx-update FILE" each); *@only: the one, when one. */
static void given_label(const struct what_if *w, char *out, size_t size,
			const struct list_update **only)
{
	size_t used = 0, count = 0;

	out[0] = '\0';
	*only = NULL;
	for (size_t i = 0; i < w->n_updates; i++) {
		const struct list_update *u = &w->updates[i];

		if (u->variable != VAR_DBX)
			continue;
		*only = count++ ? NULL : u;
		snprintf(out + used, size - used, "%s--dbx-%s %s", used ? " " : "",
			 u->replace ? "replace" : "update", u->path);
		used += strlen(out + used);
	}
}

int dbx_warnings_print(const struct chain_files *files, const struct chain *chains, size_t n,
		       const struct machine_state *today, const struct machine_state *after,
		       const struct what_if *w, bool json)
{
	struct warnings ws = { files, chains, n, NULL, json, 0 };
	struct sig_db db, dbx_today, dbx_after;
	struct published p = { &ws, after, &dbx_after, 0 };
	const struct list_update *only;
	char label[1024];
	int r = -1;

	sig_db_init(&db, "db");
	sig_db_init(&dbx_today, "dbx");
	sig_db_init(&dbx_after, "dbx");
	if (load_list(&db, &after->db) < 0 || load_list(&dbx_today, &today->dbx) < 0 ||
	    load_list(&dbx_after, &after->dbx) < 0)
		goto out;
	ws.db = &db;
	if (json) {
		json_print_key("dbx_warnings", true);
		printf("[");
	}
	/* Secure Boot off: the firmware checks nothing, no update refuses anything */
	if (!after->secure_boot)
		goto done;
	given_label(w, label, sizeof(label), &only);
	if (label[0]) {
		struct dbx_revocation rev;
		/* a recorded one given alone by its name: said with what it is */
		bool named = only && dbx_revocation_find(only->path, &rev) == 1;
		struct update u = { named ? rev.name : label, named ? rev.status : "given",
				    named ? rev.what : "", &dbx_today, &dbx_after };

		if (weigh_update(&ws, &u) < 0)
			goto out;
	}
	dbx_revocation_each(weigh_published, &p);
	if (p.r < 0)
		goto out;
done:
	if (json)
		printf("]");
	r = 0;
out:
	sig_db_free(&db);
	sig_db_free(&dbx_today);
	sig_db_free(&dbx_after);
	return r;
}
