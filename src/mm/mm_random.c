// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm_random.h"

#include <efilib.h>

#include "cpu_features.h"
#include "efi_guid.h"

static UINT64 tsc_read(void)
{
	UINT32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (UINT64)hi << 32 | lo;
}

/* splitmix64's finalizer: the TSC's fast-moving low bits spread over all 64 */
static UINT64 mix64(UINT64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

UINT64 mm_random64(const char **source)
{
	EFI_RNG_PROTOCOL *rng = NULL;
	UINT64 value = 0;

	if (!EFI_ERROR(LibLocateProtocol(&rng_protocol_guid, (void **)&rng)) && rng &&
	    !EFI_ERROR(rng->GetRNG(rng, NULL, sizeof(value), (UINT8 *)&value))) {
		*source = "EFI_RNG_PROTOCOL";
		return value;
	}
	if (cpu_rdrand64(&value) == 0) {
		*source = "RDRAND";
		return value;
	}
	/* between two draws a person typed: the counter has moved by millions */
	*source = "the TSC";
	return mix64(tsc_read());
}
