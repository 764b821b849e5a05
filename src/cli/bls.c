// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "bls.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reason.h"

typedef int (*bls_line_fn)(const char *key, size_t key_len, const char *value, size_t value_len,
			   void *ctx);

static bool in(char c, const char *set)
{
	return c && strchr(set, c);
}

/*
 * Call @fn for each line of @text with a key, a separator from @sep and a
 * value, as 252's line_get_key_value() splits it. Returns 0, or -1 with a
 * reason.
 */
static int bls_walk(const char *text, size_t size, const char *sep, bls_line_fn fn, void *ctx,
		    const char **reason)
{
	const char *nul = memchr(text, '\0', size);
	size_t at = 0;

	if (size > BLS_MAX_SIZE)
		return refuse(reason, "larger than any loader entry");
	if (nul)
		size = (size_t)(nul - text); /* 252 reads the file as a C string */
	while (at < size) {
		const char *line = text + at;
		size_t len = 0, k = 0, v;

		while (at + len < size && !in(line[len], "\n\r"))
			len++;
		at += len + 1;
		while (len && in(line[len - 1], " \t"))
			len--;
		while (k < len && in(line[k], " \t"))
			k++;
		line += k;
		len -= k;
		if (!len || line[0] == '#')
			continue;
		for (k = 0; k < len && !in(line[k], sep);)
			k++;
		if (k == len)
			continue; /* no separator: not a setting */
		for (v = k; v < len && in(line[v], sep);)
			v++;
		if (v < len && line[v] == '"' && line[len - 1] == '"') {
			v++;
			len--;
		}
		if (v > len)
			v = len; /* a lone '"' */
		if (len - v >= BLS_MAX_VALUE)
			return refuse(reason, "a value longer than check reads");
		if (fn(line, k, line + v, len - v, ctx) < 0)
			return refuse(reason, "out of memory");
	}
	return 0;
}

static bool key_is(const char *key, size_t len, const char *name)
{
	return strlen(name) == len && memcmp(key, name, len) == 0;
}

static void set_value(char *to, const char *value, size_t len)
{
	snprintf(to, BLS_MAX_VALUE, "%.*s", (int)len, value);
}

static int entry_line(const char *key, size_t key_len, const char *value, size_t value_len,
		      void *ctx)
{
	struct bls_entry *e = ctx;

	if (key_is(key, key_len, "title"))
		set_value(e->title, value, value_len);
	else if (key_is(key, key_len, "version"))
		set_value(e->version, value, value_len);
	else if (key_is(key, key_len, "sort-key"))
		set_value(e->sort_key, value, value_len);
	else if (key_is(key, key_len, "machine-id"))
		set_value(e->machine_id, value, value_len);
	else if (key_is(key, key_len, "linux") || key_is(key, key_len, "efi"))
		set_value(e->image, value, value_len); /* the last one read wins */
	else if (key_is(key, key_len, "architecture") &&
		 !(value_len == 3 && strncasecmp(value, "x64", 3) == 0))
		e->other_architecture = true;
	return 0;
}

int bls_entry_parse(const char *text, size_t size, struct bls_entry *out, const char **reason)
{
	out->title[0] = out->version[0] = out->sort_key[0] = out->machine_id[0] = '\0';
	out->image[0] = '\0';
	out->other_architecture = false;
	if (bls_walk(text, size, " \t", entry_line, out, reason) < 0)
		return -1;
	for (char *p = out->image; *p; p++)
		if (*p == '\\')
			*p = '/';
	return 0;
}

struct osrel {
	char pretty_name[BLS_MAX_VALUE], image_id[BLS_MAX_VALUE], name[BLS_MAX_VALUE],
		id[BLS_MAX_VALUE], image_version[BLS_MAX_VALUE], version[BLS_MAX_VALUE],
		version_id[BLS_MAX_VALUE], build_id[BLS_MAX_VALUE];
};

