// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "grub_cfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reason.h"

#define MAX_WORDS 32
#define MAX_DEPTH 8
#define MAX_CONDS 16
#define MAX_LINE  4096

/* One command's words, expanded. */
struct words {
	size_t n;
	char word[MAX_WORDS][GRUB_CFG_MAX_TEXT];
	bool bare[MAX_WORDS];    /* unquoted: a bare '{' or '}' is a brace */
	bool unknown[MAX_WORDS]; /* it names a variable whose value is not known */
};

/* What the reader is inside of: a menu entry, a submenu, or a block it skips. */
enum frame {
	FRAME_ENTRY,
	FRAME_SUBMENU,
	FRAME_SKIP,
};

enum cond {
	COND_FALSE,
	COND_TRUE,
	COND_UNKNOWN,
};

/* An if (or while, for) ... fi: the branch being read. */
struct cond_frame {
	enum cond state;
	bool taken; /* an earlier branch was surely taken */
	bool maybe; /* an earlier branch may have been */
};

struct reader {
	struct grub_vars *vars;
	const struct grub_cfg_files *files;
	struct grub_cfg *out;
	enum frame stack[MAX_DEPTH];
	size_t depth;
	struct cond_frame conds[MAX_CONDS];
	size_t n_conds;
	char submenu_title[GRUB_CFG_MAX_TEXT], submenu_id[GRUB_CFG_MAX_TEXT];
	unsigned int top, sub, line;
	struct grub_entry *entry; /* the entry being read, or NULL */
	bool done;                /* configfile: the rest of the file does not count */
};

/* Say @what about the line being read in out->note, cut when full. */
static void note(struct reader *r, const char *what, const char *detail)
{
	size_t len = strlen(r->out->note);

	if (len + 1 < sizeof(r->out->note) &&
	    snprintf(r->out->note + len, sizeof(r->out->note) - len, " (grub.cfg line %u: %s%.80s)",
		     r->line, what, detail) < 0)
		r->out->note[len] = '\0';
}

/* The variable @name (@len bytes); NULL when grub.cfg has not set it. */
static const char *var_value(const struct grub_vars *vars, const char *name, size_t len,
			     bool *unknown)
{
	for (size_t i = 0; i < vars->n; i++)
		if (strlen(vars->var[i].name) == len && memcmp(vars->var[i].name, name, len) == 0) {
			*unknown = vars->var[i].unknown;
			return vars->var[i].value;
		}
	*unknown = vars->env_unknown; /* load_env may have set it */
	return NULL;
}

static int vars_set(struct grub_vars *vars, const char *name, const char *value, bool unknown)
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
	vars->var[i].unknown = unknown;
	return 0;
}

int grub_vars_set(struct grub_vars *vars, const char *name, const char *value)
{
	return vars_set(vars, name, value, false);
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
		   size_t *used, bool *unknown)
{
	bool braced = n > 0 && s[0] == '{', u = false;
	size_t start = braced, end = start;
	const char *value;

	while (end < n && is_name_char(s[end], end == start))
		end++;
	if (end == start || (braced && (end >= n || s[end] != '}'))) {
		*used = 0; /* a lone '$': kept as it is */
		return put(word, len, '$');
	}
	*used = end + braced;
	value = var_value(vars, s + start, end - start, &u);
	*unknown |= u;
	for (; value && *value; value++)
		if (!put(word, len, *value))
			return false;
	return true;
}

static bool is_brace(const struct words *w, size_t i, const char *brace)
{
	return i < w->n && w->bare[i] && strcmp(w->word[i], brace) == 0;
}

/*
 * Split one line into commands at unquoted ';' and after a bare '{' (before
 * a bare '}'), each into words, quotes removed and variables expanded
 * outside single quotes; @run is called for each command. Returns 0, or
 * -1 with a reason (the rest of the line is then not read).
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
		bool in_word = false, bare = true, unknown = false;

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
				bare = false;
			} else if (quote && c == quote) {
				quote = 0;
			} else if (c == '\\' && quote != '\'' && i + 1 < n) {
				bare = false;
				if (!put(w->word[w->n], &len, line[++i]))
					break;
			} else if (c == '$' && quote != '\'') {
				if (!expand(r->vars, line + i + 1, n - i - 1, w->word[w->n], &len,
					    &used, &unknown))
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
		if (!in_word)
			continue;
		w->bare[w->n] = bare;
		w->unknown[w->n] = unknown;
		w->n++;
		if (is_brace(w, w->n - 1, "{")) {
			ret = run(r, w,
				  reason); /* the block's first command may follow on the line */
			w->n = 0;
		} else if (is_brace(w, w->n - 1, "}")) {
			w->n--;
			if (w->n)
				ret = run(r, w, reason);
			w->n = 1;
			snprintf(w->word[0], sizeof(w->word[0]), "}");
			w->bare[0] = true;
			w->unknown[0] = false;
			if (ret == 0)
				ret = run(r, w, reason);
			w->n = 0;
		}
	}
	free(w);
	return ret;
}

