// SPDX-License-Identifier: BSD-2-Clause-Patent
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define EXIT_USAGE 2

void json_print_string(const char *s)
{
	json_print_counted(s, s ? strlen(s) : 0);
}

void json_print_counted(const void *data, size_t size)
{
	const unsigned char *s = data;

	putchar('"');
	for (size_t i = 0; i < size && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

void json_print_string_or_null(const char *s)
{
	if (s && *s)
		json_print_string(s);
	else
		printf("null");
}

void json_print_key(const char *key, bool comma)
{
	if (comma)
		printf(", ");
	json_print_string(key);
	printf(": ");
}

void json_print_header(void)
{
	json_print_key("schema", false);
	printf("%d", JSON_SCHEMA_VERSION);
	json_print_key("lockshim_version", true);
	json_print_string(LOCKSHIM_VERSION);
}

void json_print_verdict(const char *word, const char *reason, const char *list, const char *entry,
			const char *message)
{
	json_print_key("verdict", true);
	json_print_string(word);
	json_print_key("reason", true);
	json_print_string(reason);
	json_print_key("list", true);
	json_print_string_or_null(list);
	json_print_key("entry", true);
	json_print_string_or_null(entry);
	json_print_key("message", true);
	if (message)
		json_print_string(message);
	else
		printf("null");
}

/* ---- exit 2 with --json ------------------------------------------------------------ */

static struct {
	FILE *real; /* the process's stdout while stdout is the buffer; NULL: not held */
	char *text; /* the buffer's bytes (open_memstream) */
	size_t size;
	char message[512]; /* the first error said */
	bool usage;
	const char *command;
} held;

void json_output_begin(int argc, char **argv)
{
	static const char *const with_json[] = { "verify", "check", "status", "pcr" };
	bool json = false;
	FILE *buffer;

	for (size_t i = 0; argc >= 2 && i < sizeof(with_json) / sizeof(with_json[0]); i++)
		json = json || strcmp(argv[1], with_json[i]) == 0;
	if (!json)
		return; /* hash, esl, add-sbat: an argument "--json" is a file's name */
	json = false;
	/* options come before "--"; after it, "--json" would be a file's name */
	for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
		json = json || strcmp(argv[i], "--json") == 0;
	if (!json)
		return;
	buffer = open_memstream(&held.text, &held.size);
	if (!buffer)
		return; /* printed as it comes: only an exit 2 loses its object */
	held.command = argv[1];
	held.real = stdout;
	/* glibc's stdout is a variable a program may set (the GNU C Library manual, 12.2) */
	stdout = buffer;
}

void json_error_said(const char *message)
{
	if (!held.message[0])
		snprintf(held.message, sizeof(held.message), "%s", message);
}

void json_error_usage(void)
{
	held.usage = true;
}

int json_output_end(int r)
{
	bool lost;

	if (!held.real)
		return r;
	lost = fflush(stdout) != 0 || ferror(stdout);
	fclose(stdout);
	stdout = held.real;
	held.real = NULL;
	if (lost && r != EXIT_USAGE) {
		json_error_said("out of memory for the output");
		r = EXIT_USAGE;
	}
	if (r == EXIT_USAGE) {
		char why[256];

		snprintf(why, sizeof(why), "unusable arguments: `lockshim help %s` says which",
			 held.command);
		printf("{");
		json_print_header();
		json_print_key("error", true);
		printf("{");
		json_print_key("code", false);
		json_print_string(held.usage ? "usage" : "input");
		json_print_key("message", true);
		json_print_string(held.message[0] ? held.message : why);
		printf("}}\n");
	} else {
		fwrite(held.text, 1, held.size, stdout);
	}
	free(held.text);
	held.text = NULL;
	return r;
}
