/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Host test of efi_relocate.c (lib/efi/efi.mk: make libefi-relocate-test).
 *
 *   relocate-test RELA.so RELR.so
 *
 * The same EFI program linked twice: with DT_RELA, as gnu-efi links it, and
 * with -z pack-relative-relocs (DT_RELR). Each is loaded at the same base,
 * the first relocated the way gnu-efi's reloc_x86_64.c does (*where += base
 * for every R_X86_64_RELATIVE), the second by efi_relocate.c's _relocate;
 * then every byte of .text, .data and .sbat must be equal. _relocate is also
 * run on a fresh copy of the first (its DT_RELA path). Prints
 * "N passed, N failed".
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <efi.h>

EFI_STATUS _relocate(long ldbase, Elf64_Dyn *dyn, EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static int passed, failed;

#define CHECK(cond, ...)                                  \
	do {                                              \
		if (cond) {                               \
			passed++;                         \
		} else {                                  \
			failed++;                         \
			fprintf(stderr, "FAIL: " __VA_ARGS__); \
			fputc('\n', stderr);              \
		}                                         \
	} while (0)

struct elf_file {
	const uint8_t *data;
	size_t size;
	const Elf64_Ehdr *eh;
};

/* An image loaded at base: PT_LOAD segments copied, the rest zero. */
struct image {
	uint8_t *base;
	size_t span;
	Elf64_Dyn *dynamic;
};

static void die(const char *what, const char *file)
{
	fprintf(stderr, "relocate-test: %s: %s\n", file, what);
	exit(2);
}

static struct elf_file map_elf(const char *path)
{
	struct elf_file f;
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) != 0)
		die("cannot open", path);
	f.size = (size_t)st.st_size;
	f.data = mmap(NULL, f.size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f.data == MAP_FAILED || f.size < sizeof(Elf64_Ehdr))
		die("cannot map", path);
	f.eh = (const Elf64_Ehdr *)f.data;
	if (memcmp(f.eh->e_ident, ELFMAG, SELFMAG) != 0 || f.eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    f.eh->e_machine != EM_X86_64 || f.eh->e_phoff + (size_t)f.eh->e_phnum * sizeof(Elf64_Phdr) > f.size ||
	    f.eh->e_shoff + (size_t)f.eh->e_shnum * sizeof(Elf64_Shdr) > f.size)
		die("not an x86_64 ELF file", path);
	return f;
}

static const Elf64_Phdr *phdr(const struct elf_file *f, int i)
{
	return (const Elf64_Phdr *)(f->data + f->eh->e_phoff) + i;
}

static const Elf64_Shdr *section(const struct elf_file *f, const char *name)
{
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f->data + f->eh->e_shoff);
	const char *names = (const char *)f->data + sh[f->eh->e_shstrndx].sh_offset;
	int i;

	for (i = 0; i < f->eh->e_shnum; i++)
		if (strcmp(names + sh[i].sh_name, name) == 0)
			return &sh[i];
	return NULL;
}

static struct image load(const struct elf_file *f, uint8_t *base, size_t span, const char *path)
{
	struct image img = { base, span, NULL };
	int i;

	memset(base, 0, span);
	for (i = 0; i < f->eh->e_phnum; i++) {
		const Elf64_Phdr *ph = phdr(f, i);

		if (ph->p_type == PT_LOAD) {
			if (ph->p_vaddr + ph->p_memsz > span || ph->p_offset + ph->p_filesz > f->size)
				die("segment out of range", path);
			memcpy(base + ph->p_vaddr, f->data + ph->p_offset, ph->p_filesz);
		} else if (ph->p_type == PT_DYNAMIC) {
			img.dynamic = (Elf64_Dyn *)(base + ph->p_vaddr);
		}
	}
	if (img.dynamic == NULL)
		die("no PT_DYNAMIC", path);
	return img;
}

static size_t span_of(const struct elf_file *f)
{
	size_t span = 0;
	int i;

	for (i = 0; i < f->eh->e_phnum; i++)
		if (phdr(f, i)->p_type == PT_LOAD && phdr(f, i)->p_vaddr + phdr(f, i)->p_memsz > span)
			span = phdr(f, i)->p_vaddr + phdr(f, i)->p_memsz;
	return span;
}

