// SPDX-License-Identifier: GPL-2.0-only
/*
 * shim_lock_probe.efi: a second stage that tests what the first stage that
 * started it (lockshim, or rhboot/shim) offers it, in one of two modes named
 * by its load options (lockshim passes it what follows its name in the boot
 * entry's optional data):
 *
 *   (none)      the SHIM_LOCK protocol, called directly (below)
 *   load-image  the firmware's LoadImage, which lockshim's override of the
 *               security protocols decides (load_image_cases)
 *
 * SHIM_LOCK: it calls the protocol with hostile inputs as well as the careful
 * ones GRUB and systemd-boot pass, and prints one line a call:
 *
 *   SHIMLOCK <function> <case> status=<EFI status>[ what it returned]
 *
 * then `SHIMLOCK done`, and shuts the machine down. Before the calls:
 *   SHIMLOCK protocol status=...   LocateProtocol (nothing else runs without it)
 *   SHIMLOCK guard status=...      the guard page below (Success: it is in place)
 *
 * It reads three images from its own directory: probe-signed.efi (signed by a
 * key the first stage trusts, with .sbat), probe-nosbat.efi (the same signer,
 * no .sbat) and probe-unsigned.efi. Every buffer whose size is told truly
 * ends where a page begins that the CPU cannot read (EFI_MEMORY_RP through
 * the CPU architectural protocol): a function that reads past the size it
 * was given faults (`!!!! X64 Exception Type - 0E`) instead of reading
 * whatever follows. Only size_beyond_buffer lies about its size, and its
 * buffer is an ordinary allocation of exactly the image.
 *
 * The protocol is declared as shim 16.1 exports it (shim.h, peimage.h), with
 * System V function pointers, as GRUB and systemd-boot call it: shim does not
 * mark the functions EFIAPI.
 *
 * LoadImage: for each of load_image_cases, a file in its own directory, it
 * calls BS->LoadImage(FALSE, itself, that file's device path, NULL, 0) as a
 * boot manager does (the firmware reads the file and asks Security2 about
 * the buffer), never SHIM_LOCK, and prints
 *
 *   SHIMLOCK loadimage <case> status=<EFI status>
 *   SHIMLOCK startimage <case> status=<its exit status>   when it loaded
 *
 * where the image is load_marker.efi, signed as the case needs, which prints
 * a LOADMARKER line when it runs. Then two LoadImage calls with a buffer
 * (the unsigned marker) named by another file's path and by a path with no
 * file, two with no device path at all (the unsigned marker, the MOK-signed
 * one), and one of UiApp from the firmware's volume (unloaded, not
 * started). Then `SHIMLOCK done`, and shutdown.
 *
 * Built by tests/guest/build.sh.
 */
#include <efi.h>
#include <efilib.h>

#define SHIM_LOCK_API __attribute__((sysv_abi))

#define LOAD_IMAGE_MODE L"load-image" /* the load options that select the LoadImage cases */

#define SIGNED_IMAGE   L"probe-signed.efi"
#define NOSBAT_IMAGE   L"probe-nosbat.efi"
#define UNSIGNED_IMAGE L"probe-unsigned.efi"
#define GARBAGE_SIZE   4096 /* what follows the valid image in trailing_garbage */
#define CANARY         0xcc /* fills a context before a call: what is left unset shows */

/* clang-format off */
static EFI_GUID shim_lock_guid =
	{ 0x605dab50, 0xe046, 0x4300, { 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 } };
