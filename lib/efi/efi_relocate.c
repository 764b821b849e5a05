/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * _relocate: the start-up relocation of a gnu-efi image, replacing gnu-efi's
 * own (libgnuefi.a, reloc_x86_64.o), which knows DT_RELA only.
 *
 * A gnu-efi image is an ELF shared object copied into PE form by objcopy; its
 * PE .reloc is a placeholder, and crt0's _start calls
 * _relocate(ImageBase, _DYNAMIC, image, systab) to add the load address to
 * every absolute pointer in the image. libcrypto's tables hold thousands of
 * them: as DT_RELA entries (24 bytes each) they took about 140 KB of
 * lockshimx64.efi. Linked with -z pack-relative-relocs they are DT_RELR,
 * about 2 KB: an even entry is the address of a pointer to relocate, an odd
 * entry a bitmap of which of the next 63 words to relocate. This applies
 * both tables.
 *
 * It runs before any pointer is relocated: no absolute addresses, no calls
 * out of this file, no global data.
 *
 * lockshim_relocate_relr exists so the link can require it
 * (--require-defined, see crypto.mk): that pulls this object out of
 * libc-efi.a ahead of gnu-efi's _relocate, and makes the link fail (two
 * _relocate definitions) rather than produce an image whose DT_RELR
 * relocations nobody applies if the libraries were ever put in another
 * order.
 */
#include <elf.h>

#include <efi.h>

#ifndef DT_RELR /* glibc < 2.36 */
#define DT_RELRSZ 35
#define DT_RELR 36
#define DT_RELRENT 37
#endif

EFI_STATUS _relocate(long ldbase, Elf64_Dyn *dyn, EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

void lockshim_relocate_relr(void)
{
}

static EFI_STATUS apply_rela(UINT64 base, const Elf64_Rela *rela, UINT64 size, UINT64 entsize)
{
	if (entsize < sizeof(*rela))
		return EFI_LOAD_ERROR;
	for (; size >= entsize; size -= entsize) {
		switch (ELF64_R_TYPE(rela->r_info)) {
		case R_X86_64_NONE:
			break;
		case R_X86_64_RELATIVE:
			*(UINT64 *)(base + rela->r_offset) = base + rela->r_addend;
			break;
		default:
			return EFI_LOAD_ERROR;
		}
		rela = (const Elf64_Rela *)((const UINT8 *)rela + entsize);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS apply_relr(UINT64 base, const UINT64 *relr, UINT64 size, UINT64 entsize)
{
	UINT64 *where = NULL;

	if (entsize != sizeof(*relr))
		return EFI_LOAD_ERROR;
	for (; size >= sizeof(*relr); size -= sizeof(*relr), relr++) {
		UINT64 entry = *relr;

		if ((entry & 1) == 0) {
			where = (UINT64 *)(base + entry);
			*where++ += base;
		} else {
			UINT64 *p = where;

			if (where == NULL)
				return EFI_LOAD_ERROR;
			for (entry >>= 1; entry != 0; entry >>= 1, p++)
				if (entry & 1)
					*p += base;
			where += 63;
		}
	}
	return EFI_SUCCESS;
}

/* Before efi_main sets the stack guard, and before the image is relocated: no canary. */
__attribute__((no_stack_protector)) EFI_STATUS _relocate(long ldbase, Elf64_Dyn *dyn, EFI_HANDLE image,
							 EFI_SYSTEM_TABLE *systab)
{
	UINT64 base = (UINT64)ldbase;
	UINT64 rela = 0, relasz = 0, relaent = 0, relr = 0, relrsz = 0, relrent = 0;
	EFI_STATUS status = EFI_SUCCESS;

	(void)image;
	(void)systab;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_RELA:
			rela = dyn->d_un.d_ptr;
			break;
		case DT_RELASZ:
			relasz = dyn->d_un.d_val;
			break;
		case DT_RELAENT:
			relaent = dyn->d_un.d_val;
			break;
		case DT_RELR:
			relr = dyn->d_un.d_ptr;
			break;
		case DT_RELRSZ:
			relrsz = dyn->d_un.d_val;
			break;
		case DT_RELRENT:
			relrent = dyn->d_un.d_val;
			break;
		}
	}
	if (relasz != 0)
		status = apply_rela(base, (const Elf64_Rela *)(base + rela), relasz, relaent);
	if (status == EFI_SUCCESS && relrsz != 0)
		status = apply_relr(base, (const UINT64 *)(base + relr), relrsz, relrent);
	return status;
}
