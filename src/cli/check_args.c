// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "check_args.h"

#include "cli_args.h"
#include "macro.h"

/* check's usage, after "usage: lockshim ": what --help prints, and completions/ reads */
const char check_usage[] =
	"check [--efivars DIR] [--mok-variables DIR] [--esp DIR] [--boot DIR]\n"
	"                [--xbootldr DIR]\n"
	"                [--dbx-update FILE] [--db-update FILE] [--kek-update FILE]\n"
	"                [--dbx-replace FILE] [--db-replace FILE] [--kek-replace FILE]\n"
	"                [--sbat-level FILE|windows|latest|automatic]\n"
	"                [--mok-import CERT]... [--mok-delete CERT]...\n"
	"                [--event-log LOG] [--pcrlock DIR] [--json | -q | --quiet]\n"
	"exit status: 0 the next boot reaches a kernel, 1 it will not boot,\n"
	"             3 check cannot tell (it starts an image check does not follow),\n"
	"             2 an argument or input cannot be used\n";

/* The getopt codes of check's options. */
enum {
	OPT_JSON = 0x100,
	OPT_EFIVARS,
	OPT_MOK_VARIABLES,
	OPT_ESP,
	OPT_BOOT,
	OPT_XBOOTLDR,
	OPT_KEK_UPDATE,
	OPT_KEK_REPLACE,
	OPT_DB_UPDATE,
	OPT_DB_REPLACE,
	OPT_DBX_UPDATE,
	OPT_DBX_REPLACE,
	OPT_SBAT_LEVEL,
	OPT_EVENT_LOG,
	OPT_PCRLOCK,
	OPT_MOK_IMPORT,
	OPT_MOK_DELETE,
};

static int take_check_arg(int code, const char *arg, void *ctx);

static const struct option check_options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "efivars", required_argument, NULL, OPT_EFIVARS },
	{ "mok-variables", required_argument, NULL, OPT_MOK_VARIABLES },
	{ "esp", required_argument, NULL, OPT_ESP },
	{ "boot", required_argument, NULL, OPT_BOOT },
	{ "xbootldr", required_argument, NULL, OPT_XBOOTLDR },
	{ "kek-update", required_argument, NULL, OPT_KEK_UPDATE },
	{ "kek-replace", required_argument, NULL, OPT_KEK_REPLACE },
	{ "db-update", required_argument, NULL, OPT_DB_UPDATE },
	{ "db-replace", required_argument, NULL, OPT_DB_REPLACE },
	{ "dbx-update", required_argument, NULL, OPT_DBX_UPDATE },
	{ "dbx-replace", required_argument, NULL, OPT_DBX_REPLACE },
	{ "sbat-level", required_argument, NULL, OPT_SBAT_LEVEL },
	{ "event-log", required_argument, NULL, OPT_EVENT_LOG },
	{ "pcrlock", required_argument, NULL, OPT_PCRLOCK },
	{ "mok-import", required_argument, NULL, OPT_MOK_IMPORT },
	{ "mok-delete", required_argument, NULL, OPT_MOK_DELETE },
	CLI_OPTION_QUIET,
	CLI_OPTION_HELP,
	{},
};

static const struct cli_command check_command = {
	"check", check_usage, check_options, "hq", take_check_arg,
};

/* The update an option's code names (--dbx-update, --db-replace...), its path unset; NULL: none. */
static const struct list_update *list_update_option(int code)
{
	static const struct {
		int code;
		struct list_update update;
	} options[] = {
		{ OPT_KEK_UPDATE, { VAR_KEK, false, NULL } },
		{ OPT_KEK_REPLACE, { VAR_KEK, true, NULL } },
		{ OPT_DB_UPDATE, { VAR_DB, false, NULL } },
		{ OPT_DB_REPLACE, { VAR_DB, true, NULL } },
		{ OPT_DBX_UPDATE, { VAR_DBX, false, NULL } },
		{ OPT_DBX_REPLACE, { VAR_DBX, true, NULL } },
	};

	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (code == options[i].code)
			return &options[i].update;
	return NULL;
}

static int take_check_arg(int code, const char *arg, void *ctx)
{
	struct check_args *a = ctx;
	struct what_if *w = &a->what_if;
	const struct list_update *update = list_update_option(code);
	const char **slot = NULL;

	switch (code) {
	case OPT_JSON:
		a->json = true;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_EFIVARS:
		slot = &a->efivars;
		break;
	case OPT_MOK_VARIABLES:
		slot = &a->mokvars;
		break;
	case OPT_ESP:
		slot = &a->esp;
		break;
	case OPT_BOOT:
		slot = &a->boot;
		break;
	case OPT_XBOOTLDR:
		slot = &a->xbootldr;
		break;
	case OPT_SBAT_LEVEL:
		slot = &w->sbat_level;
		break;
	case OPT_EVENT_LOG:
		slot = &a->event_log;
		break;
	case OPT_PCRLOCK:
		slot = &a->pcrlock;
		break;
	case OPT_MOK_IMPORT:
		if (w->n_import == WHAT_IF_MAX_MOK)
			return cli_usage_error(&check_command, "--mok-import: %d at most",
					       WHAT_IF_MAX_MOK);
		w->mok_import[w->n_import++] = arg;
		return 0;
	case OPT_MOK_DELETE:
		if (w->n_delete == WHAT_IF_MAX_MOK)
			return cli_usage_error(&check_command, "--mok-delete: %d at most",
					       WHAT_IF_MAX_MOK);
		w->mok_delete[w->n_delete++] = arg;
		return 0;
	case CLI_OPERAND:
		return cli_usage_error(&check_command, "'%s': check takes no operand", arg);
	default:
		if (!update)
			return cli_usage_error(&check_command, "option code %d unexpected", code);
		if (w->n_updates == WHAT_IF_MAX_UPDATES)
			return cli_usage_error(&check_command, "%d list updates at most",
					       WHAT_IF_MAX_UPDATES);
		w->updates[w->n_updates] = *update;
		w->updates[w->n_updates++].path = arg;
		return 0;
	}
	return cli_take_once(&check_command, code, slot, arg);
}

int check_args_parse(int argc, char **argv, struct check_args *a)
{
	enum cli_parsed parsed = cli_parse(&check_command, argc, argv, a);

	if (parsed == CLI_HELP_SHOWN)
		return 1;
	if (parsed != CLI_PARSED ||
	    (a->json && a->quiet && cli_usage_error(&check_command, "--json or -q, not both")) ||
	    (a->quiet && cli_quiet() < 0))
		return -1;
	a->offline = a->efivars != NULL;
	return 0;
}
