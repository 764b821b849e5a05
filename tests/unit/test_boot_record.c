// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_record.h"
#include "unit.h"

#include <stdlib.h>

static struct boot_record record;
static char out[BOOT_RECORD_SIZE];

/* @text (a C string) as the variable's data, parsed; the reason when refused. */
static int parse(const char *text, struct boot_record_view *view, const char **reason)
{
	static struct reason_buf buf;
	size_t size = strlen(text);
	uint8_t *copy = malloc(size ? size : 1); /* its exact size: ASan sees a read past it */
	int r;

	memcpy(copy, text, size);
	*reason = NULL;
	r = boot_record_parse(copy, size, view, reason, &buf);
	/* the view points into the data: keep what the checks read */
	if (r == 0) {
		static char kept[BOOT_RECORD_SIZE + 1];

		memcpy(kept, text, size + 1);
		view->lines = kept + (view->lines - (const char *)copy);
		if (view->started)
			view->started = kept + (view->started - (const char *)copy);
		if (view->secure_boot)
			view->secure_boot = kept + (view->secure_boot - (const char *)copy);
		if (view->lockdown)
			view->lockdown = kept + (view->lockdown - (const char *)copy);
	}
	free(copy);
	return r;
}

static void test_fields(void)
{
	static struct record_fields f;
	char line[VERDICT_RECORD_SIZE] = "";
	const char *reason;

	record_add_field(line, sizeof(line), "next-stage", "\\EFI\\BOOT\\vmlinuz.efi");
	record_add_field(line, sizeof(line), "entry", "/CN=Debian \"Secure\" Boot\n");
	record_add_field(line, sizeof(line), "empty", "");
	CHECK_STREQ(line,
		    "next-stage=\\EFI\\BOOT\\vmlinuz.efi entry=\"/CN=Debian \\\"Secure\\\" Boot\\x0a\" "
		    "empty=\"\"",
		    "fields: quoted only when they must be");
	CHECK_EQ(record_parse(line, strlen(line), &f, &reason), 0, "fields: read back");
	CHECK_EQ(f.n, 3, "fields: three");
	CHECK_STREQ(record_value(&f, "next-stage"), "\\EFI\\BOOT\\vmlinuz.efi",
		    "fields: a path with '\\' unquoted");
	CHECK_STREQ(record_value(&f, "entry"), "/CN=Debian \"Secure\" Boot\n",
		    "fields: a quoted value unescaped");
	CHECK_STREQ(record_value(&f, "empty"), "", "fields: an empty value");
	CHECK(!record_value(&f, "list"), "fields: an absent key");

	/* each: the line, the reason it is refused */
	static const char *const bad[][2] = {
		{ "", "an empty line" },
		{ "a", "not KEY=VALUE" },
		{ "=b", "not KEY=VALUE" },
		{ "a=", "a field without a value" },
		{ "a=b  c=d", "not KEY=VALUE" },
		{ "a=b ", "fields not separated by one space" },
		{ "a=\"b", "a quoted value without its closing quote" },
		{ "a=\"b\"c", "fields not separated by one space" },
		{ "a=\"\\x00\"", "a NUL byte in a value" },
		{ "a=\"\\q\"", "a '\\' that is not \\\", \\\\ or \\xHH" },
		{ "a=\"\\x4\"", "a '\\' that is not \\\", \\\\ or \\xHH" },
		{ "a=\"\\x4A\"", "a '\\' that is not \\\", \\\\ or \\xHH" },
		{ "a=b a=c", "a key given twice" },
		{ "a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9", "too many fields" },
		{ "a=\x7f", "a byte that is not printable ASCII" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *line = bad[i][0];

		reason = NULL;
		CHECK_EQ(record_parse(line, strlen(line), &f, &reason), -1,
			 unit_name("fields: '%s' refused", line));
		CHECK_STREQ(reason, bad[i][1], unit_name("fields: '%s': the reason", line));
	}
}

static void test_serialize(void)
{
	struct boot_record_view view;
	const char *reason;
	size_t n;

	boot_record_init(&record, "1.2-3-gabc");
	boot_record_add(&record, BOOT_RECORD_STATE, "memory-attributes=absent");
	boot_record_add(&record, BOOT_RECORD_STATE, "lockdown=locked reason=secure-boot");
	boot_record_add(&record, BOOT_RECORD_STATE, "next-stage=\\EFI\\BOOT\\vmlinuz.efi");
	boot_record_add(&record, BOOT_RECORD_STATE,
			"verdict=allowed image=\\EFI\\BOOT\\vmlinuz.efi reason=allowed-cert list=vendor");
	n = boot_record_serialize(&record, out, sizeof(out));
	out[n] = '\0';
	CHECK_STREQ(out,
		    "boot-record=1 lockshim=1.2-3-gabc dropped=0\n"
		    "memory-attributes=absent\n"
		    "lockdown=locked reason=secure-boot\n"
		    "next-stage=\\EFI\\BOOT\\vmlinuz.efi\n"
		    "verdict=allowed image=\\EFI\\BOOT\\vmlinuz.efi reason=allowed-cert list=vendor\n",
		    "serialize: the header, then the lines in order");
	CHECK_EQ(boot_record_serialize(&record, out, 20), 0, "serialize: too small a buffer");
	if (!CHECK_EQ(parse(out, &view, &reason), 0, "parse: what serialize wrote"))
		printf("# %s\n", reason);
	CHECK_EQ(view.n, 4, "parse: four records");
	CHECK_EQ(view.dropped, 0, "parse: none dropped");
	CHECK_STREQ(view.version, "1.2-3-gabc", "parse: lockshim's version");
	CHECK(view.started && strncmp(view.started, "verdict=allowed image=", 22) == 0,
	      "parse: the verdict on the next stage is what was started");
	CHECK(view.lockdown && view.lockdown_len == strlen("lockdown=locked reason=secure-boot"),
	      "parse: the lockdown record");
	CHECK(!view.secure_boot, "parse: no secure-boot record");

	boot_record_init(&record, "with space\"\\");
	boot_record_add(&record, BOOT_RECORD_IMAGE, "x=\x01\n");
	n = boot_record_serialize(&record, out, sizeof(out));
	out[n] = '\0';
	CHECK_STREQ(out, "boot-record=1 lockshim=with?space?? dropped=0\nx=??\n",
		    "serialize: what is not printable becomes '?', the version is never quoted");
}

static void test_bounded(void)
{
	struct boot_record_view view;
	char line[VERDICT_RECORD_SIZE];
	const char *reason;
	size_t n;

	boot_record_init(&record, "v");
	boot_record_add(&record, BOOT_RECORD_STATE, "secure-boot=enforced SecureBoot=1 SetupMode=0");
	for (int i = 0; i < 200; i++) {
		snprintf(line, sizeof(line),
			 "verdict=allowed image=buffer:%d reason=allowed-cert list=MokList "
			 "entry=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			 i);
		boot_record_add(&record, BOOT_RECORD_IMAGE, line);
	}
	boot_record_add(&record, BOOT_RECORD_STATE, "lockdown=none reason=secure-boot-off");
	n = boot_record_serialize(&record, out, sizeof(out));
	CHECK_LE(n, BOOT_RECORD_SIZE, "bounded: never more than 4 KiB");
	CHECK_GT(n, BOOT_RECORD_SIZE - 400, "bounded: and nearly full");
	out[n] = '\0';
	CHECK_STRSTR(out, "\nsecure-boot=enforced SecureBoot=1 SetupMode=0\n",
		     "bounded: the state line kept");
	CHECK_STRSTR(out, "image=buffer:199 ", "bounded: the newest image record kept");
	CHECK(!strstr(out, "image=buffer:0 "), "bounded: the oldest image record gave way");
	CHECK_STRSTR(out, "\nlockdown=none reason=secure-boot-off\n",
		     "bounded: a state line added when full");
	CHECK_EQ(parse(out, &view, &reason), 0, "bounded: it parses");
	CHECK_EQ(view.dropped + view.n, 202, "bounded: every record kept or counted as dropped");
	CHECK_EQ(view.n, record.n, "bounded: the lines kept");

	/* only state lines: the oldest of them give way too */
	boot_record_init(&record, "v");
	memset(line, 'a', sizeof(line));
	line[0] = 'k', line[1] = '=';
	line[sizeof(line) - 1] = '\0';
	for (int i = 0; i < 10; i++)
		boot_record_add(&record, BOOT_RECORD_STATE, line);
	CHECK_EQ(record.n, 3, "bounded: three lines of 1023 bytes fit");
	CHECK_EQ(record.dropped, 7, "bounded: the others gave way");
	n = boot_record_serialize(&record, out, sizeof(out));
	CHECK_LE(n, BOOT_RECORD_SIZE, "bounded: still 4 KiB at most");

	/* short lines: the count gives way before the room does */
	boot_record_init(&record, "v");
	for (int i = 0; i < 400; i++) {
		snprintf(line, sizeof(line), "k=%d", i);
		boot_record_add(&record, i % 2 ? BOOT_RECORD_IMAGE : BOOT_RECORD_STATE, line);
	}
	CHECK_EQ(record.n, BOOT_RECORD_LINES_MAX, "bounded: 256 short lines at most");
	CHECK_EQ(record.dropped, 400 - BOOT_RECORD_LINES_MAX, "bounded: the others counted");
	n = boot_record_serialize(&record, out, sizeof(out));
	out[n] = '\0';
	CHECK_STRSTR(out, "\nk=399\n", "bounded: the newest short line kept");
	CHECK_STRSTR(out, "\nk=0\n", "bounded: the oldest state line kept");
	CHECK(!strstr(out, "\nk=1\n"), "bounded: the oldest image line gave way");
	CHECK_EQ(parse(out, &view, &reason), 0, "bounded: 256 lines parse");
	CHECK_EQ(view.n, BOOT_RECORD_LINES_MAX, "bounded: all 256 read back");
}

static void test_parse_refused(void)
{
	static const char header[] = "boot-record=1 lockshim=v dropped=0\n";
	static const struct {
		const char *body, *why;
	} bad[] = {
		{ "", NULL },
		{ "lockdown=locked reason=secure-boot", "the last line has no newline: truncated" },
		{ "lockdown=maybe reason=x\n",
		  "line 2: a lockdown record is not lockdown=locked|none reason=NAME" },
		{ "verdict=allowed image=x\n", "line 2: a verdict record without image and reason" },
		{ "verdict=maybe image=x reason=y\n",
		  "line 2: a verdict other than allowed, refused or unverified" },
		{ "verdict=allowed reason=y image=x\n",
		  "line 2: a verdict record's fields are not verdict image reason [list] [entry]" },
		{ "verdict=allowed image=x reason=y other=z\n",
		  "line 2: a verdict record's fields are not verdict image reason [list] [entry]" },
		{ "verdict=allowed image=x reason=Y_\n",
		  "line 2: a verdict record's reason is not a reason name" },
		{ "next-stage=a\nverdict=allowed image=b reason=c\n",
		  "line 3: not the verdict on the next stage of line 2" },
		{ "next-stage=a\n", "line 2: a next-stage record without its verdict" },
		{ "a=b\n\n", "line 3: an empty line" },
		{ "a=\xc3\xa9\n", "line 2: a byte that is not printable ASCII" },
		{ "a=b\r\n", "line 2: a byte that is not printable ASCII" },
		{ "boot-record=1 lockshim=v dropped=0\n", "line 2: a second header" },
	};
	struct boot_record_view view;
	char text[256];
	const char *reason;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", header, bad[i].body);
		if (!bad[i].why) {
			CHECK_EQ(parse(text, &view, &reason), 0, "parse: a header alone is a record");
			CHECK_EQ(view.n, 0, "parse: of no records");
			continue;
		}
		CHECK_EQ(parse(text, &view, &reason), -1,
			 unit_name("parse: refused: %s", bad[i].why));
		CHECK_STREQ(reason, bad[i].why, unit_name("parse: the reason: %s", bad[i].why));
	}

	static const struct {
		const char *text, *why;
	} bad_header[] = {
		{ "", "empty" },
		{ "lockdown=none reason=secure-boot-off\n",
		  "line 1 is not the header boot-record=1 ..." },
		{ "boot-record=2 lockshim=v dropped=0\n",
		  "line 1: a boot-record version other than 1" },
		{ "boot-record=1 lockshim=v\n",
		  "line 1: the header is not boot-record=1 lockshim=V dropped=N" },
		{ "boot-record=1 lockshim=v dropped=-1\n",
		  "line 1: the header is not boot-record=1 lockshim=V dropped=N" },
		{ "boot-record=1 lockshim=v dropped=0", "the last line has no newline: truncated" },
	};
	for (size_t i = 0; i < sizeof(bad_header) / sizeof(bad_header[0]); i++) {
		CHECK_EQ(parse(bad_header[i].text, &view, &reason), -1,
			 unit_name("parse: header refused: %s", bad_header[i].why));
		CHECK_STREQ(reason, bad_header[i].why,
			    unit_name("parse: header: the reason: %s", bad_header[i].why));
	}

	{
		static uint8_t big[BOOT_RECORD_SIZE + 1];
		static struct reason_buf buf;

		memset(big, '\n', sizeof(big));
		CHECK_EQ(boot_record_parse(big, sizeof(big), &view, &reason, &buf), -1,
			 "parse: more than 4 KiB refused");
		CHECK_STREQ(reason, "4097 bytes, more than the 4096 lockshim writes",
			    "parse: the reason says the size");
	}
}

int main(void)
{
	test_fields();
	test_serialize();
	test_bounded();
	test_parse_refused();
	UNIT_EXIT();
}