static EFI_GUID cpu_arch_guid =
	{ 0x26baccb1, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
/* clang-format on */

/*
 * PE_COFF_LOADER_IMAGE_CONTEXT as shim 16.1 has it (include/peimage.h at tag
 * 16.1, and as Debian's shim 16.1 binary fills it): FileAlignment came into
 * this struct after 16.1, on shim's main branch (commit 1c43d5d9, 2025-10).
 * Context fills it, Hash reads it; shim 16.1 leaves image_type unset.
 */
struct image_context {
	UINT64 image_address;
	UINT64 image_size;
	UINT64 entry_point;
	UINTN size_of_headers;
	UINT16 image_type;
	UINT16 number_of_sections;
	UINT32 section_alignment;
	void *first_section; /* the pointers point into the caller's data */
	void *reloc_dir;
	void *sec_dir;
	UINT64 number_of_rva_and_sizes;
	UINT16 dll_characteristics;
	void *pe_header;
};

/* A context with bytes after it that Context must leave alone. */
struct guarded_context {
	struct image_context context;
	UINT8 canary[32];
};

struct shim_lock {
	EFI_STATUS SHIM_LOCK_API (*verify)(void *buffer, UINT32 size);
	EFI_STATUS SHIM_LOCK_API (*hash)(char *data, int datasize, struct image_context *context,
					 UINT8 *sha256, UINT8 *sha1);
	EFI_STATUS SHIM_LOCK_API (*context)(void *data, unsigned int datasize,
					    struct image_context *context);
};

/* EFI_CPU_ARCH_PROTOCOL (PI specification, volume 2): only SetMemoryAttributes is used. */
struct cpu_arch {
	void *flush_data_cache, *enable_interrupt, *disable_interrupt, *get_interrupt_state;
	void *init, *register_interrupt_handler, *get_timer_value;
	EFI_STATUS(EFIAPI *set_memory_attributes)
	(struct cpu_arch *this, EFI_PHYSICAL_ADDRESS base, UINT64 length, UINT64 attributes);
	UINT32 number_of_timers;
	UINT32 dma_buffer_alignment;
};

struct file {
	UINT8 *data; /* a pool allocation of exactly size bytes */
	UINTN size;
};

/* Pages whose last one, the guard, cannot be read while the calls run. */
struct arena {
	EFI_PHYSICAL_ADDRESS base;
	UINTN pages; /* the guard included */
	UINT8 *guard;
	struct cpu_arch *cpu;
};

static struct shim_lock *shim_lock;

static EFI_STATUS read_file(EFI_FILE_HANDLE dir, const CHAR16 *name, struct file *file)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS st;
	UINTN n;

	st = dir->Open(dir, &f, (CHAR16 *)name, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(f);
	if (!info) {
		f->Close(f);
		return EFI_DEVICE_ERROR;
	}
	n = info->FileSize;
	FreePool(info);
	file->data = AllocatePool(n);
	if (!file->data) {
		f->Close(f);
		return EFI_OUT_OF_RESOURCES;
	}
	st = f->Read(f, &n, file->data);
	f->Close(f);
	if (!EFI_ERROR(st) && n != 0)
		file->size = n;
	else if (!EFI_ERROR(st))
		st = EFI_END_OF_FILE;
	return st;
}

/* The path of the directory @self was loaded from, as a pool string ("" for the root). */
static CHAR16 *own_dir_path(EFI_LOADED_IMAGE *self)
{
	CHAR16 *path = self->FilePath ? DevicePathToStr(self->FilePath) : NULL;
	UINTN cut = 0;

	if (!path)
		return NULL;
	for (UINTN i = 0; path[i]; i++)
		if (path[i] == L'\\')
			cut = i;
	path[cut] = 0;
	return path;
}

/* The directory the probe was loaded from, opened. */
static EFI_STATUS open_own_dir(EFI_HANDLE image, EFI_FILE_HANDLE *dir)
{
	EFI_LOADED_IMAGE *self;
	EFI_FILE_HANDLE root;
	CHAR16 *path;
	EFI_STATUS st;

	st = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self);
	if (EFI_ERROR(st))
		return st;
	root = LibOpenRoot(self->DeviceHandle);
	path = own_dir_path(self);
	if (!root || !path)
		return EFI_NOT_FOUND;
	st = root->Open(root, dir, path[0] ? path : L"\\", EFI_FILE_MODE_READ, 0);
	FreePool(path);
	root->Close(root);
	return st;
}

