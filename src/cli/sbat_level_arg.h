/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The SbatLevel text an `--sbat-level` argument names: "windows" for what
 * Windows' servicing writes (certs/sbat-level-windows.csv, built in),
 * anything else a file. check's "latest" and "automatic" are not texts but
 * a request to the first stage, and stay check's (what_if.c).
 */
#ifndef LOCKSHIM_SBAT_LEVEL_ARG_H
#define LOCKSHIM_SBAT_LEVEL_ARG_H

#include <stddef.h>
#include <stdint.h>

#define SBAT_LEVEL_WINDOWS "windows"

/*
 * The text @arg names, in a new malloc'd buffer *@data of *@size bytes.
 * Returns 0, or -1 having said why (read_file).
 */
int sbat_level_arg_read(const char *arg, uint8_t **data, size_t *size);

#endif
