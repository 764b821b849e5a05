// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "grub_cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reason.h"

#define MAX_WORDS 32
#define MAX_DEPTH 8

/* One command's words, expanded. */
struct words {
	size_t n;
	char word[MAX_WORDS][GRUB_CFG_MAX_TEXT];
};

/* What the reader is inside of: a menu entry, a submenu, or a function it skips. */
enum frame {
	FRAME_ENTRY,
	FRAME_SUBMENU,
	FRAME_FUNCTION,
};

struct reader {
	struct grub_vars *vars;
	struct grub_cfg *out;
	enum frame stack[MAX_DEPTH];
	size_t depth;
	char submenu_title[GRUB_CFG_MAX_TEXT];
	unsigned int top, sub;
	struct grub_entry *entry; /* the entry being read, or NULL */
	bool done;                /* configfile: the rest of the file does not count */
};

static const char *var_value(const struct grub_vars *vars, const char *name, size_t len)
{
	for (size_t i = 0; i < vars->n; i++)
		if (strlen(vars->var[i].name) == len && memcmp(vars->var[i].name, name, len) == 0)
			return vars->var[i].value;
	return NULL;
}

int grub_vars_set(struct grub_vars *vars, const char *name, const char *value)
{
	size_t i;

	if (strlen(name) >= sizeof(vars->var[0].name) || strlen(value) >= GRUB_CFG_MAX_TEXT)
		return -1;
	for (i = 0; i < vars->n; i++)
		if (strcmp(vars->var[i].name, name) == 0)
			break;
	if (i == vars->n) {
		if (vars->n == GRUB_CFG_MAX_VARS)
			return -1;
		vars->n++;
		snprintf(vars->var[i].name, sizeof(vars->var[i].name), "%s", name);
	}
	snprintf(vars->var[i].value, sizeof(vars->var[i].value), "%s", value);
	return 0;
}

static bool is_name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* Append @c to @word (its length *@len); false when it is full. */
static bool put(char *word, size_t *len, char c)
{
	if (*len + 1 >= GRUB_CFG_MAX_TEXT)
		return false;
	word[(*len)++] = c;
	word[*len] = '\0';
	return true;
}

/* $NAME or ${NAME} at @s (after the '$'): its value appended; *@used the characters read. */
static bool expand(const struct grub_vars *vars, const char *s, size_t n, char *word, size_t *len,
		   size_t *used)
{
	bool braced = n > 0 && s[0] == '{';
	size_t start = braced, end = start;
	const char *value;

	while (end < n && is_name_char(s[end], end == start))
		end++;
	if (end == start || (braced && (end >= n || s[end] != '}'))) {
		*used = 0; /* a lone '$': kept as it is */
		return put(word, len, '$');
	}
	*used = end + braced;
	value = var_value(vars, s + start, end - start);
	for (; value && *value; value++)
		if (!put(word, len, *value))
			return false;
	return true;
}

/*
 * Split one line into commands at unquoted ';', each into words, quotes
 * removed and variables expanded outside single quotes; @run is called
 * for each command. Returns 0, or -1 with a reason.
 */
static int split_line(struct reader *r, const char *line, size_t n,
		      int (*run)(struct reader *r, struct words *w, const char **reason),
		      const char **reason)
{
	struct words *w = calloc(1, sizeof(*w));
	size_t i = 0;
	int ret = 0;

	if (!w)
		return refuse(reason, "out of memory");
	while (i <= n && ret == 0 && !r->done) {
		char quote = 0;
		size_t len = 0;
		bool in_word = false;

		while (i < n && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i >= n || line[i] == '#' || line[i] == ';') {
			if (w->n)
				ret = run(r, w, reason);
			w->n = 0;
			if (i >= n || line[i] == '#')
				break;
			i++;
			continue;
		}
		if (w->n == MAX_WORDS) {
			ret = refuse(reason, "a command with too many words");
			break;
		}
		w->word[w->n][0] = '\0';
		for (; i < n; i++) {
			char c = line[i];
			size_t used;

			if (!quote && (c == ' ' || c == '\t' || c == ';'))
				break;
			in_word = true;
			if (!quote && (c == '\'' || c == '"')) {
				quote = c;
			} else if (quote && c == quote) {
				quote = 0;
			} else if (c == '\\' && quote != '\'' && i + 1 < n) {
				if (!put(w->word[w->n], &len, line[++i]))
					break;
			} else if (c == '$' && quote != '\'') {
				if (!expand(r->vars, line + i + 1, n - i - 1, w->word[w->n], &len,
					    &used))
					break;
				i += used;
			} else if (!put(w->word[w->n], &len, c)) {
				break;
			}
		}
		if (i < n && len + 1 >= GRUB_CFG_MAX_TEXT) {
			ret = refuse(reason, "a word too long");
			break;
		}
		if (quote) {
			ret = refuse(reason, "a quote that does not end on its line");
			break;
		}
		if (in_word)
			w->n++;
	}
	free(w);
	return ret;
}