void grub_cfg_path(const struct grub_vars *vars, const char *word, struct grub_path *out)
{
	bool unknown;
	const char *root = var_value(vars, "root", 4, &unknown), *p = word;
	char device[GRUB_CFG_MAX_TEXT];
	size_t len = 0;

	snprintf(device, sizeof(device), "%s", root ? root : "");
	if (word[0] == '(') {
		const char *close = strchr(word, ')');
		size_t dev_len = close ? (size_t)(close - word - 1) : strlen(word + 1);

		snprintf(device, sizeof(device), "%.*s", (int)dev_len, word + 1);
		p = close ? close + 1 : "";
	}
	out->on_esp = strcmp(device, GRUB_ESP_DEVICE) == 0;
	/* components: '.' stays, '..' goes up (never above the root), as fshelp walks them */
	out->path[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (len && out->path[len - 1] != '/')
				len--;
			if (len)
				len--;
			out->path[len] = '\0';
		} else if (n && !(n == 1 && p[0] == '.') && len + n + 2 < sizeof(out->path)) {
			out->path[len++] = '/';
			memcpy(out->path + len, p, n);
			len += n;
			out->path[len] = '\0';
		}
		p += n + (p[n] == '/');
	}
	if (!len)
		snprintf(out->path, sizeof(out->path), "/");
}

static bool is_word(const struct words *w, size_t i, const char *s)
{
	return i < w->n && strcmp(w->word[i], s) == 0;
}

/* Whether every condition around the line is surely true; *@maybe when one is not evaluated. */
static bool active(const struct reader *r, bool *maybe)
{
	*maybe = false;
	for (size_t i = 0; i < r->n_conds; i++) {
		if (r->conds[i].state == COND_FALSE)
			return false;
		*maybe |= r->conds[i].state == COND_UNKNOWN;
	}
	return true;
}

static bool any_unknown(const struct words *w, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (w->unknown[i])
			return true;
	return false;
}

/* test / [ ... ]: words @from to @to; what GRUB 2.06's test would answer, when it can be known. */
static enum cond evaluate(struct reader *r, const struct words *w, size_t from, size_t to)
{
	bool negate = false, t;
	size_t n;

	if (from < to && is_word(w, from, "!")) {
		negate = true;
		from++;
	}
	n = to - from;
	if (any_unknown(w, from, to))
		return COND_UNKNOWN;
	if (n == 1) {
		t = w->word[from][0] != '\0';
	} else if (n == 2 && (is_word(w, from, "-n") || is_word(w, from, "-z"))) {
		t = (w->word[from + 1][0] != '\0') == is_word(w, from, "-n");
	} else if (n == 2 && strlen(w->word[from]) == 2 && w->word[from][0] == '-' &&
		   strchr("efsd", w->word[from][1]) && r->files && r->files->test) {
		struct grub_path path;
		int found;

		grub_cfg_path(r->vars, w->word[from + 1], &path);
		found = r->files->test(r->files->ctx, w->word[from][1], &path);
		if (found < 0)
			return COND_UNKNOWN;
		t = found > 0;
	} else if (n == 3 && (is_word(w, from + 1, "=") || is_word(w, from + 1, "=="))) {
		t = strcmp(w->word[from], w->word[from + 2]) == 0;
	} else if (n == 3 && is_word(w, from + 1, "!=")) {
		t = strcmp(w->word[from], w->word[from + 2]) != 0;
	} else {
		return COND_UNKNOWN;
	}
	return t != negate ? COND_TRUE : COND_FALSE;
}

/* The condition of `if`/`elif`/`while` in @w from word 1. */
static enum cond condition(struct reader *r, const struct words *w)
{
	enum cond c = COND_UNKNOWN;

	if (is_word(w, 1, "[") && is_word(w, w->n - 1, "]"))
		c = evaluate(r, w, 2, w->n - 1);
	else if (is_word(w, 1, "test"))
		c = evaluate(r, w, 2, w->n);
	return c; /* what an unknown one changes is said where it matters */
}

