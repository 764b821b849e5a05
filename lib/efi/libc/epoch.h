/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Proleptic Gregorian calendar <-> days since 1970-01-01 (internal). */
#ifndef LOCKSHIM_LIBC_EPOCH_H
#define LOCKSHIM_LIBC_EPOCH_H

#include <stdint.h>

/* Days from 1970-01-01 to y-m-d (m 1..12, d 1..31); any year. */
int64_t libc_days_from_civil(int64_t y, unsigned m, unsigned d);
/* Inverse of libc_days_from_civil. */
void libc_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d);

#endif