static int osrel_line(const char *key, size_t key_len, const char *value, size_t value_len,
		      void *ctx)
{
	struct osrel *o = ctx;
	const struct {
		const char *key;
		char *to;
	} fields[] = {
		{ "PRETTY_NAME", o->pretty_name },
		{ "IMAGE_ID", o->image_id },
		{ "NAME", o->name },
		{ "ID", o->id },
		{ "IMAGE_VERSION", o->image_version },
		{ "VERSION", o->version },
		{ "VERSION_ID", o->version_id },
		{ "BUILD_ID", o->build_id },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (key_is(key, key_len, fields[i].key))
			set_value(fields[i].to, value, value_len);
	return 0;
}

static const char *first_set(const char *a, const char *b, const char *c, const char *d)
{
	return a[0] ? a : b[0] ? b : c[0] ? c : d;
}

int bls_osrel_parse(const char *text, size_t size, struct bls_entry *out, const char **reason)
{
	struct osrel *o = calloc(1, sizeof(*o));
	int r;

	if (!o)
		return refuse(reason, "out of memory");
	r = bls_walk(text, size, "=", osrel_line, o, reason);
	if (r == 0) {
		snprintf(out->title, sizeof(out->title), "%s",
			 first_set(o->pretty_name, o->image_id, o->name, o->id));
		snprintf(out->version, sizeof(out->version), "%s",
			 first_set(o->image_version, o->version, o->version_id, o->build_id));
		snprintf(out->sort_key, sizeof(out->sort_key), "%s",
			 o->image_id[0] ? o->image_id : o->id);
	}
	free(o);
	return r;
}

struct loader_default {
	char *out;
	size_t size;
};

static int loader_line(const char *key, size_t key_len, const char *value, size_t value_len,
		       void *ctx)
{
	struct loader_default *d = ctx;

	/* 252 ignores "@..." other than @saved */
	if (key_is(key, key_len, "default") &&
	    (value[0] != '@' || (value_len == 6 && strncasecmp(value, "@saved", 6) == 0)))
		snprintf(d->out, d->size, "%.*s", (int)value_len, value);
	return 0;
}

int bls_loader_default(const char *text, size_t size, char *out, size_t out_size,
		       const char **reason)
{
	struct loader_default d = { out, out_size };

	if (out_size)
		out[0] = '\0';
	return bls_walk(text, size, " \t", loader_line, &d, reason);
}

/* Digits at *@s into *@value (at most INT_MAX); false when none or too many. */
static bool read_count(const char **s, int *value)
{
	long v = 0;

	if (!isdigit((unsigned char)**s))
		return false;
	for (; isdigit((unsigned char)**s); (*s)++) {
		v = v * 10 + (**s - '0');
		if (v > 0x7fffffff)
			return false;
	}
	*value = (int)v;
	return true;
}

void bls_entry_name(struct bls_entry *e, const char *name, const char *suffix)
{
	const char *plus = strrchr(name, '+'), *p;
	int left, done = 0;
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(e->id); i++)
		e->id[i] = (char)tolower((unsigned char)name[i]);
	e->id[i] = '\0';
	e->tries_left = e->tries_done = -1;
	p = plus ? plus + 1 : NULL;
	if (!p || !read_count(&p, &left))
		return;
	if (*p == '-' && (p++, !read_count(&p, &done)))
		return;
	if (strcasecmp(p, suffix) != 0)
		return; /* a counter in the middle of the name is none */
	e->tries_left = left;
	e->tries_done = done;
}

static bool version_char(char c)
{
	return isalnum((unsigned char)c) || in(c, "~-^.");
}

/* Which of @a and @b starts with @c: -1 when only @b does (then @a sorts first), 1 when only @a. */
static int prefixed(const char *a, const char *b, char c)
{
	return (*a != c) - (*b != c);
}

