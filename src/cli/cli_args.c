// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "cli_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "file.h"
#include "json.h"

const char cli_list_file_note[] =
	"F: an EFI signature list, or a DER or PEM certificate\n"
	"LEVEL: a file of SbatLevel text, or windows (what Windows' servicing writes)\n";

void cli_print_usage(FILE *f, const char *usage)
{
	fprintf(f, "usage: %s %s", program_name, usage);
	if (strstr(usage, " F]") || strstr(usage, " LEVEL"))
		fputs(cli_list_file_note, f);
}

/* After what was wrong: this subcommand's usage alone, and where to read more. */
static void usage_hint(const struct cli_command *c)
{
	cli_print_usage(stderr, c->usage);
	fprintf(stderr, "Try '%s help %s'.\n", program_name, c->name);
}

int cli_usage_error(const struct cli_command *c, const char *fmt, ...)
{
	char message[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	json_error_usage();
	json_error_said(message);
	fprintf(stderr, "%s %s: %s\n", program_name, c->name, message);
	usage_hint(c);
	return CLI_USAGE_ERROR;
}

int cli_take_once(const struct cli_command *c, int code, const char **slot, const char *arg)
{
	const char *name = "?";

	if (!*slot) {
		*slot = arg;
		return 0;
	}
	if (code == CLI_OPERAND)
		return cli_usage_error(c, "extra operand '%s'", arg);
	for (const struct option *o = c->options; o->name; o++)
		if (o->val == code)
			name = o->name;
	return cli_usage_error(c, "--%s given twice ('%s', '%s')", name, *slot, arg);
}

enum cli_parsed cli_parse(const struct cli_command *c, int argc, char **argv, void *ctx)
{
	/* getopt names argv[0] in its errors: "lockshim check: unrecognized option '--bogus'" */
	static char name[64];
	char short_options[16];
	int code, r = 0;

	snprintf(name, sizeof(name), "%s %s", program_name, c->name);
	argv[0] = name;
	/* '-': operands come in their place among the options, as CLI_OPERAND */
	snprintf(short_options, sizeof(short_options), "-%s", c->short_options);
	optind = 0; /* glibc: begin afresh */
	opterr = 1;
	while (r == 0 && (code = getopt_long(argc, argv, short_options, c->options, NULL)) != -1) {
		if (code == 'h') {
			cli_print_usage(stdout, c->usage);
			return CLI_HELP_SHOWN;
		}
		if (code == '?') { /* getopt said what */
			json_error_usage();
			usage_hint(c);
			return CLI_STOP;
		}
		r = c->take(code, optarg, ctx);
	}
	/* after "--", operands only */
	for (int i = optind; r == 0 && i < argc; i++)
		r = c->take(CLI_OPERAND, argv[i], ctx);
	return r == 0 ? CLI_PARSED : CLI_STOP;
}

int cli_quiet(void)
{
	if (!freopen("/dev/null", "w", stdout)) {
		say_error("/dev/null: %s", strerror(errno));
		return -1;
	}
	return 0;
}
