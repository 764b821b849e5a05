/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * How the core says no: a function that can fail returns -1 and points
 * *reason at one line saying why, for the console, a verdict or the CLI.
 *
 *   return refuse(reason, "no MZ signature");
 *   return refusef(reason, buf, "line %zu: empty component name", line_no);
 *
 * refuse() takes a static string. refusef() is for reasons that name what
 * was refused: the text is formatted into a struct reason_buf that the
 * caller owns, so *reason stays valid as long as that buffer does.
 */
#ifndef LOCKSHIM_REASON_H
#define LOCKSHIM_REASON_H

/* Room for one formatted reason; a longer one is cut, still terminated. */
struct reason_buf {
	char text[256];
};

/* *@reason = @why, a static string; returns -1. */
static inline int refuse(const char **reason, const char *why)
{
	*reason = why;
	return -1;
}

/* *@reason = @fmt formatted into @buf; returns -1. */
int refusef(const char **reason, struct reason_buf *buf, const char *fmt, ...)
	__attribute__((__format__(__printf__, 3, 4)));

#endif
