/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * crypto_cpu_init() and crypto_cpu_describe(): see cpu_features.h.
 *
 * OPENSSL_ia32cap_P is OpenSSL's capability vector (declared in its internal
 * crypto/cryptlib.h, defined by x86_64cpuid.s, or by cpuid.c in a no-asm
 * build). OPENSSL_ia32_cpuid fills it as:
 *   [0] CPUID.1:EDX (bit 10 set once initialised, bit 30 "Intel CPU")
 *   [1] CPUID.1:ECX (bit 11 AMD XOP)
 *   [2] CPUID.(EAX=7,ECX=0):EBX
 *   [3] CPUID.(EAX=7,ECX=0):ECX
 * It already clears AVX/FMA/XOP, AVX2 and AVX-512F/IFMA/BW/VL when XCR0 does
 * not enable their state; crypto_cpu_init() also clears the VEX/EVEX bits it
 * leaves (AVX-512DQ/CD/PF/ER, CPUID.7:ECX's AVX-512 and VEX extensions), so
 * no code path OpenSSL adds later can reach an unenabled register state.
 *
 * cpu_has_rdrand() and cpu_rdrand64() read CPUID themselves: the MOK
 * manager's random draws need them in any build, before or without OpenSSL.
 */
#include <stdint.h>

#include <cpuid.h>
#include <openssl/opensslconf.h>

#include "cpu_features.h"

#define CAP0_INITIALISED (1u << 10)
#define CAP0_INTEL (1u << 30)
#define CAP1_SSSE3 (1u << 9)
#define CAP1_XOP (1u << 11)
#define CAP1_FMA (1u << 12)
#define CAP1_OSXSAVE (1u << 27)
#define CAP1_AVX (1u << 28)
#define CAP1_F16C (1u << 29)
#define CAP2_BMI1 (1u << 3)
#define CAP2_AVX2 (1u << 5)
#define CAP2_BMI2 (1u << 8)
#define CAP2_AVX512F (1u << 16)
#define CAP2_ADX (1u << 19)
#define CAP2_SHA (1u << 29)
/* AVX-512 F, DQ, IFMA, PF, ER, CD, BW, VL */
#define CAP2_AVX512_ALL                                                                    \
	(CAP2_AVX512F | 1u << 17 | 1u << 21 | 1u << 26 | 1u << 27 | 1u << 28 | 1u << 30 | \
	 1u << 31)
/* CPUID.7:ECX: AVX-512 VBMI, VBMI2, VNNI, BITALG, VPOPCNTDQ */
#define CAP3_AVX512_ALL (1u << 1 | 1u << 6 | 1u << 11 | 1u << 12 | 1u << 14)
/* CPUID.7:ECX: VAES, VPCLMULQDQ (VEX forms need the YMM state) */
#define CAP3_VEX_ALL (1u << 9 | 1u << 10)

/* XCR0: SSE and AVX (YMM upper halves); opmask, ZMM upper halves, ZMM16-31 */
#define XCR0_AVX_STATE 0x06u
#define XCR0_AVX512_STATE 0xe0u

/*
 * Clears from a capability vector every feature whose register state @xcr0
 * leaves disabled. Not static: lib/crypto/cpu-features-test.c checks it.
 */
void crypto_cpu_keep_enabled(unsigned int cap[4], uint64_t xcr0)
{
	if ((xcr0 & XCR0_AVX_STATE) != XCR0_AVX_STATE) {
		cap[1] &= ~(CAP1_AVX | CAP1_FMA | CAP1_XOP | CAP1_F16C);
		cap[2] &= ~(CAP2_AVX2 | CAP2_AVX512_ALL);
		cap[3] &= ~(CAP3_AVX512_ALL | CAP3_VEX_ALL);
	}
	if ((xcr0 & XCR0_AVX512_STATE) != XCR0_AVX512_STATE) {
		cap[2] &= ~CAP2_AVX512_ALL;
		cap[3] &= ~CAP3_AVX512_ALL;
	}
}

/* Appends s to buf (capacity size, *len used), truncating; NUL-terminates. */
static void append(char *buf, size_t size, size_t *len, const char *s)
{
	while (*s && *len + 1 < size)
		buf[(*len)++] = *s++;
	buf[*len] = '\0';
}

#define CPUID1_ECX_RDRAND (1u << 30)

int cpu_has_rdrand(void)
{
	unsigned int eax, ebx, ecx, edx;

	return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & CPUID1_ECX_RDRAND);
}

