/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * A subcommand's arguments as mokutil, bootctl and the GNU tools take
 * theirs: getopt_long, so --opt=value and --opt value alike, getopt's own
 * "unrecognized option" and "requires an argument" lines, and on any usage
 * error that subcommand's usage alone with a hint at `lockshim help SUB`
 * (exit 2). Each subcommand has one option table and one function that
 * takes its options and operands in the order given (`pcr`'s images are
 * in boot order among its --shim-lock ones).
 */
#ifndef LOCKSHIM_CLI_ARGS_H
#define LOCKSHIM_CLI_ARGS_H

#include <getopt.h>
#include <stdio.h>

/* In every table: --help and -h print the usage on stdout and succeed. */
#define CLI_OPTION_HELP                        \
	{                                      \
		"help", no_argument, NULL, 'h' \
	}
/* check's and verify's: nothing on stdout, the exit status answers (as grep -q). */
#define CLI_OPTION_QUIET                        \
	{                                       \
		"quiet", no_argument, NULL, 'q' \
	}

/* What take() is handed for an operand (an IMAGE, a FILE), in its place among the options. */
#define CLI_OPERAND 1

/* What take() returns besides 0. */
enum {
	CLI_USAGE_ERROR = -1, /* said why (cli_usage_error): print the usage and the hint */
	CLI_FAILED = -2,      /* said why (a file that cannot be used): no usage */
};

struct cli_command {
	const char *name;  /* "check" */
	const char *usage; /* after "usage: lockshim " */
	const struct option *options;
	const char *short_options; /* "hq"; at least "h" */
	/*
	 * One option (its code, its argument or NULL) or an operand
	 * (CLI_OPERAND, the word): 0, or CLI_USAGE_ERROR / CLI_FAILED.
	 */
	int (*take)(int code, const char *arg, void *ctx);
};

/* How cli_parse() ended. */
enum cli_parsed {
	CLI_PARSED,     /* go on */
	CLI_HELP_SHOWN, /* --help: exit 0 */
	CLI_STOP,       /* a usage error or an unusable file, said: exit 2 */
};

/* @argv (argv[0] is the subcommand's name) through @c's take(), with @ctx. */
enum cli_parsed cli_parse(const struct cli_command *c, int argc, char **argv, void *ctx);

/*
 * "lockshim SUB: " and @fmt's text on stderr (as getopt says its errors),
 * then @c's usage and the hint. Returns CLI_USAGE_ERROR.
 */
int cli_usage_error(const struct cli_command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * An option that takes its value once (or the one operand, CLI_OPERAND):
 * @arg into *@slot, or, when it is set already, a usage error naming both.
 */
int cli_take_once(const struct cli_command *c, int code, const char **slot, const char *arg);

/* What F and LEVEL stand for in a usage. */
extern const char cli_list_file_note[];

/* "usage: lockshim " and @usage on @f, then what F and LEVEL mean when it has them. */
void cli_print_usage(FILE *f, const char *usage);

/*
 * -q: stdout goes to /dev/null, so the subcommand runs its whole path and
 * its exit status is what it would have been (errors still on stderr).
 * Returns 0, or -1 having said why.
 */
int cli_quiet(void);

#endif