static UINT64 read_cr3(void)
{
	UINT64 cr3;

	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
	return cr3;
}

static UINT64 read_cr4(void)
{
	UINT64 cr4;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	return cr4;
}

/*
 * Whether @va is mapped, from the 4-level page tables (identity-mapped in
 * UEFI, so their physical addresses can be read directly). Tells apart that
 * SetMemoryAttributes worked from that it only said so.
 */
static EFI_STATUS page_present(UINT64 va, BOOLEAN *present)
{
	const UINT64 addr_mask = 0x000ffffffffff000ULL;
	UINT64 *table = (UINT64 *)(read_cr3() & addr_mask);
	static const int shifts[] = { 39, 30, 21, 12 };

	if (read_cr4() & (1ULL << 12)) /* LA57: five levels, not walked here */
		return EFI_UNSUPPORTED;
	for (UINTN level = 0; level < 4; level++) {
		UINT64 entry = table[(va >> shifts[level]) & 511];

		if (!(entry & 1)) {
			*present = FALSE;
			return EFI_SUCCESS;
		}
		if (level == 3 || (level > 0 && (entry & (1 << 7)))) { /* a page, maybe large */
			*present = TRUE;
			return EFI_SUCCESS;
		}
		table = (UINT64 *)(entry & addr_mask);
	}
	return EFI_UNSUPPORTED;
}

/* Room for @max_size bytes below a guard page that no one can read. */
static EFI_STATUS arena_open(struct arena *arena, UINTN max_size)
{
	BOOLEAN present = TRUE;
	EFI_STATUS st;

	st = BS->LocateProtocol(&cpu_arch_guid, NULL, (void **)&arena->cpu);
	if (EFI_ERROR(st))
		return st;
	arena->pages = EFI_SIZE_TO_PAGES(max_size) + 1;
	st = BS->AllocatePages(AllocateAnyPages, EfiLoaderData, arena->pages, &arena->base);
	if (EFI_ERROR(st))
		return st;
	arena->guard = (UINT8 *)(UINTN)(arena->base + (arena->pages - 1) * EFI_PAGE_SIZE);
	st = arena->cpu->set_memory_attributes(arena->cpu, (UINTN)arena->guard, EFI_PAGE_SIZE,
					       EFI_MEMORY_RP);
	if (EFI_ERROR(st))
		return st;
	st = page_present((UINTN)arena->guard, &present);
	if (!EFI_ERROR(st) && present)
		st = EFI_ABORTED;
	return st;
}

static void arena_close(struct arena *arena)
{
	if (!arena->base)
		return;
	arena->cpu->set_memory_attributes(arena->cpu, (UINTN)arena->guard, EFI_PAGE_SIZE, 0);
	BS->FreePages(arena->base, arena->pages);
}

/* The first @size bytes of @file, copied so that they end where the guard page starts. */
static UINT8 *at_guard(struct arena *arena, const struct file *file, UINTN size)
{
	UINT8 *p = arena->guard - size;

	CopyMem(p, file->data, size);
	return p;
}

/* @size bytes that are no PE image (an LCG: the same bytes every run), ending at the guard. */
static UINT8 *garbage_at_guard(struct arena *arena, UINTN size)
{
	UINT8 *p = arena->guard - size;
	UINT32 x = 0x1234567;

	for (UINTN i = 0; i < size; i++) {
		x = x * 1103515245 + 12345;
		p[i] = (UINT8)(x >> 16);
	}
	return p;
}

static void verify(const CHAR16 *name, void *buffer, UINT32 size)
{
	EFI_STATUS st = shim_lock->verify(buffer, size);

	Print(L"SHIMLOCK verify %s status=%r\n", name, st);
}