int cpu_rdrand64(uint64_t *value)
{
	if (!cpu_has_rdrand())
		return -1;
	for (int i = 0; i < RDRAND_TRIES; i++) {
		unsigned char ok;

		/* inline, not __builtin_ia32_rdrand64_step, which needs -mrdrnd */
		__asm__ volatile("rdrand %0; setc %1" : "=r"(*value), "=qm"(ok) : : "cc");
		if (ok)
			return 0;
	}
	return -1;
}

#define CPUID1_ECX_HYPERVISOR (1u << 31)

int cpu_in_hypervisor(void)
{
	unsigned int eax, ebx, ecx, edx;

	return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & CPUID1_ECX_HYPERVISOR);
}

uint64_t cpu_tsc_read(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

#ifdef OPENSSL_NO_ASM

void crypto_cpu_init(void)
{
}

char *crypto_cpu_describe(char *buf, size_t size)
{
	size_t len = 0;

	if (size != 0)
		append(buf, size, &len, "portable C (no-asm build)");
	return buf;
}

#else /* the assembly build */

extern unsigned int OPENSSL_ia32cap_P[4];
void OPENSSL_cpuid_setup(void);

/*
 * XCR0 as the firmware set it; 0 when CR4.OSXSAVE is clear (then XGETBV
 * itself would fault, and no XSAVE-managed state is enabled).
 */
static uint64_t enabled_xcr0(void)
{
	unsigned int eax, ebx, ecx, edx, lo, hi;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & CAP1_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return lo | (uint64_t)hi << 32;
}

/* The CPU has AVX, whether or not its state is enabled. */
static int cpu_has_avx(void)
{
	unsigned int eax, ebx, ecx, edx;

	return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & CAP1_AVX);
}

void crypto_cpu_init(void)
{
	OPENSSL_cpuid_setup();
	crypto_cpu_keep_enabled(OPENSSL_ia32cap_P, enabled_xcr0());
}

/* The SHA-256 code path sha256_block_data_order picks, by the same tests. */
static const char *sha256_path(const unsigned int *cap)
{
	if (cap[2] & CAP2_SHA)
		return "SHA-NI";
	if ((cap[2] & (CAP2_BMI1 | CAP2_AVX2 | CAP2_BMI2)) == (CAP2_BMI1 | CAP2_AVX2 | CAP2_BMI2))
		return "AVX2";
	if ((cap[1] & (CAP1_AVX | CAP1_SSSE3)) == (CAP1_AVX | CAP1_SSSE3) && (cap[0] & CAP0_INTEL))
		return "AVX";
	if (cap[1] & CAP1_SSSE3)
		return "SSSE3";
	return "x86_64 integer code";
}

char *crypto_cpu_describe(char *buf, size_t size)
{
	static const struct {
		int word;
		unsigned int bit;
		const char *name;
	} features[] = {
		{ 2, CAP2_SHA, " SHA-NI" }, { 2, CAP2_AVX512F, " AVX512" }, { 2, CAP2_AVX2, " AVX2" },
		{ 1, CAP1_AVX, " AVX" },    { 1, CAP1_SSSE3, " SSSE3" },    { 2, CAP2_BMI2, " BMI2" },
		{ 2, CAP2_ADX, " ADX" },
	};
	const unsigned int *cap = OPENSSL_ia32cap_P;
	size_t len = 0, i;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	if (!(cap[0] & CAP0_INITIALISED)) {
		append(buf, size, &len, "x86_64 asm: CPU not detected yet (crypto_cpu_init)");
		return buf;
	}
	append(buf, size, &len, "x86_64 asm:");
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (cap[features[i].word] & features[i].bit)
			append(buf, size, &len, features[i].name);
	if (len == sizeof("x86_64 asm:") - 1)
		append(buf, size, &len, " no SIMD extensions");
	append(buf, size, &len, "; SHA-256 via ");
	append(buf, size, &len, sha256_path(cap));
	if (cpu_has_avx() && (enabled_xcr0() & XCR0_AVX_STATE) != XCR0_AVX_STATE)
		append(buf, size, &len, "; AVX off (XCR0)");
	return buf;
}

#endif