/* @word as a path: "(DEVICE)/path" or "/path" on the device $root names. */
static void resolve_path(const struct reader *r, const char *word, struct grub_path *out)
{
	const char *root = var_value(r->vars, "root", 4), *path = word;
	char device[GRUB_CFG_MAX_TEXT];

	snprintf(device, sizeof(device), "%s", root ? root : "");
	if (word[0] == '(') {
		const char *close = strchr(word, ')');
		size_t len = close ? (size_t)(close - word - 1) : strlen(word + 1);

		snprintf(device, sizeof(device), "%.*s", (int)len, word + 1);
		path = close ? close + 1 : "";
	}
	out->on_esp = strcmp(device, GRUB_ESP_DEVICE) == 0;
	snprintf(out->path, sizeof(out->path), "%s%s", path[0] == '/' ? "" : "/", path);
}

static bool is_word(const struct words *w, size_t i, const char *s)
{
	return i < w->n && strcmp(w->word[i], s) == 0;
}

/* search [options] --set=VAR | --set VAR ...; search.fs_uuid ARG VAR: VAR names another device. */
static int run_search(struct reader *r, const struct words *w, const char **reason)
{
	char device[GRUB_CFG_MAX_TEXT];
	const char *var = NULL, *what = "";

	if (strcmp(w->word[0], "search") != 0) {
		what = w->n > 1 ? w->word[1] : "";
		var = w->n > 2 ? w->word[2] : "root";
	}
	for (size_t i = 1; i < w->n && strcmp(w->word[0], "search") == 0; i++) {
		if (strncmp(w->word[i], "--set=", 6) == 0)
			var = w->word[i] + 6;
		else if (is_word(w, i, "--set") || is_word(w, i, "-s"))
			var = i + 1 < w->n && w->word[i + 1][0] != '-' ? w->word[++i] : "root";
		else if (w->word[i][0] != '-')
			what = w->word[i];
	}
	if (!var)
		return 0;
	snprintf(device, sizeof(device), "search:%.200s", what);
	if (grub_vars_set(r->vars, var, device) < 0)
		return refuse(reason, "a variable name or value too long, or too many variables");
	return 0;
}

static int run_menuentry(struct reader *r, const struct words *w, bool submenu, const char **reason)
{
	struct grub_entry *e;

	if (!is_word(w, w->n - 1, "{") || w->n < 3)
		return refuse(reason, "a menuentry or submenu without a title and '{'");
	if (r->depth == MAX_DEPTH || r->entry)
		return refuse(reason, "menu entries nested too deep");
	if (submenu) {
		if (r->depth > 0)
			return refuse(reason, "a submenu inside another: not followed");
		snprintf(r->submenu_title, sizeof(r->submenu_title), "%s", w->word[1]);
		r->stack[r->depth++] = FRAME_SUBMENU;
		r->sub = 0;
		return 0;
	}
	if (r->out->n_entries == GRUB_CFG_MAX_ENTRIES)
		return refuse(reason, "too many menu entries");
	e = &r->out->entries[r->out->n_entries++];
	memset(e, 0, sizeof(*e));
	e->in_submenu = r->depth > 0;
	e->top = r->top;
	e->sub = r->sub;
	if (e->in_submenu)
		snprintf(e->title, sizeof(e->title), "%.120s>%.120s", r->submenu_title, w->word[1]);
	else
		snprintf(e->title, sizeof(e->title), "%s", w->word[1]);
	for (size_t i = 2; i + 1 < w->n; i++)
		if (is_word(w, i, "--id") && i + 2 < w->n)
			snprintf(e->id, sizeof(e->id), "%s", w->word[i + 1]);
	r->entry = e;
	r->stack[r->depth++] = FRAME_ENTRY;
	return 0;
}

static int run_close(struct reader *r, const char **reason)
{
	if (r->depth == 0)
		return refuse(reason, "a '}' without its '{'");
	switch (r->stack[--r->depth]) {
	case FRAME_ENTRY:
		r->entry = NULL;
		if (r->depth == 0)
			r->top++;
		else
			r->sub++;
		break;
	case FRAME_SUBMENU:
		r->top++;
		break;
	case FRAME_FUNCTION:
		break;
	}
	return 0;
}