static void verify_cases(struct arena *arena, const struct file *image, const struct file *nosbat,
			 const struct file *unsigned_image)
{
	UINTN n = image->size;
	UINT8 *p;

	verify(L"valid", at_guard(arena, image, n), n);
	verify(L"valid_without_sbat", at_guard(arena, nosbat, nosbat->size), nosbat->size);
	verify(L"unsigned", at_guard(arena, unsigned_image, unsigned_image->size),
	       unsigned_image->size);
	verify(L"truncated_dos_header", at_guard(arena, image, 64), 64);
	verify(L"truncated_headers", at_guard(arena, image, 512), 512);
	verify(L"truncated_half", at_guard(arena, image, n / 2), n / 2);
	verify(L"truncated_last_byte", at_guard(arena, image, n - 1), n - 1);
	verify(L"size_zero", arena->guard, 0);
	p = garbage_at_guard(arena, n + GARBAGE_SIZE);
	CopyMem(p, image->data, n);
	verify(L"trailing_garbage", p, n + GARBAGE_SIZE);
	/* the only lie about the size: past the allocation is whatever the pool holds */
	verify(L"size_beyond_buffer", image->data, n + GARBAGE_SIZE);
	verify(L"null_buffer", NULL, n);
}

/* @p's offset in @base as "+0x..", for the pointers Context returns ("null", "outside"). */
static void offset_str(CHAR16 *out, UINTN len, const void *p, const UINT8 *base, UINTN size)
{
	const UINT8 *q = p;

	if (!q)
		SPrint(out, len, L"null");
	else if (q < base || q >= base + size)
		SPrint(out, len, L"outside");
	else
		SPrint(out, len, L"+0x%lx", (UINT64)(q - base));
}

static void print_context(const CHAR16 *name, EFI_STATUS st, const struct guarded_context *g,
			  const UINT8 *data, UINTN size)
{
	const struct image_context *c = &g->context;
	CHAR16 first[24], reloc[24], sec[24], pe[24];
	BOOLEAN canary_intact = TRUE;

	for (UINTN i = 0; i < sizeof(g->canary); i++)
		canary_intact &= g->canary[i] == CANARY;
	if (EFI_ERROR(st)) {
		Print(L"SHIMLOCK context %s status=%r canary=%s\n", name, st,
		      canary_intact ? L"intact" : L"overwritten");
		return;
	}
	offset_str(first, sizeof(first), c->first_section, data, size);
	offset_str(reloc, sizeof(reloc), c->reloc_dir, data, size);
	offset_str(sec, sizeof(sec), c->sec_dir, data, size);
	offset_str(pe, sizeof(pe), c->pe_header, data, size);
	Print(L"SHIMLOCK context %s status=%r image_address=0x%lx image_size=0x%lx "
	      L"entry_point=0x%lx size_of_headers=0x%lx image_type=%d number_of_sections=%d "
	      L"section_alignment=0x%x first_section=%s reloc_dir=%s sec_dir=%s "
	      L"number_of_rva_and_sizes=%ld dll_characteristics=0x%x pe_header=%s canary=%s\n",
	      name, st, c->image_address, c->image_size, c->entry_point, (UINT64)c->size_of_headers,
	      c->image_type, c->number_of_sections, c->section_alignment, first, reloc, sec,
	      c->number_of_rva_and_sizes, c->dll_characteristics, pe,
	      canary_intact ? L"intact" : L"overwritten");
}

/* Context into @g (NULL: a NULL context), which is first filled with the canary byte. */
static void context(const CHAR16 *name, void *data, unsigned int size, struct guarded_context *g)
{
	EFI_STATUS st;

	if (g)
		SetMem(g, sizeof(*g), CANARY);
	st = shim_lock->context(data, size, g ? &g->context : NULL);
	if (g)
		print_context(name, st, g, data, size);
	else
		Print(L"SHIMLOCK context %s status=%r\n", name, st);
}

/* Context on the valid image, placed at the guard: *@valid_data and *@valid are what Hash uses. */
static void context_cases(struct arena *arena, const struct file *image, UINT8 **valid_data,
			  struct guarded_context *valid)
{
	struct guarded_context c;
	UINTN n = image->size;

