// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_shim_lock.h"

#include <efilib.h>
#include <openssl/evp.h>

#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "pe.h"
#include "pe_format.h"

#define SHIM_LOCK_API __attribute__((sysv_abi))

/*
 * shim 16.1's PE_COFF_LOADER_IMAGE_CONTEXT (include/peimage.h at tag 16.1:
 * no FileAlignment, which came later): what Context fills.
 */
struct shim_image_context {
	UINT64 image_address; /* ImageBase */
	UINT64 image_size;    /* SizeOfImage */
	UINT64 entry_point;   /* AddressOfEntryPoint */
	UINTN size_of_headers;
	UINT16 image_type; /* Subsystem */
	UINT16 number_of_sections;
	UINT32 section_alignment;
	void *first_section; /* these point into the caller's image */
	void *reloc_dir;
	void *sec_dir;
	UINT64 number_of_rva_and_sizes;
	UINT16 dll_characteristics;
	void *pe_header;
};

struct shim_lock_protocol {
	EFI_STATUS SHIM_LOCK_API (*verify)(void *buffer, UINT32 size);
	EFI_STATUS SHIM_LOCK_API (*hash)(char *data, int size, struct shim_image_context *context,
					 UINT8 *sha256, UINT8 *sha1);
	EFI_STATUS SHIM_LOCK_API (*context)(void *data, unsigned int size,
					    struct shim_image_context *context);
};

/*
 * The protocol's functions take no argument of ours, so the verifier they
 * answer with is kept here, set while the protocol is installed.
 */
static const struct efi_verifier *shim_lock_verifier;

/* The caller's image, parsed; NULL with the reason logged when it is not a usable PE. */
static struct pe_image *parse_image(const void *data, UINTN size)
{
	struct pe_image *img;
	const char *reason;

	img = AllocatePool(sizeof(*img)); /* a few KiB: off the caller's stack */
	if (!img)
		return NULL;
	if (pe_parse(data, size, img, &reason) < 0) {
		log_error("shim_lock: not a usable image: %s", reason);
		FreePool(img);
		return NULL;
	}
	return img;
}

static SHIM_LOCK_API EFI_STATUS shim_lock_verify(void *buffer, UINT32 size)
{
	CHAR16 what[64];

	if (!buffer) {
		log_error("shim_lock: Verify without an image");
		return EFI_INVALID_PARAMETER;
	}
	if (!shim_lock_verifier)
		return EFI_NOT_READY;
	SPrint(what, sizeof(what), L"image from the second stage (%ld bytes)", (UINTN)size);
	/* verify_image reads @size bytes at most and refuses what is not a valid PE */
	return efi_verify_shim_lock_image(shim_lock_verifier, buffer, size, what);
}

/* The Authenticode digests shim's Hash returns; @context is not trusted, the image is re-read. */
static SHIM_LOCK_API EFI_STATUS shim_lock_hash(char *data, int size,
					       struct shim_image_context *context, UINT8 *sha256,
					       UINT8 *sha1)
{
	UINT8 digest[EVP_MAX_MD_SIZE];
	struct pe_image *img;
	const char *reason;
	unsigned int len;
	EFI_STATUS status = EFI_SUCCESS;

	if (!data || size <= 0 || !context || !sha256 || !sha1)
		return EFI_INVALID_PARAMETER;
	img = parse_image(data, (UINTN)size);
	if (!img)
		return EFI_UNSUPPORTED;
	if (pe_authenticode_digest(img, EVP_sha256(), digest, &len, &reason) < 0 || len != 32)
		status = EFI_UNSUPPORTED;
	else
		CopyMem(sha256, digest, 32);
	if (!EFI_ERROR(status)) {
		if (pe_authenticode_digest(img, EVP_sha1(), digest, &len, &reason) < 0 || len != 20)
			status = EFI_UNSUPPORTED;
		else
			CopyMem(sha1, digest, 20);
	}
	if (EFI_ERROR(status))
		log_error("shim_lock: cannot hash the image: %s", reason);
	FreePool(img);
	return status;
}

