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

static int equals(const uint16_t *s, size_t len, const char *expect)
{
	if (strlen(expect) != len)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] != (unsigned char)expect[i])
			return 0;
	return 1;
}

int main(void)
{
	struct load_options o;
	const char *reason = NULL;
	size_t bytes;
	uint16_t *s;

	CHECK(load_options_parse(NULL, 0, &o, &reason) == 0 && !o.kernel_path && !o.cmdline,
	      "no load options: defaults");

	s = ucs2("vmlinuz-6.1.efi console=ttyS0 quiet", &bytes, 1);
	CHECK(load_options_parse(s, bytes, &o, &reason) == 0 &&
		      equals(o.kernel_path, o.kernel_path_len, "vmlinuz-6.1.efi") &&
		      equals(o.cmdline, o.cmdline_len, "console=ttyS0 quiet"),
	      "kernel path and command line");
	free(s);

	s = ucs2("  \\boot\\Linux.EFI  ", &bytes, 0);
	CHECK(load_options_parse(s, bytes, &o, &reason) == 0 &&
		      equals(o.kernel_path, o.kernel_path_len, "\\boot\\Linux.EFI") && !o.cmdline,
	      "absolute path, upper-case suffix, no terminator, blanks trimmed");
	free(s);

	s = ucs2("linux.efi quiet initrd=\\boot\\a.img initrd=b.img", &bytes, 1);
	CHECK(load_options_parse(s, bytes, &o, &reason) == 0 &&
		      equals(o.initrd_path, o.initrd_path_len, "\\boot\\a.img") &&
		      equals(o.cmdline, o.cmdline_len, "quiet initrd=\\boot\\a.img initrd=b.img"),
	      "first initrd= names the initrd; the command line keeps it");
	free(s);

	s = ucs2("quiet initrd= ro", &bytes, 1);
	CHECK(load_options_parse(s, bytes, &o, &reason) < 0, "empty initrd= refused");
	free(s);

	s = ucs2("root=/dev/vda1 ro", &bytes, 1);
	CHECK(load_options_parse(s, bytes, &o, &reason) == 0 && !o.kernel_path &&
		      equals(o.cmdline, o.cmdline_len, "root=/dev/vda1 ro") && !o.initrd_path,
	      "command line only, no initrd");
	free(s);

	s = ucs2("abc", &bytes, 1);
	s[1] = 0x01;
	CHECK(load_options_parse(s, bytes, &o, &reason) < 0 && reason, "control characters refused");
	free(s);

	s = ucs2("abcd", &bytes, 0);
	CHECK(load_options_parse(s, bytes - 1, &o, &reason) < 0, "odd byte count refused");
	s[2] = 0xd800;
	CHECK(load_options_parse(s, bytes, &o, &reason) < 0, "lone surrogate refused");
	free(s);

	{
		size_t n = LOAD_OPTIONS_MAX_CHARS + 1;
		uint16_t *big = malloc(n * 2);

		for (size_t i = 0; i < n; i++)
			big[i] = 'a';
		CHECK(load_options_parse(big, n * 2, &o, &reason) < 0, "over-long options refused");
		free(big);
	}
	{
		char path[LOAD_OPTIONS_MAX_PATH + 10];

		memset(path, 'a', sizeof(path));
		memcpy(path + sizeof(path) - 5, ".efi", 5);
		s = ucs2(path, &bytes, 1);
		CHECK(load_options_parse(s, bytes, &o, &reason) < 0, "over-long kernel path refused");
		free(s);
	}
	UNIT_EXIT();
}