/* if, elif, else, fi (and while/for ... done, never evaluated). 1 when @w was one. */
static int run_conditional(struct reader *r, const struct words *w, const char **reason)
{
	const char *cmd = w->word[0];
	struct cond_frame *top = r->n_conds ? &r->conds[r->n_conds - 1] : NULL;
	bool maybe, outer;

	if (!strcmp(cmd, "if") || !strcmp(cmd, "while") || !strcmp(cmd, "until") ||
	    !strcmp(cmd, "for")) {
		if (r->n_conds == MAX_CONDS)
			return refuse(reason, "conditions nested too deep");
		outer = active(r, &maybe);
		top = &r->conds[r->n_conds++];
		*top = (struct cond_frame){ COND_FALSE, false, false };
		if (!outer)
			top->taken = true; /* no branch runs */
		else
			top->state = !strcmp(cmd, "if") ? condition(r, w) : COND_UNKNOWN;
	} else if (!strcmp(cmd, "elif") || !strcmp(cmd, "else")) {
		enum cond c;

		if (!top)
			return refuse(reason, "elif or else outside if");
		top->maybe |= top->state == COND_UNKNOWN;
		top->taken |= top->state == COND_TRUE;
		top->state = COND_FALSE;
		if (top->taken)
			return 1;
		r->n_conds--; /* the branch's own condition is read outside it */
		c = !strcmp(cmd, "else") ? COND_TRUE : condition(r, w);
		r->n_conds++;
		top->state = c == COND_TRUE && top->maybe ? COND_UNKNOWN : c;
	} else if (!strcmp(cmd, "fi") || !strcmp(cmd, "done")) {
		if (!top)
			return refuse(reason, "fi without if");
		r->n_conds--;
	} else {
		return 0;
	}
	return 1;
}

/* search [options] --set=VAR | --set VAR ...; search.fs_uuid ARG VAR: VAR names another device. */
static int run_search(struct reader *r, const struct words *w, bool unsure, const char **reason)
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
	if (vars_set(r->vars, var, device, unsure || any_unknown(w, 1, w->n)) < 0)
		return refuse(reason, "a variable name or value too long, or too many variables");
	return 0;
}

static int run_menuentry(struct reader *r, const struct words *w, bool submenu, bool unsure,
			 const char **reason)
{
	const char *id = NULL;
	struct grub_entry *e;

	if (!is_brace(w, w->n - 1, "{") || w->n < 3)
		return refuse(reason, "a menuentry or submenu without a title and '{'");
	if (r->depth == MAX_DEPTH || r->entry)
		return refuse(reason, "menu entries nested too deep");
	for (size_t i = 2; i + 2 < w->n; i++)
		if (is_word(w, i, "--id"))
			id = w->word[i + 1];
	if (submenu) {
		if (r->depth > 0)
			return refuse(reason, "a submenu inside another: not followed");
		snprintf(r->submenu_title, sizeof(r->submenu_title), "%s", w->word[1]);
		snprintf(r->submenu_id, sizeof(r->submenu_id), "%s", id ? id : w->word[1]);
		r->stack[r->depth++] = FRAME_SUBMENU;
		r->sub = 0;
		return 0;
	}
	if (r->out->n_entries == GRUB_CFG_MAX_ENTRIES)
		return refuse(reason, "more menu entries than check reads");
	e = &r->out->entries[r->out->n_entries++];
	memset(e, 0, sizeof(*e));
	e->in_submenu = r->depth > 0;
	e->top = r->top;
	e->sub = r->sub;
	/* GRUB's own id is --id, else the title; in a submenu `default` takes "SUB>ENTRY" */
	snprintf(e->title, sizeof(e->title), "%s%s%s", e->in_submenu ? r->submenu_title : "",
		 e->in_submenu ? ">" : "", w->word[1]);
	snprintf(e->id, sizeof(e->id), "%s%s%s", e->in_submenu ? r->submenu_id : "",
		 e->in_submenu ? ">" : "", id ? id : w->word[1]);
	e->unevaluated = unsure || any_unknown(w, 1, w->n);
	if (e->unevaluated)
		note(r, "menu entry under a condition not evaluated: ", w->word[1]);
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
	case FRAME_SKIP:
		break;
	}
	return 0;
}

