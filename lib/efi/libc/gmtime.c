/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#define _DEFAULT_SOURCE /* tm_gmtoff, tm_zone, gmtime_r */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "epoch.h"

struct tm *gmtime_r(const time_t *restrict timep, struct tm *restrict tm)
{
	int64_t t = *timep, days, secs, y;
	unsigned m, d;

	days = t / 86400;
	secs = t % 86400;
	if (secs < 0) {
		secs += 86400;
		days--;
	}
	/* Keep the year representable in tm_year (int, offset 1900). */
	if (days > (int64_t)INT_MAX * 366 || days < (int64_t)INT_MIN * 366) {
		errno = EOVERFLOW;
		return NULL;
	}
	libc_civil_from_days(days, &y, &m, &d);
	if (y - 1900 > INT_MAX || y - 1900 < INT_MIN) {
		errno = EOVERFLOW;
		return NULL;
	}
	tm->tm_year = (int)(y - 1900);
	tm->tm_mon = (int)m - 1;
	tm->tm_mday = (int)d;
	tm->tm_hour = (int)(secs / 3600);
	tm->tm_min = (int)(secs / 60 % 60);
	tm->tm_sec = (int)(secs % 60);
	tm->tm_wday = (int)(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
	tm->tm_yday = (int)(days - libc_days_from_civil(y, 1, 1));
	tm->tm_isdst = 0;
	tm->tm_gmtoff = 0;
	tm->tm_zone = "GMT";
	return tm;
}

struct tm *gmtime(const time_t *timep)
{
	static struct tm tm;

	return gmtime_r(timep, &tm);
}
