/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Which CPU features libcrypto's assembly may use, in the UEFI build
 * (libc-efi.a, built from lib/crypto/cpu_features.c).
 *
 * OpenSSL detects the CPU in OPENSSL_cpuid_setup(), which an ELF program
 * runs as a constructor; nothing runs constructors under UEFI, so the loader
 * calls crypto_cpu_init() itself, before its first OpenSSL call. Until then
 * the assembly takes its plain x86_64 paths (correct, slower).
 *
 * Also RDRAND, for the MOK manager's random draws when the firmware has no
 * EFI_RNG_PROTOCOL, and the TSC and the hypervisor bit, for the Boot
 * Loader Interface's times.
 */
#ifndef LOCKSHIM_CRYPTO_CPU_FEATURES_H
#define LOCKSHIM_CRYPTO_CPU_FEATURES_H

#include <stddef.h>
#include <stdint.h>

/* Enough for any crypto_cpu_describe() text. */
#define CRYPTO_CPU_DESCRIBE_SIZE 160

/*
 * Detects the CPU's features for libcrypto and keeps only those the
 * firmware has enabled: SHA-NI, SSSE3 and the other SSE-era extensions
 * always; AVX, AVX2 and AVX-512 only when CR4.OSXSAVE is set and XCR0
 * enables their register state. Idempotent; does nothing in the portable C
 * (CRYPTO_ASM=0) build.
 */
void crypto_cpu_init(void);

/*
 * Writes a one-line description of what libcrypto will use into buf (always
 * NUL-terminated, truncated to size) and returns buf, e.g.
 *   "x86_64 asm: SHA-NI SSSE3 BMI2 ADX; SHA-256 via SHA-NI; AVX off (XCR0)"
 *   "portable C (no-asm build)"
 */
char *crypto_cpu_describe(char *buf, size_t size);

/* Does CPUID say the CPU has RDRAND? (Any build; QEMU's default qemu64 has not.) */
int cpu_has_rdrand(void);

/*
 * 64 bits from RDRAND into *@value: 0, or -1 when the CPU has none or it
 * gave nothing in RDRAND_TRIES tries (CF clear: its entropy ran dry).
 */
#define RDRAND_TRIES 10
int cpu_rdrand64(uint64_t *value);

/* Does CPUID say a hypervisor runs the CPU (CPUID.1:ECX bit 31)? */
int cpu_in_hypervisor(void);

/* The time-stamp counter (RDTSC). */
uint64_t cpu_tsc_read(void);

#endif
