/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The firmware shells' one cleanup idiom, after systemd-boot: a variable
 * declared with a _cleanup_ attribute releases what it holds when it goes
 * out of scope, so a function can return at any point after an allocation
 * without leaking it. A value handed on to the caller is taken out with
 * TAKE_PTR().
 *
 *	_cleanup_pool_ CHAR16 *path = join_path(dir, name);
 *	_cleanup_(efi_file_data_free) struct efi_file_data kernel = {};
 *	_cleanup_(x509_freep) X509 *cert = d2i_X509(NULL, &p, size);
 */
#ifndef LOCKSHIM_EFI_CLEANUP_H
#define LOCKSHIM_EFI_CLEANUP_H

#include <efi.h>
#include <efilib.h>
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

/* Pool memory (AllocatePool, StrDuplicate, FileDevicePath, LibFileInfo, ...). */
static inline void pool_freep(void *p)
{
	void **pool = p;

	if (*pool)
		FreePool(*pool);
}
#define _cleanup_pool_ _cleanup_(pool_freep)

/* An open file or directory of a simple file system. */
static inline void file_closep(EFI_FILE_HANDLE *file)
{
	if (*file)
		(*file)->Close(*file);
}
#define _cleanup_file_ _cleanup_(file_closep)

/* An event (CreateEvent). */
static inline void event_closep(EFI_EVENT *event)
{
	if (*event)
		BS->CloseEvent(*event);
}
#define _cleanup_event_ _cleanup_(event_closep)

/* A loaded image (LoadImage): unloaded, whether or not it was started. */
static inline void image_unloadp(EFI_HANDLE *image)
{
	if (*image)
		BS->UnloadImage(*image);
}
#define _cleanup_image_ _cleanup_(image_unloadp)

/* OpenSSL's objects and OPENSSL_malloc'd memory (the core's lists, for one). */
static inline void openssl_freep(void *p)
{
	OPENSSL_free(*(void **)p);
}

static inline void x509_freep(X509 **cert)
{
	X509_free(*cert);
}

static inline void bio_freep(BIO **bio)
{
	BIO_free(*bio);
}

/* A key read from the console, which may be a character of a password. */
static inline void input_key_wipe(EFI_INPUT_KEY *key)
{
	OPENSSL_cleanse(key, sizeof(*key));
}

/* The value of @p, which is set to NULL: what a cleanup variable hands on. */
#define TAKE_PTR(p)                         \
	({                                  \
		__typeof__(p) taken_ = (p); \
		(p) = NULL;                 \
		taken_;                     \
	})

#endif
