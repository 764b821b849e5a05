/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The console log of lockshim's firmware programs, as systemd-boot logs.
 * Every line starts with the program's name ("lockshim: ", "MOK manager: "),
 * which each program defines once as log_prefix; the newline is added. The
 * level shows in the console's text attribute, restored after the line:
 * errors light red, warnings yellow, information the default.
 *
 * Formats are printf's (lib/efi/libc/vsnprintf.c: %s a char string, %ls a
 * CHAR16 one), checked by the compiler. The *_status forms print the status
 * after the line, "cannot read X: Not Found", or where the format says %m,
 * and return it, so an error is logged and returned in one statement:
 *
 *	if (EFI_ERROR(status))
 *		return log_error_status(status, "cannot read %ls", path);
 *
 * The others take no status: a line that is not an EFI call's failure has
 * none to print. Prompts, menus and progress that are not log lines still
 * use Print().
 */
#ifndef LOCKSHIM_EFI_LOG_H
#define LOCKSHIM_EFI_LOG_H

#include <efi.h>

/* The program's name, without the colon: defined by each entry point. */
extern const CHAR16 log_prefix[];

enum log_level {
	LOG_ERROR,   /* something failed or was refused */
	LOG_WARNING, /* something is wrong, and the program goes on without it */
	LOG_INFO,    /* what happens and what was decided */
};

/* One line at @level. */
void log_line(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line at @level with @status's text (at %m, else after ": "); returns @status. */
EFI_STATUS log_status(enum log_level level, EFI_STATUS status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_error(...)                  log_line(LOG_ERROR, __VA_ARGS__)
#define log_warning(...)                log_line(LOG_WARNING, __VA_ARGS__)
#define log_info(...)                   log_line(LOG_INFO, __VA_ARGS__)
#define log_error_status(status, ...)   log_status(LOG_ERROR, status, __VA_ARGS__)
#define log_warning_status(status, ...) log_status(LOG_WARNING, status, __VA_ARGS__)
#define log_info_status(status, ...)    log_status(LOG_INFO, status, __VA_ARGS__)

#endif