/* gnu-efi 3.0.15 reloc_x86_64.c: DT_RELA only, *where += base. */
static int gnu_efi_relocate(struct image *img, int *count)
{
	uint64_t base = (uint64_t)img->base, rela = 0, size = 0, ent = 0;
	Elf64_Dyn *d;

	for (d = img->dynamic; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_RELA)
			rela = d->d_un.d_ptr;
		else if (d->d_tag == DT_RELASZ)
			size = d->d_un.d_val;
		else if (d->d_tag == DT_RELAENT)
			ent = d->d_un.d_val;
	}
	*count = 0;
	for (; ent != 0 && size >= ent; size -= ent, rela += ent) {
		const Elf64_Rela *r = (const Elf64_Rela *)(img->base + rela);

		if (ELF64_R_TYPE(r->r_info) != R_X86_64_RELATIVE)
			return -1;
		*(uint64_t *)(img->base + r->r_offset) += base;
		(*count)++;
	}
	return 0;
}

static int has_tag(const struct image *img, Elf64_Sxword tag)
{
	const Elf64_Dyn *d;

	for (d = img->dynamic; d->d_tag != DT_NULL; d++)
		if (d->d_tag == tag)
			return 1;
	return 0;
}

/* .text, .data and .sbat of the relocated B equal those of the reference A. */
static void compare(const struct elf_file *fa, const uint8_t *expect, const struct elf_file *fb,
		    const uint8_t *got)
{
	static const char *const names[] = { ".text", ".data", ".sbat" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const Elf64_Shdr *sa = section(fa, names[i]), *sb = section(fb, names[i]);
		int same_place = sa && sb && sa->sh_addr == sb->sh_addr && sa->sh_size == sb->sh_size;

		if (sa == NULL && sb == NULL)
			continue;
		CHECK(same_place, "%s is not at the same place in both links", names[i]);
		if (same_place)
			CHECK(memcmp(expect + sa->sh_addr, got + sb->sh_addr, sa->sh_size) == 0,
			      "%s differs after relocation (DT_RELR vs gnu-efi's DT_RELA)", names[i]);
	}
}

int main(int argc, char **argv)
{
	struct elf_file fa, fb;
	struct image img;
	size_t span;
	uint8_t *mem, *expect;
	int count;

	if (argc != 3) {
		fprintf(stderr, "usage: relocate-test RELA.so RELR.so\n");
		return 2;
	}
	fa = map_elf(argv[1]);
	fb = map_elf(argv[2]);
	span = span_of(&fa) > span_of(&fb) ? span_of(&fa) : span_of(&fb);
	/* Every load below is at this one base, as firmware would choose one. */
	mem = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect = malloc(span);
	if (mem == MAP_FAILED || expect == NULL)
		die("out of memory", argv[1]);

	/* The reference: the DT_RELA link relocated as gnu-efi does. */
	img = load(&fa, mem, span, argv[1]);
	CHECK(!has_tag(&img, DT_RELR), "%s has DT_RELR (expected the DT_RELA link)", argv[1]);
	CHECK(gnu_efi_relocate(&img, &count) == 0, "%s: a relocation other than R_X86_64_RELATIVE",
	      argv[1]);
	CHECK(count > 1000, "%s: only %d relocations (expected libcrypto's thousands)", argv[1], count);
	memcpy(expect, mem, span);

	/* _relocate's DT_RELA path gives the same image. */
	img = load(&fa, mem, span, argv[1]);
	CHECK(_relocate((long)mem, img.dynamic, NULL, NULL) == EFI_SUCCESS,
	      "_relocate failed on the DT_RELA link");
	CHECK(memcmp(expect, mem, span) == 0, "_relocate (DT_RELA) differs from gnu-efi's");

	/* Its DT_RELR path gives the same code and data. */
	img = load(&fb, mem, span, argv[2]);
	CHECK(has_tag(&img, DT_RELR), "%s has no DT_RELR", argv[2]);
	CHECK(_relocate((long)mem, img.dynamic, NULL, NULL) == EFI_SUCCESS,
	      "_relocate failed on the DT_RELR link");
	compare(&fa, expect, &fb, mem);

	printf("relocate: %d passed, %d failed (%d relocations)\n", passed, failed, count);
	free(expect);
	munmap(mem, span);
	return failed != 0;
}