	context(L"null_data", NULL, n, &c);
	context(L"null_context", at_guard(arena, image, n), n, NULL);
	context(L"size_zero", arena->guard, 0, &c);
	context(L"truncated_dos_header", at_guard(arena, image, 64), 64, &c);
	context(L"truncated_half", at_guard(arena, image, n / 2), n / 2, &c);
	context(L"not_pe", garbage_at_guard(arena, 4096), 4096, &c);
	*valid_data = at_guard(arena, image, n);
	context(L"valid", *valid_data, n, valid);
}

/* @len bytes as lowercase hex into @out, which has room for 2 * @len + 1 characters. */
static void hex_str(CHAR16 *out, const UINT8 *bytes, UINTN len)
{
	static const CHAR16 digits[] = L"0123456789abcdef";

	for (UINTN i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * len] = 0;
}

static void hash(const CHAR16 *name, void *data, int size, struct image_context *c, BOOLEAN sha256,
		 BOOLEAN sha1)
{
	UINT8 d256[32], d1[20];
	CHAR16 hex256[2 * sizeof(d256) + 1], hex1[2 * sizeof(d1) + 1];
	EFI_STATUS st;

	st = shim_lock->hash(data, size, c, sha256 ? d256 : NULL, sha1 ? d1 : NULL);
	if (EFI_ERROR(st)) {
		Print(L"SHIMLOCK hash %s status=%r\n", name, st);
		return;
	}
	hex_str(hex256, d256, sizeof(d256));
	hex_str(hex1, d1, sizeof(d1));
	Print(L"SHIMLOCK hash %s status=%r sha256=%s sha1=%s\n", name, st, hex256, hex1);
}

/* Hash of the valid image at @data, described by @c (from Context), and with lies about it. */
static void hash_cases(UINT8 *data, UINTN n, struct image_context *c)
{
	hash(L"valid", data, n, c, TRUE, TRUE);
	hash(L"null_data", NULL, n, c, TRUE, TRUE);
	hash(L"null_context", data, n, NULL, TRUE, TRUE);
	hash(L"null_sha256", data, n, c, FALSE, TRUE);
	hash(L"null_sha1", data, n, c, TRUE, FALSE);
	/* the context describes the whole image, the size only half of it */
	hash(L"truncated_half", data, n / 2, c, TRUE, TRUE);
	hash(L"size_zero", data, 0, c, TRUE, TRUE);
	hash(L"negative_size", data, -1, c, TRUE, TRUE);
}

/*
 * The LoadImage cases: load_marker.efi signed as each needs, in the probe's
 * directory. What each proves, and the status it must get, is in
 * tests/qemu/test_shim_lock.sh.
 */
static const struct {
	const CHAR16 *name;
	const CHAR16 *file;
} load_image_cases[] = {
	{ L"mok_signed", L"loadimage-mok.efi" },
	{ L"db_signed_hash_in_moklistx", L"loadimage-db-mokx.efi" },
	{ L"unsigned", L"loadimage-unsigned.efi" },
	{ L"vendor_signed_without_sbat", L"loadimage-vendor-nosbat.efi" },
	{ L"db_signed_sbat_revoked", L"loadimage-db-sbat-revoked.efi" },
};

/*
 * LoadImage of @buffer (@size bytes; NULL: the firmware reads the file) named
 * @dir\@file on @device, or by no device path at all when @file is NULL (a
 * buffer then); StartImage when it loads.
 */