/* NAME=VALUE or set NAME=VALUE. */
static int run_assignment(struct reader *r, const char *word, bool unknown, bool unsure,
			  const char **reason)
{
	const char *eq = strchr(word, '=');
	char name[32];

	if (!eq || eq == word || (size_t)(eq - word) >= sizeof(name))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - word), word);
	if (strcmp(name, "default") == 0 && !r->entry) {
		r->out->default_unknown = unsure || unknown;
		snprintf(r->out->default_entry, sizeof(r->out->default_entry), "%s", eq + 1);
		if (r->out->default_unknown)
			note(r, "default not evaluated: ", word);
	}
	if (vars_set(r->vars, name, eq + 1, unsure || unknown) < 0)
		return refuse(reason, "a variable name or value too long, or too many variables");
	return 0;
}

/* load_env [-f FILE]: grubenv's variables, by default $prefix/grubenv; unread, any may be set. */
static int run_load_env(struct reader *r, const struct words *w, bool unsure, const char **reason)
{
	struct grub_vars *env = calloc(1, sizeof(*env));
	char file[GRUB_CFG_MAX_TEXT + 16];
	struct grub_path path;
	bool u = false;
	const char *prefix = var_value(r->vars, "prefix", 6, &u);

	if (!env)
		return refuse(reason, "out of memory");
	snprintf(file, sizeof(file), "%s/grubenv", prefix ? prefix : "");
	if (is_word(w, 1, "-f") && w->n > 2)
		snprintf(file, sizeof(file), "%s", w->word[2]);
	else if (strncmp(w->n > 1 ? w->word[1] : "", "--file=", 7) == 0)
		snprintf(file, sizeof(file), "%s", w->word[1] + 7);
	grub_cfg_path(r->vars, file, &path);
	if (u || !r->files || !r->files->load_env ||
	    r->files->load_env(r->files->ctx, &path, env) <= 0) {
		r->vars->env_unknown = true;
		note(r, "load_env not read: ", file);
	} else {
		for (size_t i = 0; i < env->n; i++)
			vars_set(r->vars, env->var[i].name, env->var[i].value, unsure);
		r->vars->env_unknown |= unsure;
	}
	free(env);
	return 0;
}

static bool in_skip(const struct reader *r)
{
	for (size_t i = 0; i < r->depth; i++)
		if (r->stack[i] == FRAME_SKIP)
			return true;
	return false;
}

