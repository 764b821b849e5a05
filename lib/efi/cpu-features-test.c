/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Host test of cpu_features.c's crypto_cpu_keep_enabled() (crypto.mk:
 * make libefi-cpu-test): which of OpenSSL's capability bits survive each
 * XCR0 the firmware may leave; cpu_has_rdrand() against the kernel's
 * /proc/cpuinfo flags and cpu_rdrand64() on this CPU. Prints "N passed,
 * N failed".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu_features.h"

void crypto_cpu_keep_enabled(unsigned int cap[4], uint64_t xcr0);

/* What cpu_features.c refers to in an assembly build; unused here. */
unsigned int OPENSSL_ia32cap_P[4];
void OPENSSL_cpuid_setup(void)
{
}

static int passed, failed;

/* Bit @bit of word @word of the vector is @expect after masking. */
static void check(const unsigned int *cap, int word, int bit, int expect, const char *name,
		  uint64_t xcr0)
{
	if (!!(cap[word] & (1u << bit)) == expect) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "FAIL: XCR0=%#llx: %s %s\n", (unsigned long long)xcr0, name,
			expect ? "cleared" : "kept");
	}
}

/* The kernel's word: is "rdrand" among the first CPU's flags? -1 when unreadable. */
static int cpuinfo_has_rdrand(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[8192];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0) {
			found = strstr(line, " rdrand") != NULL;
			break;
		}
	fclose(f);
	return found;
}

static void check_rdrand(void)
{
	int has = cpu_has_rdrand(), kernel = cpuinfo_has_rdrand();
	uint64_t a = 0, b = 0;

	if (kernel >= 0 && has != kernel) {
		failed++;
		fprintf(stderr, "FAIL: cpu_has_rdrand() %d, /proc/cpuinfo says %d\n", has, kernel);
	} else {
		passed++;
	}
	/* with RDRAND: two draws, which differ (equal with probability 2^-64); without: -1 */
	if (has ? cpu_rdrand64(&a) == 0 && cpu_rdrand64(&b) == 0 && a != b
		: cpu_rdrand64(&a) == -1) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "FAIL: cpu_rdrand64() on a CPU %s RDRAND\n", has ? "with" : "without");
	}
}

int main(void)
{
	static const struct {
		int word, bit;
		const char *name;
		int needs; /* 0: always usable, 1: YMM state, 2: ZMM state too */
	} bits[] = {
		{ 1, 9, "SSSE3", 0 },	      { 1, 19, "SSE4.1", 0 },	    { 2, 29, "SHA-NI", 0 },
		{ 2, 3, "BMI1", 0 },	      { 2, 8, "BMI2", 0 },	    { 2, 19, "ADX", 0 },
		{ 1, 28, "AVX", 1 },	      { 1, 12, "FMA", 1 },	    { 1, 11, "XOP", 1 },
		{ 1, 29, "F16C", 1 },	      { 2, 5, "AVX2", 1 },	    { 3, 9, "VAES", 1 },
		{ 3, 10, "VPCLMULQDQ", 1 },   { 2, 16, "AVX512F", 2 },	    { 2, 17, "AVX512DQ", 2 },
		{ 2, 21, "AVX512IFMA", 2 },   { 2, 26, "AVX512PF", 2 },	    { 2, 27, "AVX512ER", 2 },
		{ 2, 28, "AVX512CD", 2 },     { 2, 30, "AVX512BW", 2 },	    { 2, 31, "AVX512VL", 2 },
		{ 3, 1, "AVX512VBMI", 2 },    { 3, 6, "AVX512VBMI2", 2 },   { 3, 11, "AVX512VNNI", 2 },
		{ 3, 12, "AVX512BITALG", 2 }, { 3, 14, "AVX512VPOPCNT", 2 },
	};
	static const struct {
		uint64_t xcr0;
		int enabled; /* the highest "needs" level usable */
	} cases[] = {
		{ 0, 0 },    /* CR4.OSXSAVE clear (OVMF) */
		{ 0x3, 0 },  /* x87 and SSE only */
		{ 0x5, 0 },  /* YMM without SSE: not AVX */
		{ 0x7, 1 },  /* AVX */
		{ 0x67, 1 }, /* part of the AVX-512 state */
		{ 0xe3, 0 }, /* ZMM without YMM */
		{ 0xe7, 2 }, /* AVX-512 */
	};
	size_t c, b;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		unsigned int cap[4] = { ~0u, ~0u, ~0u, ~0u };

		crypto_cpu_keep_enabled(cap, cases[c].xcr0);
		for (b = 0; b < sizeof(bits) / sizeof(bits[0]); b++)
			check(cap, bits[b].word, bits[b].bit, bits[b].needs <= cases[c].enabled,
			      bits[b].name, cases[c].xcr0);
	}
	check_rdrand();
	printf("cpu-features: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