static SHIM_LOCK_API EFI_STATUS shim_lock_context(void *data, unsigned int size,
						  struct shim_image_context *context)
{
	UINT8 *base = data;
	struct pe_image *img;
	UINTN dirs;

	if (!data || !context)
		return EFI_INVALID_PARAMETER;
	img = parse_image(data, size); /* size 0: EFI_UNSUPPORTED, as shim */
	if (!img)
		return EFI_UNSUPPORTED;

	/* every pointer lies inside the headers pe_parse checked */
	dirs = img->optional_header_offset + OPT_DATA_DIRECTORY;
	*context = (struct shim_image_context){
		.image_address = img->image_base,
		.image_size = img->image_size,
		.entry_point = img->entry_point,
		.size_of_headers = img->headers_size,
		.image_type = img->subsystem,
		.number_of_sections = img->n_sections,
		.section_alignment = img->section_alignment,
		.first_section = base + img->section_table_offset,
		.reloc_dir = img->n_data_dirs > DATA_DIR_BASERELOC ?
				     base + dirs + DATA_DIR_BASERELOC * DATA_DIR_ENTRY_SIZE :
				     NULL,
		.sec_dir = img->n_data_dirs > DATA_DIR_SECURITY ?
				   base + dirs + DATA_DIR_SECURITY * DATA_DIR_ENTRY_SIZE :
				   NULL,
		.number_of_rva_and_sizes = img->n_data_dirs,
		.dll_characteristics = img->dll_characteristics,
		.pe_header = base + img->nt_headers_offset,
	};
	FreePool(img);
	return EFI_SUCCESS;
}

static struct shim_lock_protocol shim_lock_protocol = {
	.verify = shim_lock_verify,
	.hash = shim_lock_hash,
	.context = shim_lock_context,
};

/*
 * The SHIM_LOCK of a first stage that started this one (the fallback's
 * option is often lockshim again): removed, as shim 16.1 removes its
 * predecessor's, so that the second stage this lockshim starts asks the
 * lockshim it was decided by, not the first one LocateProtocol finds.
 */
static void shim_lock_replace_earlier(void)
{
	_cleanup_pool_ EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	EFI_STATUS status;

	if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &shim_lock_guid, NULL, &count, &handles)))
		return;
	for (UINTN i = 0; i < count; i++) {
		void *earlier;

		if (EFI_ERROR(BS->HandleProtocol(handles[i], &shim_lock_guid, &earlier)))
			continue;
		status = BS->UninstallProtocolInterface(handles[i], &shim_lock_guid, earlier);
		if (EFI_ERROR(status))
			log_warning_status(status, "cannot remove an earlier shim_lock protocol");
		else
			log_info("replaced the shim_lock protocol of the first stage that started "
				 "lockshim");
	}
}

EFI_STATUS efi_shim_lock_install(const struct efi_verifier *verifier, EFI_HANDLE *handle)
{
	EFI_STATUS status;

	shim_lock_replace_earlier();
	*handle = NULL; /* a handle of its own, as shim installs it */
	shim_lock_verifier = verifier;
	status = BS->InstallProtocolInterface(handle, &shim_lock_guid, EFI_NATIVE_INTERFACE,
					      &shim_lock_protocol);
	if (EFI_ERROR(status)) {
		shim_lock_verifier = NULL;
		*handle = NULL;
		return log_error_status(status, "cannot install the shim_lock protocol");
	}
	return EFI_SUCCESS;
}

void efi_shim_lock_uninstall(EFI_HANDLE *handle)
{
	EFI_STATUS status;

	if (!*handle)
		return;
	status = BS->UninstallProtocolInterface(*handle, &shim_lock_guid, &shim_lock_protocol);
	if (status == EFI_NOT_FOUND)
		log_info("the shim_lock protocol was replaced by a first stage lockshim started");
	else if (EFI_ERROR(status))
		log_error_status(status, "cannot remove the shim_lock protocol");
	shim_lock_verifier = NULL; /* the verifier is about to go: refuse from now on */
	*handle = NULL;
}
