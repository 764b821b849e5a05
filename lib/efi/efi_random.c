// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_random.h"

#include "cpu_features.h"

static EFI_GUID rng_protocol = EFI_RNG_PROTOCOL_GUID;

/* splitmix64's finalizer: the TSC's fast-moving low bits spread over all 64 */
static UINT64 mix64(UINT64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

UINT64 efi_random64(EFI_BOOT_SERVICES *bs, const char **source)
{
	EFI_RNG_PROTOCOL *rng = NULL;
	UINT64 value = 0;

	if (!EFI_ERROR(bs->LocateProtocol(&rng_protocol, NULL, (void **)&rng)) && rng &&
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
	return mix64(cpu_tsc_read());
}
