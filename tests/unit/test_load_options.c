// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "load_options.h"
#include "unit.h"

#include <stdlib.h>

/* ASCII to a freshly allocated UCS-2 buffer (sanitizers see its exact size). */
static uint16_t *ucs2(const char *s, size_t *bytes, int terminate)
{
	size_t n = strlen(s) + (terminate ? 1 : 0);
	uint16_t *out = malloc(n * 2 + 2);

	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)s[i];
	*bytes = n * 2;
	return out;
}

/*
 * @len UCS-2 characters at @s as a C string, to compare and print: printable
 * ASCII as is, anything else as \uXXXX, so it cannot pass for the plain ASCII
 * expected; NULL stays NULL. Valid until the next call.
 */
static const char *text(const uint16_t *s, size_t len)
{
	static char out[LOAD_OPTIONS_MAX_CHARS * 6 + 1];
	size_t n = 0;

	if (!s)
		return NULL;
	for (size_t i = 0; i < len && n + 7 <= sizeof(out); i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f)
			out[n++] = (char)s[i];
		else
			n += (size_t)sprintf(out + n, "\\u%04x", s[i]);
	}
	out[n] = '\0';
	return out;
}

#define KERNEL_PATH(o) text((o).kernel_path, (o).kernel_path_len)
#define CMDLINE(o)     text((o).cmdline, (o).cmdline_len)
#define INITRD_PATH(o) text((o).initrd_path, (o).initrd_path_len)

int main(void)
{
	struct load_options o;
	const char *reason = NULL;
	size_t bytes;
	uint16_t *s;

	CHECK_EQ(load_options_parse(NULL, 0, &o, &reason), 0, "no load options: parsed");
	CHECK_STREQ(KERNEL_PATH(o), NULL, "no load options: no kernel path");
	CHECK_STREQ(CMDLINE(o), NULL, "no load options: no command line");

	s = ucs2("vmlinuz-6.1.efi console=ttyS0 quiet", &bytes, 1);
	CHECK_EQ(load_options_parse(s, bytes, &o, &reason), 0,
		 "kernel path and command line: parsed");
	CHECK_STREQ(KERNEL_PATH(o), "vmlinuz-6.1.efi", "kernel path");
	CHECK_STREQ(CMDLINE(o), "console=ttyS0 quiet", "command line");
	free(s);

	s = ucs2("  \\boot\\Linux.EFI  ", &bytes, 0);
	CHECK_EQ(load_options_parse(s, bytes, &o, &reason), 0,
		 "absolute path, upper-case suffix, no terminator: parsed");
	CHECK_STREQ(KERNEL_PATH(o), "\\boot\\Linux.EFI",
		    "absolute path, upper-case suffix, no terminator, blanks trimmed");
	CHECK_STREQ(CMDLINE(o), NULL, "path alone: no command line");
	free(s);

	s = ucs2("linux.efi quiet initrd=\\boot\\a.img initrd=b.img", &bytes, 1);
	CHECK_EQ(load_options_parse(s, bytes, &o, &reason), 0, "two initrd= arguments: parsed");
	CHECK_STREQ(INITRD_PATH(o), "\\boot\\a.img", "first initrd= names the initrd");
	CHECK_STREQ(CMDLINE(o), "quiet initrd=\\boot\\a.img initrd=b.img",
		    "the command line keeps the initrd= arguments");
	free(s);

	s = ucs2("quiet initrd= ro", &bytes, 1);
	CHECK_EQ(load_options_parse(s, bytes, &o, &reason), -1, "empty initrd= refused");
	free(s);

	s = ucs2("root=/dev/vda1 ro", &bytes, 1);
	CHECK_EQ(load_options_parse(s, bytes, &o, &reason), 0, "command line only: parsed");
	CHECK_STREQ(KERNEL_PATH(o), NULL, "command line only: no kernel path");
	CHECK_STREQ(CMDLINE(o), "root=/dev/vda1 ro", "command line only");
	CHECK_STREQ(INITRD_PATH(o), NULL, "command line only: no initrd");
	free(s);

	s = ucs2("abc", &bytes, 1);
	s[1] = 0x01;
	reason = NULL;
	if (CHECK_EQ(load_options_parse(s, bytes, &o, &reason), -1, "control characters refused"))
		CHECK(reason != NULL, "control characters refused, with a reason");
	free(s);

	s = ucs2("abcd", &bytes, 0);
	CHECK_EQ(load_options_parse(s, bytes - 1, &o, &reason), -1, "odd byte count refused");
	s[2] = 0xd800;
	CHECK_EQ(load_options_parse(s, bytes, &o, &reason), -1, "lone surrogate refused");
	free(s);

	{
		size_t n = LOAD_OPTIONS_MAX_CHARS + 1;
		uint16_t *big = malloc(n * 2);

		for (size_t i = 0; i < n; i++)
			big[i] = 'a';
		CHECK_EQ(load_options_parse(big, n * 2, &o, &reason), -1,
			 "over-long options refused");
		free(big);
	}
	{
		char path[LOAD_OPTIONS_MAX_PATH + 10];

		memset(path, 'a', sizeof(path));
		memcpy(path + sizeof(path) - 5, ".efi", 5);
		s = ucs2(path, &bytes, 1);
		CHECK_EQ(load_options_parse(s, bytes, &o, &reason), -1,
			 "over-long kernel path refused");
		free(s);
	}
	UNIT_EXIT();
}
