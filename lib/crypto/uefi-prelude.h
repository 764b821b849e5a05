/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Force-included (-include) into every OpenSSL object of the UEFI build and
 * into every EFI object of the loader that includes OpenSSL headers.
 *
 * OpenSSL's UEFI support (OPENSSL_SYS_UEFI) expects an EDK2 environment: its
 * public e_os2.h typedefs int8_t... from INT8..UINT64, uses INTN/MAX_INTN for
 * ossl_ssize_t, and configuration.h leaves the bignum word size to the
 * environment. gnu-efi provides neither before <efi.h>, so this header does.
 *
 * The types are the ones gnu-efi's x86_64 efibind.h declares (it typedefs them
 * from <stdint.h> too), so a later #include <efi.h> repeats identical
 * typedefs, which C11 (gcc's default gnu17) allows.
 */
#ifndef LOCKSHIM_UEFI_PRELUDE_H
#define LOCKSHIM_UEFI_PRELUDE_H

#if !defined(__x86_64__)
#error "lockshim's UEFI OpenSSL build is x86_64 only"
#endif

#include <stdint.h>

#ifndef X86_64_EFI_BIND /* gnu-efi's efibind.h not yet seen */
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef int64_t INTN;
typedef uint64_t UINTN;
#endif

#ifndef MAX_INTN
#define MAX_INTN ((INTN)INT64_MAX)
#endif
#ifndef MAX_UINTN
#define MAX_UINTN ((UINTN)UINT64_MAX)
#endif

/* x86_64 LP64: BN_ULONG is unsigned long. Must match the library build. */
#ifndef SIXTY_FOUR_BIT_LONG
#define SIXTY_FOUR_BIT_LONG
#endif
#undef SIXTY_FOUR_BIT
#undef THIRTY_TWO_BIT

#endif
