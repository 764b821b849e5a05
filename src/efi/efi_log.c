// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_log.h"

#include <efilib.h>
#include <libc/libc-efi.h>
#include <stdio.h>

/* A line longer than this is cut. */
#define LOG_LINE_MAX 512

/* Whether @fmt places the status itself (%m). */
static BOOLEAN has_status_conversion(const char *fmt)
{
	for (; *fmt; fmt++) {
		if (*fmt != '%')
			continue;
		if (*++fmt == 'm')
			return TRUE;
		if (!*fmt)
			break;
	}
	return FALSE;
}

/* @text (UTF-8, as %ls writes it) as CHAR16 into @out; other bytes one by one. */
static void to_char16(const char *text, CHAR16 *out, UINTN n)
{
	const unsigned char *s = (const unsigned char *)text;
	UINTN i = 0;

	while (*s && i + 1 < n) {
		if (s[0] >= 0xe0 && s[0] < 0xf0 && (s[1] & 0xc0) == 0x80 && (s[2] & 0xc0) == 0x80) {
			out[i++] =
				(CHAR16)((s[0] & 0x0f) << 12 | (s[1] & 0x3f) << 6 | (s[2] & 0x3f));
			s += 3;
		} else if (s[0] >= 0xc2 && s[0] < 0xe0 && (s[1] & 0xc0) == 0x80) {
			out[i++] = (CHAR16)((s[0] & 0x1f) << 6 | (s[1] & 0x3f));
			s += 2;
		} else {
			out[i++] = *s++;
		}
	}
	out[i] = 0;
}

static void log_vline(enum log_level level, const char *status, const char *fmt, va_list args)
{
	static const UINTN attributes[] = {
		[LOG_ERROR] = EFI_LIGHTRED | EFI_BACKGROUND_BLACK,
		[LOG_WARNING] = EFI_YELLOW | EFI_BACKGROUND_BLACK,
	};
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = ST->ConOut;
	char text[LOG_LINE_MAX];
	CHAR16 line[LOG_LINE_MAX];
	UINTN saved = (UINTN)out->Mode->Attribute;
	BOOLEAN colored = level != LOG_INFO;
	int n;

	n = lockshim_vsnprintf(text, sizeof(text), status, fmt, args);
	if (status && !has_status_conversion(fmt) && n >= 0 && (size_t)n < sizeof(text))
		snprintf(text + n, sizeof(text) - (size_t)n, ": %s", status);
	to_char16(text, line, sizeof(line) / sizeof(line[0]));

	if (colored)
		uefi_call_wrapper(out->SetAttribute, 2, out, attributes[level]);
	Print(L"%s: %s", log_prefix, line);
	if (colored)
		uefi_call_wrapper(out->SetAttribute, 2, out, saved);
	Print(L"\n");
}

void log_line(enum log_level level, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	log_vline(level, NULL, fmt, args);
	va_end(args);
}

EFI_STATUS log_status(enum log_level level, EFI_STATUS status, const char *fmt, ...)
{
	CHAR16 wide[64];
	char text[64];
	va_list args;
	UINTN i;

	/* gnu-efi's words for it, as Print's %r wrote them. */
	StatusToString(wide, status);
	for (i = 0; wide[i] && i + 1 < sizeof(text); i++)
		text[i] = wide[i] < 0x80 ? (char)wide[i] : '?';
	text[i] = '\0';

	va_start(args, fmt);
	log_vline(level, text, fmt, args);
	va_end(args);
	return status;
}
