/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The JSON the CLI prints (verify --json, check --json): the one way to
 * write a string value.
 */
#ifndef LOCKSHIM_JSON_H
#define LOCKSHIM_JSON_H

#include <stdbool.h>

/*
 * @s (NULL: empty) as a JSON string on stdout: '"' and '\' escaped, every
 * byte that is not printable ASCII as \u00XX, so any input stays one valid
 * value on one line.
 */
void json_print_string(const char *s);

/* "KEY": before a value, after @comma (", ") when it is not the first field. */
void json_print_key(const char *key, bool comma);

#endif