int bls_version_compare(const char *a, const char *b)
{
	for (;;) {
		const char *ea, *eb;
		size_t la, lb;
		int r;

		while (*a && !version_char(*a))
			a++;
		while (*b && !version_char(*b))
			b++;
		/* '~' first: a pre-release is older than anything */
		if (*a == '~' || *b == '~') {
			r = prefixed(a, b, '~');
			if (r)
				return r;
			a++, b++;
		}
		if (!*a || !*b)
			return (*a != 0) - (*b != 0);
		/* '-', then '^', then '.': a segment so prefixed is older than one without */
		for (const char *sep = "-^."; *sep; sep++)
			if (*a == *sep || *b == *sep) {
				r = prefixed(a, b, *sep);
				if (r)
					return r;
				a++, b++;
			}
		if (isdigit((unsigned char)*a) || isdigit((unsigned char)*b)) {
			for (ea = a; isdigit((unsigned char)*ea);)
				ea++;
			for (eb = b; isdigit((unsigned char)*eb);)
				eb++;
			r = (ea != a) - (eb != b); /* a number is newer than letters */
			if (r)
				return r;
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			r = strncmp(a, b, la);
		} else {
			for (ea = a; isalpha((unsigned char)*ea);)
				ea++;
			for (eb = b; isalpha((unsigned char)*eb);)
				eb++;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			r = strncmp(a, b, la < lb ? la : lb);
			if (!r && la != lb)
				r = la < lb ? -1 : 1;
		}
		if (r)
			return r < 0 ? -1 : 1;
		a = ea;
		b = eb;
	}
}

/* Absent (empty) sorts before present, as 252's strcmp16 puts NULL first. */
static int compare_present(const char *a, const char *b)
{
	if (!a[0] || !b[0])
		return (a[0] != 0) - (b[0] != 0);
	return strcmp(a, b);
}

int bls_entry_compare(const struct bls_entry *a, const struct bls_entry *b)
{
	int r = (a->tries_left == 0) - (b->tries_left == 0); /* no tries left: last */

	if (r)
		return r;
	/* entries with a sort-key before those without, which go by id alone */
	r = (!a->sort_key[0]) - (!b->sort_key[0]);
	if (r)
		return r;
	if (a->sort_key[0]) {
		r = strcmp(a->sort_key, b->sort_key);
		if (!r)
			r = compare_present(a->machine_id, b->machine_id);
		if (!r)
			r = -bls_version_compare(a->version, b->version); /* newest first */
		if (r)
			return r;
	}
	r = -bls_version_compare(a->id, b->id);
	if (r || a->tries_left < 0 || b->tries_left < 0)
		return r;
	if (a->tries_left != b->tries_left) /* more tries left first, then fewer done */
		return a->tries_left > b->tries_left ? -1 : 1;
	return (a->tries_done > b->tries_done) - (a->tries_done < b->tries_done);
}

/*
 * The part of @p up to its next '*' against the start of @h: true when it
 * matches, *@p_rest and *@h_rest then after it (the pattern past the '*',
 * NULL when the pattern ended, and then @h must have ended too).
 */
static bool match_part(const char *p, const char *h, const char **p_rest, const char **h_rest)
{
	*p_rest = NULL;
	for (;; p++, h++) {
		bool first = true, ranged = true, hit = false;

		switch (*p) {
		case '\0':
			return !*h;
		case '*':
			while (*p == '*')
				p++;
			*p_rest = p;
			*h_rest = h;
			return true;
		case '?':
			if (!*h)
				return false;
			continue;
		case '\\':
			if (!*++p || *p != *h)
				return false;
			continue;
		case '[':
			if (!*h)
				return false;
			for (;; first = false) {
				char c = *++p;

				if (!c)
					return false;
				if (c == '\\') {
					if (!*++p)
						return false;
					hit |= *p == *h;
					ranged = true;
				} else if (c == ']' && !first) {
					break;
				} else if (c == '-' && ranged && !first && p[1] != ']') {
					char low = p[-1];

					if (*++p == '\\')
						p++;
					if (!*p)
						return false;
					hit |= low <= *h && *h <= *p;
					ranged = false;
				} else {
					hit |= c == *h;
					ranged = true;
				}
			}
			if (!hit)
				return false;
			continue;
		default:
			if (*p != *h)
				return false;
		}
	}
}

bool bls_glob_match(const char *pattern, const char *id)
{
	const char *p_rest, *h_rest;

	/* the text before the first '*' anchors at the start */
	if (!match_part(pattern, id, &p_rest, &h_rest))
		return false;
	while (p_rest) {
		pattern = p_rest;
		id = h_rest;
		/* each later part at its first place; the last one must reach the end */
		for (;;) {
			if (match_part(pattern, id, &p_rest, &h_rest))
				break;
			if (!*id)
				return false;
			id++;
		}
	}
	return true;
}