static void load_image(EFI_HANDLE image, EFI_HANDLE device, const CHAR16 *dir, const CHAR16 *name,
		       const CHAR16 *file, const struct file *buffer)
{
	CHAR16 *path = file ? PoolPrint(L"%s\\%s", dir, file) : NULL;
	EFI_DEVICE_PATH *device_path = path ? FileDevicePath(device, path) : NULL;
	EFI_HANDLE loaded = NULL;
	EFI_STATUS st = EFI_OUT_OF_RESOURCES;

	if (device_path || (!file && buffer))
		st = BS->LoadImage(FALSE, image, device_path, buffer ? buffer->data : NULL,
				   buffer ? buffer->size : 0, &loaded);
	if (device_path)
		FreePool(device_path);
	if (path)
		FreePool(path);
	if (EFI_ERROR(st)) {
		/* a firmware may load an image it distrusts (Security Violation), never to start */
		Print(L"SHIMLOCK loadimage %s status=%r handle=%s\n", name, st,
		      loaded ? L"returned" : L"none");
		if (loaded)
			BS->UnloadImage(loaded);
		return;
	}
	Print(L"SHIMLOCK loadimage %s status=%r\n", name, st);
	/* an application is unloaded by the firmware when it returns */
	st = BS->StartImage(loaded, NULL, NULL);
	Print(L"SHIMLOCK startimage %s status=%r\n", name, st);
}

/* EDK2's UiApp, in every OVMF build: an application from the firmware's own volume. */
static EFI_GUID ui_app_guid = {
	0x462caa21, 0x7614, 0x4503, { 0x83, 0x6e, 0x8a, 0xb6, 0xf4, 0x66, 0x23, 0x31 }
};
static EFI_GUID firmware_volume2_guid = {
	0x220e73b6, 0x6bdb, 0x4413, { 0x84, 0x05, 0xb9, 0x74, 0xb1, 0x08, 0x61, 0x9a }
};

/* PI's firmware-file device path node (MEDIA_PIWG_FW_FILE_DP) naming @file. */
struct fv_file_node {
	EFI_DEVICE_PATH header;
	EFI_GUID file;
} __attribute__((packed));

/*
 * LoadImage of UiApp by its path in the firmware's volume, as a boot
 * manager loads a firmware application: whatever the firmware answers is
 * printed, and the image is unloaded, never started (it would take the
 * console).
 */
static void load_firmware_volume_app(EFI_HANDLE image)
{
	struct fv_file_node node = { { MEDIA_DEVICE_PATH, 6, { sizeof(node), 0 } }, ui_app_guid };
	EFI_STATUS st = EFI_NOT_FOUND;
	EFI_HANDLE *handles = NULL, loaded = NULL;
	UINTN n = 0;

	BS->LocateHandleBuffer(ByProtocol, &firmware_volume2_guid, NULL, &n, &handles);
	for (UINTN i = 0; i < n && st == EFI_NOT_FOUND; i++) {
		EFI_DEVICE_PATH *path = AppendDevicePathNode(DevicePathFromHandle(handles[i]),
							     &node.header);

		if (!path)
			continue;
		st = BS->LoadImage(FALSE, image, path, NULL, 0, &loaded);
		FreePool(path);
	}
	if (handles)
		FreePool(handles);
	Print(L"SHIMLOCK loadimage firmware_volume_app status=%r\n", st);
	if (loaded)
		BS->UnloadImage(loaded);
}

