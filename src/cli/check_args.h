/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What `lockshim check` was asked, parsed by getopt_long (cli_args.h) apart
 * from check.c, whose own struct option is a boot option.
 */
#ifndef LOCKSHIM_CHECK_ARGS_H
#define LOCKSHIM_CHECK_ARGS_H

#include <stdbool.h>

#include "what_if.h"

/* check's usage, after "usage: lockshim " (also in `lockshim --help`). */
extern const char check_usage[];

struct check_args {
	const char *efivars, *mokvars, *esp, *boot, *xbootldr;
	struct what_if what_if;
	const char *event_log, *pcrlock; /* PCR prediction: this boot's log; where to write */
	char esp_partuuid[64]; /* live: the ESP's partition GUID (LoaderDevicePartUUID); or empty */
	bool json, quiet;
	bool offline; /* --efivars given: no live defaults for the others */
};

/*
 * @argv into @a, and with -q stdout silenced (cli_quiet). Returns 0 to go
 * on, 1 when --help printed the usage, -1 when an argument cannot be used
 * (said, with the usage).
 */
int check_args_parse(int argc, char **argv, struct check_args *a);

#endif
