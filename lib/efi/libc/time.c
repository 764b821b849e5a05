/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* time() from the firmware's real-time clock (RT->GetTime). */
#include <errno.h>
#include <time.h>

#include "epoch.h"
#include "libc-efi.h"

static int leap(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Seconds since the epoch for an EFI_TIME, or -1 if it is not a valid date. */
static time_t efi_time_to_epoch(const EFI_TIME *t)
{
	static const unsigned char mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int64_t s;

	if (t->Year < 1900 || t->Year > 9999 || t->Month < 1 || t->Month > 12 ||
	    t->Day < 1 || t->Day > mdays[t->Month - 1] + (t->Month == 2 && leap(t->Year)) ||
	    t->Hour > 23 || t->Minute > 59 || t->Second > 59)
		return (time_t)-1;
	s = libc_days_from_civil(t->Year, t->Month, t->Day) * 86400 +
	    t->Hour * 3600 + t->Minute * 60 + t->Second;
	/*
	 * UEFI: Localtime = UTC - TimeZone (minutes), so UTC = Localtime +
	 * TimeZone; EDK2's CryptoPkg time() does the same. An unspecified zone
	 * is taken as UTC (what QEMU/OVMF and Linux keep in the RTC).
	 */
	if (t->TimeZone != EFI_UNSPECIFIED_TIMEZONE) {
		if (t->TimeZone < -1440 || t->TimeZone > 1440)
			return (time_t)-1;
		s += (int64_t)t->TimeZone * 60;
	}
	return (time_t)s;
}

time_t time(time_t *tloc)
{
	EFI_TIME t;
	EFI_STATUS st;
	time_t r = (time_t)-1;

	st = RT->GetTime(&t, NULL);
	if (!EFI_ERROR(st))
		r = efi_time_to_epoch(&t);
	if (r == (time_t)-1)
		errno = EOVERFLOW;
	if (tloc)
		*tloc = r;
	return r;
}
