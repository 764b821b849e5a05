/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The symbols of sbat_data.S, declared once for every program it is linked
 * into (the loader, the host CLI): lockshim's own .sbat (certs/sbat.csv)
 * and its .sbatlevel (the format, then the automatic and the latest
 * revocation level); each runs up to its _end symbol.
 */
#ifndef LOCKSHIM_SBAT_DATA_H
#define LOCKSHIM_SBAT_DATA_H

#include <stdint.h>

extern const uint8_t lockshim_sbat[], lockshim_sbat_end[];
extern const uint8_t lockshim_sbat_level[], lockshim_sbat_level_end[];

#endif
