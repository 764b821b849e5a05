// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_log.h"

#include <efilib.h>

static void log_line(const CHAR16 *fmt, va_list args)
{
	Print(L"%s: ", log_prefix);
	VPrint(fmt, args);
	Print(L"\n");
}

void log_info(const CHAR16 *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	log_line(fmt, args);
	va_end(args);
}

EFI_STATUS log_error(EFI_STATUS status, const CHAR16 *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	log_line(fmt, args);
	va_end(args);
	return status;
}
