/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The JSON the CLI prints (verify, check, status and pcr --predict with
 * --json): one document on stdout, its contract in docs/json.md and
 * docs/lockshim.schema.json. Every document starts with the fields of
 * json_print_header; a verdict is always the fields of json_print_verdict;
 * with --json, an exit 2 prints the error object instead (json_output_*).
 */
#ifndef LOCKSHIM_JSON_H
#define LOCKSHIM_JSON_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The contract's version, "schema" in every document: the same while
 * fields are only added, one more when one is removed, renamed or changes
 * its type or meaning (docs/json.md).
 */
#define JSON_SCHEMA_VERSION 1

/*
 * @s (NULL: empty) as a JSON string on stdout: '"' and '\' escaped, every
 * byte that is not printable ASCII as \u00XX, so any input stays one valid
 * value on one line.
 */
void json_print_string(const char *s);

/* The text of @size bytes at @data (up to a NUL) as json_print_string writes it. */
void json_print_counted(const void *data, size_t size);

/* @s as json_print_string does, but null for NULL or "" (no list, no entry). */
void json_print_string_or_null(const char *s);

/* "KEY": before a value, after @comma (", ") when it is not the first field. */
void json_print_key(const char *key, bool comma);

/* A document's first fields, "schema" and "lockshim_version" (no comma before). */
void json_print_header(void);

/*
 * A verdict's five fields, each after ", ": "verdict" (@word: allowed,
 * refused, unverified), "reason" (@reason, a verdict_reason_name), "list"
 * and "entry" (null when NULL or empty) and "message" (null when NULL: a
 * boot record keeps none).
 */
void json_print_verdict(const char *word, const char *reason, const char *list, const char *entry,
			const char *message);

/*
 * With --json among the options of @argv's verify, check, status or pcr
 * (those that have it), what the subcommand prints is held
 * until json_output_end: an exit 2 (EXIT_USAGE) then prints the error
 * object {"schema", "error": {"code", "message"}} alone on stdout, never a
 * document cut short; the human message stays on stderr.
 */
void json_output_begin(int argc, char **argv);

/* say_error's message: the first one is the error object's "message". */
void json_error_said(const char *message);

/* The arguments, not a file, are what is wrong: "code" "usage" (else "input"). */
void json_error_usage(void);

/* What the subcommand printed, or the error object when @r is 2; returns @r. */
int json_output_end(int r);

#endif
