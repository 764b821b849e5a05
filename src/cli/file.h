/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Whole files in and out, for the host programs (build/lockshim and the
 * benchmark). A failure is said on stderr as "PROGRAM: PATH: what failed",
 * so the callers only decide what it means for their exit status. Their
 * own diagnostics go through say_error(), which says the program's name.
 */
#ifndef LOCKSHIM_FILE_H
#define LOCKSHIM_FILE_H

#include <stddef.h>
#include <stdint.h>

/* What diagnostics start with ("lockshim"): each program that uses src/cli defines it. */
extern const char program_name[];

/* One diagnostic line on stderr: "PROGRAM: " then @fmt's text and a newline. */
void say_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The file at @path, whole, in a new malloc'd buffer *@data (never NULL,
 * even for an empty file) of *@size bytes. Returns 0, or -1 with *@data
 * NULL, having said why.
 */
int read_file(const char *path, uint8_t **data, size_t *size);

/*
 * Replace the file at @path with @size bytes at @data: written to PATH.tmp,
 * then renamed, so a failure leaves the old file. Returns 0, or -1.
 */
int write_file(const char *path, const uint8_t *data, size_t size);

#endif
