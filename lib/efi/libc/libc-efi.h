/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * lockshim's C library subset for the UEFI build of OpenSSL (libc-efi.a).
 *
 * Declarations come from glibc's headers (so the prototypes are checked
 * against the ones OpenSSL was compiled with); this header adds the firmware
 * side. Every function that touches the firmware goes through gnu-efi's
 * globals ST, BS and RT: the application must call InitializeLib(ImageHandle,
 * SystemTable) (which sets them and LibImageHandle) before the first call
 * into OpenSSL or this library. Single-threaded, boot services only: nothing
 * here may run after ExitBootServices().
 */
#ifndef LOCKSHIM_LIBC_EFI_H
#define LOCKSHIM_LIBC_EFI_H

#include <stdarg.h>
#include <stddef.h>
#include <efi.h>
#include <efilib.h>

/* Set by gnu-efi's InitializeLib; not declared in its public headers. */
extern EFI_HANDLE LibImageHandle;

/*
 * Word-wise memcpy/memset. libefi.a already defines memcpy and memset (byte
 * loops) in the object that holds InitializeLib, so these cannot use the
 * standard names; lib/crypto/build.sh renames libcrypto's calls to them
 * (objcopy --redefine-sym). Other EFI code may call them directly.
 */
void *lockshim_memcpy(void *restrict dst, const void *restrict src, size_t n);
void *lockshim_memset(void *dst, int c, size_t n);

/*
 * vsnprintf (vsnprintf.c) with %m writing @m (glibc's strerror(errno)), the
 * log's EFI status; "" when NULL, as vsnprintf and snprintf pass it.
 */
int lockshim_vsnprintf(char *buf, size_t size, const char *m, const char *fmt, va_list ap);

#endif