/* NAME=VALUE or set NAME=VALUE: values naming unknown variables expand to nothing: kept out. */
static int run_assignment(struct reader *r, const char *word, const char **reason)
{
	const char *eq = strchr(word, '=');
	char name[32];

	if (!eq || eq == word || (size_t)(eq - word) >= sizeof(name))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - word), word);
	if (strcmp(name, "default") == 0 && eq[1] && !r->entry)
		snprintf(r->out->default_entry, sizeof(r->out->default_entry), "%s", eq + 1);
	if (grub_vars_set(r->vars, name, eq + 1) < 0)
		return refuse(reason, "a variable name or value too long, or too many variables");
	return 0;
}

static bool in_function(const struct reader *r)
{
	for (size_t i = 0; i < r->depth; i++)
		if (r->stack[i] == FRAME_FUNCTION)
			return true;
	return false;
}

static int run_command(struct reader *r, struct words *w, const char **reason)
{
	const char *cmd = w->word[0];

	if (strcmp(cmd, "}") == 0)
		return run_close(r, reason);
	if (strcmp(cmd, "function") == 0) {
		if (r->depth == MAX_DEPTH || !is_word(w, w->n - 1, "{"))
			return refuse(reason, "a function without '{', or nested too deep");
		r->stack[r->depth++] = FRAME_FUNCTION;
		return 0;
	}
	if (in_function(r))
		return 0;
	if (strcmp(cmd, "menuentry") == 0 || strcmp(cmd, "submenu") == 0)
		return run_menuentry(r, w, strcmp(cmd, "submenu") == 0, reason);
	if (strcmp(cmd, "set") == 0 && w->n == 2)
		return run_assignment(r, w->word[1], reason);
	if (w->n == 1 && strchr(cmd, '=') && is_name_char(cmd[0], true))
		return run_assignment(r, cmd, reason);
	if (strcmp(cmd, "search") == 0 || strncmp(cmd, "search.", 7) == 0)
		return run_search(r, w, reason);
	if (r->entry && w->n >= 2 &&
	    (strcmp(cmd, "linux") == 0 || strcmp(cmd, "linuxefi") == 0 ||
	     strcmp(cmd, "chainloader") == 0) &&
	    !r->entry->has_image) {
		r->entry->has_image = true;
		r->entry->chainloader = strcmp(cmd, "chainloader") == 0;
		resolve_path(r, w->word[1], &r->entry->image);
		return 0;
	}
	if (strcmp(cmd, "configfile") == 0 && w->n == 2 && !r->entry && r->depth == 0) {
		r->out->has_configfile = true;
		resolve_path(r, w->word[1], &r->out->configfile);
		r->done = true;
	}
	return 0;
}

int grub_cfg_parse(const char *text, size_t size, struct grub_vars *vars, struct grub_cfg *out,
		   const char **reason)
{
	struct reader r = { .vars = vars, .out = out };
	size_t at = 0;

	memset(out, 0, sizeof(*out));
	if (size > GRUB_CFG_MAX_SIZE)
		return refuse(reason, "larger than any grub.cfg");
	if (memchr(text, '\0', size))
		return refuse(reason, "a NUL byte: not a text file");
	while (at < size && !r.done) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at;

		if (len > 4096)
			return refuse(reason, "a line too long");
		if (split_line(&r, text + at, len, run_command, reason) < 0)
			return -1;
		at += len + 1;
	}
	if (!r.done && r.depth)
		return refuse(reason, "a '{' without its '}'");
	return 0;
}

long grub_cfg_default_index(const struct grub_cfg *cfg)
{
	const char *d = cfg->default_entry;
	char *end;
	unsigned long top, sub = 0;
	bool has_sub = false;

	if (cfg->n_entries == 0)
		return -1;
	if (!d[0])
		return 0;
	top = strtoul(d, &end, 10);
	if (end != d && *end == '>') {
		has_sub = true;
		sub = strtoul(end + 1, &end, 10);
	}
	for (size_t i = 0; end != d && *end == '\0' && i < cfg->n_entries; i++) {
		const struct grub_entry *e = &cfg->entries[i];

		if (e->top == top && (!has_sub || (e->in_submenu && e->sub == sub)))
			return (long)i;
	}
	for (size_t i = 0; i < cfg->n_entries; i++)
		if (strcmp(cfg->entries[i].title, d) == 0 || strcmp(cfg->entries[i].id, d) == 0)
			return (long)i;
	return 0;
}
