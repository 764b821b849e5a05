/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Calendar arithmetic in 400-year eras (146097 days), which gets every leap
 * rule right (4, 100, 400) without loops or tables.
 */
#include "epoch.h"

int64_t libc_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;                                     /* [0, 399] */
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;   /* [0, 365] */
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;             /* [0, 146096] */
	return era * 146097 + doe - 719468;
}

void libc_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}