static int run_words(struct reader *r, struct words *w, const char **reason)
{
	const char *cmd = w->word[0];
	bool unsure, is_active;
	int c;

	if (is_brace(w, 0, "}"))
		return run_close(r, reason);
	if (in_skip(r)) {
		if (is_brace(w, w->n - 1, "{")) {
			if (r->depth == MAX_DEPTH)
				return refuse(reason, "blocks nested too deep");
			r->stack[r->depth++] = FRAME_SKIP;
		}
		return 0;
	}
	/* then, else and do start the branch; a command may follow on the same line */
	if ((!strcmp(cmd, "then") || !strcmp(cmd, "do") || !strcmp(cmd, "else")) && w->n > 1) {
		struct words *rest = malloc(sizeof(*rest));
		int ret;

		if (!strcmp(cmd, "else") && run_conditional(r, w, reason) < 0) {
			free(rest);
			return -1;
		}
		if (!rest)
			return refuse(reason, "out of memory");
		rest->n = w->n - 1;
		memcpy(rest->word, w->word + 1, rest->n * sizeof(w->word[0]));
		memcpy(rest->bare, w->bare + 1, rest->n * sizeof(w->bare[0]));
		memcpy(rest->unknown, w->unknown + 1, rest->n * sizeof(w->unknown[0]));
		ret = run_words(r, rest, reason);
		free(rest);
		return ret;
	}
	if (!strcmp(cmd, "then") || !strcmp(cmd, "do"))
		return 0;
	c = run_conditional(r, w, reason);
	if (c)
		return c < 0 ? -1 : 0;
	is_active = active(r, &unsure);
	if (is_brace(w, w->n - 1, "{") && (!is_active || !strcmp(cmd, "function"))) {
		if (r->depth == MAX_DEPTH)
			return refuse(reason, "blocks nested too deep");
		r->stack[r->depth++] = FRAME_SKIP; /* a function's body runs only when called */
		return 0;
	}
	if (!is_active)
		return 0;
	if (strcmp(cmd, "menuentry") == 0 || strcmp(cmd, "submenu") == 0)
		return run_menuentry(r, w, strcmp(cmd, "submenu") == 0, unsure, reason);
	if (strcmp(cmd, "set") == 0 && w->n == 2)
		return run_assignment(r, w->word[1], w->unknown[1], unsure, reason);
	if (w->n == 1 && strchr(cmd, '=') && is_name_char(cmd[0], true))
		return run_assignment(r, cmd, w->unknown[0], unsure, reason);
	if (strcmp(cmd, "search") == 0 || strncmp(cmd, "search.", 7) == 0)
		return run_search(r, w, unsure, reason);
	if (strcmp(cmd, "load_env") == 0)
		return run_load_env(r, w, unsure, reason);
	if (r->entry && w->n >= 2 &&
	    (strcmp(cmd, "linux") == 0 || strcmp(cmd, "linuxefi") == 0 ||
	     strcmp(cmd, "chainloader") == 0) &&
	    !r->entry->has_image) {
		r->entry->has_image = true;
		r->entry->chainloader = strcmp(cmd, "chainloader") == 0;
		if (unsure || w->unknown[1]) {
			r->entry->unevaluated = true;
			note(r, "image not evaluated: ", w->word[1]);
		}
		grub_cfg_path(r->vars, w->word[1], &r->entry->image);
		return 0;
	}
	if (!r->entry && r->depth == 0 && (unsure || any_unknown(w, 1, w->n)) &&
	    (strcmp(cmd, "configfile") == 0 || strcmp(cmd, "blscfg") == 0)) {
		note(r, "not evaluated, not followed: ", cmd);
		return 0;
	}
	if (strcmp(cmd, "configfile") == 0 && w->n == 2 && !r->entry && r->depth == 0) {
		r->out->has_configfile = true;
		grub_cfg_path(r->vars, w->word[1], &r->out->configfile);
		r->done = true;
	}
	if (strcmp(cmd, "blscfg") == 0 && !r->entry && r->depth == 0 && !r->out->has_blscfg) {
		bool u;
		const char *dev = var_value(r->vars, "boot", 4, &u);
		char dir[GRUB_CFG_MAX_TEXT + 32];

		/* Fedora's blscfg: $blsdir on $boot (else $root), else /boot/loader/entries */
		snprintf(dir, sizeof(dir), "%s%s%s%s", dev ? "(" : "", dev ? dev : "",
			 dev ? ")" : "", "/loader/entries");
		grub_cfg_path(r->vars, dir, &r->out->blscfg_dir);
		snprintf(dir, sizeof(dir), "%s%s%s%s", dev ? "(" : "", dev ? dev : "",
			 dev ? ")" : "", "/boot/loader/entries");
		grub_cfg_path(r->vars, dir, &r->out->blscfg_boot_dir);
		r->out->has_blscfg = true;
		r->out->blscfg_at = r->out->n_entries;
	}
	return 0;
}

/* One command; a line GRUB cannot run is said and skipped, as its parser goes on. */
static int run_command(struct reader *r, struct words *w, const char **reason)
{
	const char *why = NULL;

	if (run_words(r, w, &why) == 0)
		return 0;
	if (strcmp(why, "out of memory") == 0)
		return refuse(reason, why);
	note(r, why, ": skipped");
	/* its block is skipped with it */
	if (is_brace(w, w->n - 1, "{") && r->depth < MAX_DEPTH)
		r->stack[r->depth++] = FRAME_SKIP;
	return 0;
}

int grub_cfg_parse(const char *text, size_t size, struct grub_vars *vars,
		   const struct grub_cfg_files *files, struct grub_cfg *out, const char **reason)
{
	struct reader r = { .vars = vars, .files = files, .out = out };
	char *line = malloc(MAX_LINE);
	size_t at = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!line)
		return refuse(reason, "out of memory");
	if (size > GRUB_CFG_MAX_SIZE)
		ret = refuse(reason, "larger than any grub.cfg");
	else if (memchr(text, '\0', size))
		ret = refuse(reason, "a NUL byte: not a text file");
	while (ret == 0 && at < size && !r.done) {
		const char *nl = memchr(text + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (text + at)) : size - at, n = 0;
		const char *why = NULL;

		r.line++;
		/* grub_file_getline drops every '\r' */
		for (size_t i = 0; i < len && n < MAX_LINE; i++)
			if (text[at + i] != '\r')
				line[n++] = text[at + i];
		at += len + 1;
		if (n == MAX_LINE) {
			note(&r, "a line longer than check reads", ": skipped");
			continue;
		}
		if (split_line(&r, line, n, run_command, &why) < 0) {
			if (strcmp(why, "out of memory") == 0)
				ret = refuse(reason, why);
			else
				note(&r, why, ": the rest of the line skipped");
		}
	}
	if (ret == 0 && !r.done && r.depth)
		note(&r, "a '{' without its '}'", "");
	free(line);
	return ret;
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
