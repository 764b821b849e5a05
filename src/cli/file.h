/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Whole files in and out, for the host programs (build/lockshim and the
 * benchmark). A failure is said on stderr as "PROGRAM: PATH: what failed",
 * so the callers only decide what it means for their exit status. Their
 * own diagnostics go through say_error(), which says the program's name.
 */
#ifndef LOCKSHIM_FILE_H
#define LOCKSHIM_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What diagnostics start with ("lockshim"): each program that uses src/cli defines it. */
extern const char program_name[];

/* One diagnostic line on stderr: "PROGRAM: " then @fmt's text and a newline. */
void say_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The file at @path, whole, in a new malloc'd buffer *@data (never NULL,
 * even for an empty file) of *@size bytes, 1 GiB at most: a regular file's
 * size checked before it is read; a pipe the user names (/dev/stdin) read
 * to its end. Returns 0, or -1 with *@data NULL, having said why.
 */
int read_file(const char *path, uint8_t **data, size_t *size);

/* read_file for a file found, not named by the user: only a regular one, never a wait. */
int read_regular_file(const char *path, uint8_t **data, size_t *size);

/*
 * The file at @path, whole, as read_file reads it, but at most @max bytes
 * and without saying anything; @regular_only: only a regular file, and
 * never a wait (a FIFO is refused, not held open for a writer). A regular
 * file's size is checked before any allocation. Returns 1 read; 0 when it
 * does not exist (a dangling symbolic link too); -1 when it is a directory
 * (or, @regular_only, anything but a regular file), too large or
 * unreadable: each with why in @why (@why_size bytes).
 */
int read_file_at_most(const char *path, size_t max, bool regular_only, uint8_t **data, size_t *size,
		      char *why, size_t why_size);

/*
 * Replace the file at @path with @size bytes at @data: written to PATH.tmp,
 * then renamed, so a failure leaves the old file. Returns 0, or -1.
 */
int write_file(const char *path, const uint8_t *data, size_t size);

#endif
