/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Overflow-checked arithmetic and bounds checks for untrusted offsets, and
 * the little-endian reads and writes of the formats lockshim handles.
 */
#ifndef LOCKSHIM_SAFE_MATH_H
#define LOCKSHIM_SAFE_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* true when [offset, offset + length) lies inside a buffer of @size bytes */
static inline bool range_inside(size_t offset, size_t length, size_t size)
{
	return offset <= size && length <= size - offset;
}

/* *@sum = a + b; false on overflow */
static inline bool add_overflows(size_t a, size_t b, size_t *sum)
{
	return __builtin_add_overflow(a, b, sum);
}

static inline uint16_t read_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t read_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline uint64_t read_le64(const uint8_t *p)
{
	return (uint64_t)read_le32(p) | ((uint64_t)read_le32(p + 4) << 32);
}

static inline void write_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void write_le32(uint8_t *p, uint32_t v)
{
	write_le16(p, (uint16_t)v);
	write_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void write_le64(uint8_t *p, uint64_t v)
{
	write_le32(p, (uint32_t)v);
	write_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
