/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The console log of lockshim's firmware programs. Every line starts with
 * the program's name ("lockshim: ", "MOK manager: "), which each program
 * defines once as log_prefix. log_error() returns the status it is given,
 * so an error is logged and returned in one statement, as systemd-boot's
 * log_error_status() and the EFI stub's efi_err() are used:
 *
 *	if (EFI_ERROR(status))
 *		return log_error(status, L"cannot read %s: %r", path, status);
 *
 * Formats are gnu-efi's Print() formats (%s CHAR16 string, %a ASCII string,
 * %r EFI_STATUS); the newline is added. Prompts, menus and progress that
 * are not log lines still use Print().
 */
#ifndef LOCKSHIM_EFI_LOG_H
#define LOCKSHIM_EFI_LOG_H

#include <efi.h>

/* The program's name, without the colon: defined by each entry point. */
extern const CHAR16 log_prefix[];

/* What happens and what was decided. */
void log_info(const CHAR16 *fmt, ...);

/* Something failed or was refused; returns @status. */
EFI_STATUS log_error(EFI_STATUS status, const CHAR16 *fmt, ...);

#endif