static EFI_STATUS probe_load_image(EFI_HANDLE image)
{
	struct file unsigned_image = {}, mok_image = {};
	EFI_FILE_HANDLE own_dir;
	EFI_LOADED_IMAGE *self;
	CHAR16 *dir;
	EFI_STATUS st;

	st = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self);
	if (EFI_ERROR(st))
		return st;
	dir = own_dir_path(self);
	if (!dir)
		return EFI_NOT_FOUND;
	for (UINTN i = 0; i < sizeof(load_image_cases) / sizeof(load_image_cases[0]); i++)
		load_image(image, self->DeviceHandle, dir, load_image_cases[i].name,
			   load_image_cases[i].file, NULL);
	/*
	 * A buffer under another name: what runs is the buffer, so the buffer
	 * is what must be decided, whatever the file at that path is, or
	 * whether there is one.
	 */
	st = open_own_dir(image, &own_dir);
	if (!EFI_ERROR(st))
		st = read_file(own_dir, L"loadimage-unsigned.efi", &unsigned_image);
	if (!EFI_ERROR(st)) {
		load_image(image, self->DeviceHandle, dir, L"unsigned_buffer_named_mok_signed",
			   L"loadimage-mok.efi", &unsigned_image);
		load_image(image, self->DeviceHandle, dir, L"unsigned_buffer_named_missing",
			   L"no-such-image.efi", &unsigned_image);
	}
	/*
	 * A buffer with no device path at all: the firmware shows Security2
	 * the buffer and no file, and the buffer is still what is decided:
	 * the unsigned marker refused, the MOK-signed one loaded and run (the
	 * policy decided it, rather than a refusal of every nameless buffer).
	 */
	if (!EFI_ERROR(st))
		st = read_file(own_dir, L"loadimage-mok.efi", &mok_image);
	if (!EFI_ERROR(st)) {
		load_image(image, NULL, NULL, L"unsigned_buffer_without_path", NULL,
			   &unsigned_image);
		load_image(image, NULL, NULL, L"mok_signed_buffer_without_path", NULL, &mok_image);
		FreePool(mok_image.data);
	}
	if (unsigned_image.data)
		FreePool(unsigned_image.data);
	load_firmware_volume_app(image);
	FreePool(dir);
	return st;
}

static EFI_STATUS probe_shim_lock(EFI_HANDLE image)
{
	struct file signed_image = {}, nosbat = {}, unsigned_image = {};
	struct guarded_context valid_context;
	struct arena arena = {};
	EFI_FILE_HANDLE dir;
	UINT8 *valid_data;
	UINTN arena_size;
	EFI_STATUS st;

	st = BS->LocateProtocol(&shim_lock_guid, NULL, (void **)&shim_lock);
	Print(L"SHIMLOCK protocol status=%r\n", st);
	if (EFI_ERROR(st))
		return st;

	st = open_own_dir(image, &dir);
	if (!EFI_ERROR(st))
		st = read_file(dir, SIGNED_IMAGE, &signed_image);
	if (!EFI_ERROR(st))
		st = read_file(dir, NOSBAT_IMAGE, &nosbat);
	if (!EFI_ERROR(st))
		st = read_file(dir, UNSIGNED_IMAGE, &unsigned_image);
	if (EFI_ERROR(st)) {
		Print(L"SHIMLOCK images status=%r\n", st);
		return st;
	}

	arena_size = signed_image.size + GARBAGE_SIZE;
	if (nosbat.size > arena_size)
		arena_size = nosbat.size;
	if (unsigned_image.size > arena_size)
		arena_size = unsigned_image.size;
	st = arena_open(&arena, arena_size);
	Print(L"SHIMLOCK guard status=%r\n", st);
	if (!EFI_ERROR(st)) {
		verify_cases(&arena, &signed_image, &nosbat, &unsigned_image);
		context_cases(&arena, &signed_image, &valid_data, &valid_context);
		hash_cases(valid_data, signed_image.size, &valid_context.context);
	}
	arena_close(&arena);
	return st;
}

/* Whether the probe's load options are exactly @mode. */
static BOOLEAN started_with(EFI_HANDLE image, const CHAR16 *mode)
{
	UINTN size = (StrLen(mode) + 1) * sizeof(CHAR16);
	EFI_LOADED_IMAGE *self;

	if (EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self)))
		return FALSE;
	return self->LoadOptions && self->LoadOptionsSize == size &&
	       CompareMem(self->LoadOptions, mode, size) == 0;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_STATUS st;

	InitializeLib(image, systab);
	if (started_with(image, LOAD_IMAGE_MODE)) {
		Print(L"SHIMLOCK probe started: %s\n", LOAD_IMAGE_MODE);
		st = probe_load_image(image);
	} else {
		Print(L"SHIMLOCK probe started\n");
		st = probe_shim_lock(image);
	}
	Print(L"SHIMLOCK done status=%r\n", st);
	RT->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return st;
}
