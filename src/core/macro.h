/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Small macros every layer uses (the core, the firmware shells, the CLI). */
#ifndef LOCKSHIM_MACRO_H
#define LOCKSHIM_MACRO_H

/* The number of elements of an array (not a pointer: that fails to build). */
#define ARRAY_SIZE(a)                                                                              \
	(sizeof(a) / sizeof((a)[0]) +                                                              \
	 0 * sizeof(struct {                                                                       \
		 _Static_assert(!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])), \
				"ARRAY_SIZE of a pointer");                                        \
		 int dummy;                                                                        \
	 }))

#endif
