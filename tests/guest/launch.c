// SPDX-License-Identifier: GPL-2.0-only
/*
 * launch.efi: a stand-in boot manager for the kernel lockdown tests.
 *
 * Booted as \EFI\BOOT\BOOTX64.EFI, it reads \EFI\BOOT\launch.cfg from its own
 * volume, optionally installs a lockshim lockdown table of its own (valid or
 * broken), and starts an image with load options, as a Boot#### entry with
 * optional data would. That lets the tests
 *   - give the kernel a command line without writing boot entries into the
 *     firmware's variables (SB off: start the kernel directly; SB on, signed
 *     with db: start lockshim with "vmlinuz.efi <command line>"), and
 *   - feed the kernel tables that lockshim would never produce.
 *
 * launch.cfg: ASCII lines KEY=VALUE ('#' starts a comment)
 *   image=PATH           the image to start (default \EFI\BOOT\vmlinuz.efi)
 *   options=TEXT         its load options (UCS-2 with a NUL, as the firmware's
 *                        boot manager passes a Boot#### entry's optional data)
 *   table=PATH           install this file as the lockshim table
 *   table_memory=runtime|boot|loader   EFI memory type for it (default runtime)
 *   table_placement=start|cross        start: at the start of its allocation;
 *                        cross: the header ends a page whose next page is in
 *                        another EFI memory descriptor, so a table whose
 *                        total_size goes beyond the header crosses it
 *   table_address=HEX    install this address as the table (no file)
 *   security=alone       make the firmware look older than PI 1.2.1 (Security
 *                        without Security2) to what it starts: Security2 is
 *                        uninstalled, and the firmware's calls to it, which
 *                        it keeps making, go to Security's
 *                        FileAuthenticationState with the device path only
 *                        (EDK2's Security handlers check nothing: a
 *                        first stage that defers to them lets anything in)
 *   acpi_rsdp=v1         append "acpi_rsdp=0x<address>" to the options: the
 *                        firmware's ACPI 1.0 RSDP, which the kernel would not
 *                        pick itself (it takes the ACPI 2.0 one), so the boot
 *                        log shows whether acpi_rsdp= was followed
 *   entry=boot-protocol  do not LoadImage/StartImage the image: load it as a
 *                        bzImage and enter it as a legacy loader does (old
 *                        GRUB's linux command, elilo, kexec_load), through the
 *                        x86 64-bit boot protocol (Documentation/arch/x86/
 *                        boot.rst) at startup_64, after ExitBootServices, with
 *                        no EFI stub: boot_params carries the EFI system table,
 *                        the final memory map and an e820 table made from it,
 *                        and leaves secure_boot 0 (unset), which the stub
 *                        would have filled. options= is its command line
 *                        (ASCII). Needs protocol 2.12, a 64-bit entry and a
 *                        relocatable kernel; refuses anything else. Its last
 *                        lines, before ExitBootServices (nothing prints
 *                        after): "launch: firmware SecureBoot=N; ..." and
 *                        "launch: entering PATH ... through the 64-bit boot
 *                        protocol, no EFI stub: ..."
 *   initrd=PATH          with entry=boot-protocol: load this file as the
 *                        initrd (ramdisk_image); nothing else would, since
 *                        initrd= on the command line is the stub's
 *
 * Prints "launch: ..." lines on the console. Built by tests/guest/build.sh.
 */
#include <efi.h>
#include <efilib.h>

static EFI_GUID lockshim_table_guid = {
	0x85eec472, 0xa2a6, 0x46f8, { 0x87, 0x2c, 0xff, 0x2c, 0xe7, 0x41, 0xed, 0x80 }
};

#define MAX_LINE 1024

static CHAR8 cfg_image[MAX_LINE], cfg_options[MAX_LINE], cfg_table[MAX_LINE];
static CHAR8 cfg_memory[32], cfg_placement[32], cfg_address[32], cfg_acpi_rsdp[8];
static CHAR8 cfg_security[16], cfg_entry[32], cfg_initrd[MAX_LINE];

static EFI_STATUS read_file(EFI_FILE_HANDLE root, CHAR16 *path, void **data, UINTN *size)
{
	EFI_FILE_HANDLE f;
	EFI_FILE_INFO *info;
	EFI_STATUS st;
	UINTN n;

	st = uefi_call_wrapper(root->Open, 5, root, &f, path, EFI_FILE_MODE_READ, 0);
	if (EFI_ERROR(st))
		return st;
	info = LibFileInfo(f);
	if (!info) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_DEVICE_ERROR;
	}
	n = info->FileSize;
	FreePool(info);
	*data = AllocatePool(n + 1);
	if (!*data) {
		uefi_call_wrapper(f->Close, 1, f);
		return EFI_OUT_OF_RESOURCES;
	}
	st = uefi_call_wrapper(f->Read, 3, f, &n, *data);
	uefi_call_wrapper(f->Close, 1, f);
	if (EFI_ERROR(st)) {
		FreePool(*data);
		return st;
	}
	((CHAR8 *)*data)[n] = 0;
	*size = n;
	return EFI_SUCCESS;
}

static void copy_value(CHAR8 *dst, UINTN max, const CHAR8 *src, UINTN len)
{
	if (len >= max)
		len = max - 1;
	CopyMem(dst, (void *)src, len);
	dst[len] = 0;
}

static int key_is(const CHAR8 *line, UINTN klen, const char *key)
{
	UINTN i;

	for (i = 0; i < klen; i++)
		if (!key[i] || line[i] != (CHAR8)key[i])
			return 0;
	return key[klen] == 0;
}

static void parse_cfg(const CHAR8 *text, UINTN size)
{
	UINTN i = 0;

	while (i < size) {
		UINTN start = i, end, eq;

		while (i < size && text[i] != '\n')
			i++;
		end = i++;
		while (end > start && (text[end - 1] == '\r' || text[end - 1] == ' '))
			end--;
		if (end == start || text[start] == '#')
			continue;
		for (eq = start; eq < end && text[eq] != '='; eq++)
			;
		if (eq == end)
			continue;
#define VALUE(key, buf) \
		if (key_is(text + start, eq - start, key)) \
			copy_value(buf, sizeof(buf), text + eq + 1, end - eq - 1)
		VALUE("image", cfg_image);
		VALUE("options", cfg_options);
		VALUE("table", cfg_table);
		VALUE("table_memory", cfg_memory);
		VALUE("table_placement", cfg_placement);
		VALUE("table_address", cfg_address);
		VALUE("acpi_rsdp", cfg_acpi_rsdp);
		VALUE("security", cfg_security);
		VALUE("entry", cfg_entry);
		VALUE("initrd", cfg_initrd);
#undef VALUE
	}
}

static CHAR16 *to_ucs2(const CHAR8 *s)
{
	UINTN n = strlena((CHAR8 *)s), i;
	CHAR16 *w = AllocatePool((n + 1) * sizeof(CHAR16));

	if (!w)
		return NULL;
	for (i = 0; i < n; i++)
		w[i] = s[i];
	w[n] = 0;
	return w;
}

static int str_eq(const CHAR8 *a, const char *b)
{
	return strcmpa((CHAR8 *)a, (CHAR8 *)b) == 0;
}

static UINT64 parse_hex(const CHAR8 *s)
{
	UINT64 v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		v = v * 16 + d;
	}
	return v;
}

/*
 * A page of @type at the top of a free region whose next descriptor is of
 * another type than @type (so it cannot merge with our page).
 */
static EFI_STATUS alloc_page_before_boundary(EFI_MEMORY_TYPE type, EFI_PHYSICAL_ADDRESS *out)
{
	EFI_MEMORY_DESCRIPTOR *map, *md, *next;
	UINTN entries, key, dsize, i;
	UINT32 dver;
	EFI_STATUS st;

	map = LibMemoryMap(&entries, &key, &dsize, &dver);
	if (!map)
		return EFI_OUT_OF_RESOURCES;
	st = EFI_NOT_FOUND;
	for (i = 0; i + 1 < entries; i++) {
		md = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + i * dsize);
		next = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + (i + 1) * dsize);
		if (md->Type != EfiConventionalMemory || md->NumberOfPages < 2)
			continue;
		if (md->PhysicalStart < 0x100000 || md->PhysicalStart >= 0x100000000ULL)
			continue;
		if (next->PhysicalStart != md->PhysicalStart + md->NumberOfPages * 4096 ||
		    next->Type == (UINT32)type || next->Type == EfiConventionalMemory)
			continue;
		*out = next->PhysicalStart - 4096;
		st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAddress, type, 1, out);
		if (!EFI_ERROR(st))
			break;
	}
	FreePool(map);
	return st;
}

static EFI_STATUS install_table(EFI_FILE_HANDLE root)
{
	EFI_MEMORY_TYPE type = EfiRuntimeServicesData;
	EFI_PHYSICAL_ADDRESS addr;
	const char *tname = "runtime";
	void *data, *table;
	UINTN size, pages;
	EFI_STATUS st;
	CHAR16 *path;

	if (cfg_address[0]) {
		addr = parse_hex(cfg_address);
		st = uefi_call_wrapper(BS->InstallConfigurationTable, 2, &lockshim_table_guid,
				       (void *)addr);
		Print(L"launch: installed table address 0x%lx (no table there): %r\n", addr, st);
		return st;
	}
	if (!cfg_table[0])
		return EFI_SUCCESS;

	if (str_eq(cfg_memory, "boot")) {
		type = EfiBootServicesData;
		tname = "boot services";
	} else if (str_eq(cfg_memory, "loader")) {
		type = EfiLoaderData;
		tname = "loader";
	}
	path = to_ucs2(cfg_table);
	st = read_file(root, path, &data, &size);
	if (EFI_ERROR(st)) {
		Print(L"launch: cannot read %s: %r\n", path, st);
		return st;
	}

	if (str_eq(cfg_placement, "cross")) {
		/* the table's own header_size (offset 10): its header ends the page */
		UINTN hs = size >= 12 ? (UINTN)((UINT8 *)data)[10] | (UINTN)((UINT8 *)data)[11] << 8 : size;
		UINTN head = size < hs ? size : hs;

		st = alloc_page_before_boundary(type, &addr);
		if (EFI_ERROR(st)) {
			Print(L"launch: no page before a descriptor boundary: %r\n", st);
			return st;
		}
		table = (void *)(addr + 4096 - head);
		CopyMem(table, data, head);
	} else {
		pages = (size + 4095) / 4096;
		st = uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages, type, pages, &addr);
		if (EFI_ERROR(st)) {
			Print(L"launch: AllocatePages: %r\n", st);
			return st;
		}
		table = (void *)addr;
		CopyMem(table, data, size);
	}
	st = uefi_call_wrapper(BS->InstallConfigurationTable, 2, &lockshim_table_guid, table);
	Print(L"launch: installed %s (%d bytes) at 0x%lx in %a memory%a: %r\n", path, size,
	      (UINT64)table, tname, str_eq(cfg_placement, "cross") ? " before a descriptor boundary" : "",
	      st);
	return st;
}

/* Append " acpi_rsdp=0x<ACPI 1.0 RSDP>" to cfg_options. */
static EFI_STATUS append_acpi_rsdp_v1(void)
{
	static const char digits[] = "0123456789abcdef";
	CHAR8 arg[40] = " acpi_rsdp=0x";
	UINTN len = strlena(cfg_options), n = strlena(arg);
	void *rsdp;
	UINT64 a;
	int shift;

	if (EFI_ERROR(LibGetSystemConfigurationTable(&AcpiTableGuid, &rsdp)))
		return EFI_NOT_FOUND;
	a = (UINT64)(UINTN)rsdp;
	for (shift = 60; shift >= 0; shift -= 4)
		arg[n++] = digits[(a >> shift) & 0xf];
	arg[n] = 0;
	if (len + n >= sizeof(cfg_options))
		return EFI_BUFFER_TOO_SMALL;
	CopyMem(cfg_options + len, arg, n + 1);
	return EFI_SUCCESS;
}

/* PI, volume 2: the security architectural protocols, as the firmware calls them. */
static EFI_GUID security_guid = {
	0xa46423e3, 0x4617, 0x49f1, { 0xb9, 0xff, 0xd1, 0xbf, 0xa9, 0x11, 0x58, 0x39 }
};
static EFI_GUID security2_guid = {
	0x94ab2f58, 0x1438, 0x4ef1, { 0x91, 0x52, 0x18, 0x94, 0x1a, 0x3a, 0x0e, 0x68 }
};

struct security_protocol {
	EFI_STATUS(EFIAPI *file_authentication_state)
	(struct security_protocol *this, UINT32 status, EFI_DEVICE_PATH *file);
};
struct security2_protocol {
	EFI_STATUS(EFIAPI *file_authentication)
	(struct security2_protocol *this, EFI_DEVICE_PATH *file, VOID *buffer, UINTN size,
	 BOOLEAN boot_policy);
};

static struct security_protocol *security;

/* Security2 as an older firmware would have it: Security, told only the path. */
static EFI_STATUS EFIAPI security2_as_security(struct security2_protocol *this,
					       EFI_DEVICE_PATH *file, VOID *buffer, UINTN size,
					       BOOLEAN boot_policy)
{
	(void)this, (void)buffer, (void)size, (void)boot_policy;
	return security->file_authentication_state(security, 0, file);
}

/* security=alone (above). */
static EFI_STATUS leave_security_alone(void)
{
	struct security2_protocol *security2;
	EFI_HANDLE handle;
	UINTN size = sizeof(handle);
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->LocateProtocol, 3, &security_guid, NULL, (void **)&security);
	if (!EFI_ERROR(st))
		st = uefi_call_wrapper(BS->LocateProtocol, 3, &security2_guid, NULL,
				       (void **)&security2);
	if (!EFI_ERROR(st))
		st = uefi_call_wrapper(BS->LocateHandle, 5, ByProtocol, &security2_guid, NULL, &size,
				       &handle);
	if (EFI_ERROR(st))
		return st;
	security2->file_authentication = security2_as_security;
	st = uefi_call_wrapper(BS->UninstallProtocolInterface, 3, handle, &security2_guid,
			       security2);
	Print(L"launch: Security2 uninstalled, its calls go to Security: %r\n", st);
	return st;
}

/* ---- entry=boot-protocol: the x86 64-bit boot protocol, no EFI stub ---- */

/* The setup header, as arch/x86/include/uapi/asm/bootparam.h lays it out. */
struct setup_header {
	UINT8 setup_sects;
	UINT16 root_flags;
	UINT32 syssize;
	UINT16 ram_size;
	UINT16 vid_mode;
	UINT16 root_dev;
	UINT16 boot_flag;
	UINT16 jump;
	UINT32 header;
	UINT16 version;
	UINT32 realmode_swtch;
	UINT16 start_sys_seg;
	UINT16 kernel_version;
	UINT8 type_of_loader;
	UINT8 loadflags;
	UINT16 setup_move_size;
	UINT32 code32_start;
	UINT32 ramdisk_image;
	UINT32 ramdisk_size;
	UINT32 bootsect_kludge;
	UINT16 heap_end_ptr;
	UINT8 ext_loader_ver;
	UINT8 ext_loader_type;
	UINT32 cmd_line_ptr;
	UINT32 initrd_addr_max;
	UINT32 kernel_alignment;
	UINT8 relocatable_kernel;
	UINT8 min_alignment;
	UINT16 xloadflags;
	UINT32 cmdline_size;
	UINT32 hardware_subarch;
	UINT64 hardware_subarch_data;
	UINT32 payload_offset;
	UINT32 payload_length;
	UINT64 setup_data;
	UINT64 pref_address;
	UINT32 init_size;
	UINT32 handover_offset;
	UINT32 kernel_info_offset;
} __attribute__((packed));

struct e820_entry {
	UINT64 addr;
	UINT64 size;
	UINT32 type;
} __attribute__((packed));

#define E820_MAX_ZEROPAGE 128

/* The "zero page": only the fields a loader fills are named. */
struct boot_params {
	UINT8 before_ext_ramdisk[0x0c0];
	UINT32 ext_ramdisk_image;		/* 0x0c0 */
	UINT32 ext_ramdisk_size;		/* 0x0c4 */
	UINT32 ext_cmd_line_ptr;		/* 0x0c8 */
	UINT8 before_efi_info[0x1c0 - 0x0cc];
	UINT32 efi_loader_signature;		/* 0x1c0 */
	UINT32 efi_systab;
	UINT32 efi_memdesc_size;
	UINT32 efi_memdesc_version;
	UINT32 efi_memmap;
	UINT32 efi_memmap_size;
	UINT32 efi_systab_hi;
	UINT32 efi_memmap_hi;
	UINT8 before_e820_entries[0x1e8 - 0x1e0];
	UINT8 e820_entries;			/* 0x1e8 */
	UINT8 before_secure_boot[3];
	UINT8 secure_boot;			/* 0x1ec */
	UINT8 before_hdr[0x1f1 - 0x1ed];
	struct setup_header hdr;		/* 0x1f1 */
	UINT8 before_e820_table[0x2d0 - 0x1f1 - sizeof(struct setup_header)];
	struct e820_entry e820_table[E820_MAX_ZEROPAGE]; /* 0x2d0 */
	UINT8 after_e820_table[0x1000 - 0xcd0];
} __attribute__((packed));

_Static_assert(__builtin_offsetof(struct boot_params, efi_loader_signature) == 0x1c0, "efi_info");
_Static_assert(__builtin_offsetof(struct boot_params, secure_boot) == 0x1ec, "secure_boot");
_Static_assert(__builtin_offsetof(struct boot_params, hdr.init_size) == 0x260, "init_size");
_Static_assert(__builtin_offsetof(struct boot_params, e820_table) == 0x2d0, "e820_table");
_Static_assert(sizeof(struct boot_params) == 0x1000, "boot_params is a page");

#define SETUP_HEADER_OFFSET 0x1f1
#define BOOT_FLAG 0xaa55
#define HDRS_MAGIC 0x53726448		/* "HdrS" */
#define MIN_PROTOCOL 0x020c		/* 2.12: xloadflags, 64-bit entry */
#define XLF_KERNEL_64 0x1
#define LOADER_UNDEFINED 0xff		/* type_of_loader: no assigned ID */
#define EFI64_LOADER_SIGNATURE 0x34364c45 /* "EL64" */
#define STARTUP_64_OFFSET 0x200
#define BELOW_4G 0xffffffffULL
#define EFI_PERSISTENT_MEMORY 14	/* UEFI 2.5; gnu-efi's enum stops at PalCode */

enum { E820_RAM = 1, E820_RESERVED = 2, E820_ACPI = 3, E820_NVS = 4, E820_UNUSABLE = 5,
       E820_PMEM = 7 };

/* The bzImage's shape, checked once: where each part is and what it needs. */
struct bzimage {
	const UINT8 *file;
	UINTN file_size;
	const struct setup_header *hdr;
	UINTN header_end;	/* 0x202 + the jump's offset byte: end of the setup header */
	UINTN setup_size;	/* boot sector + setup_sects sectors */
	UINTN kernel_size;	/* the protected-mode part: the rest of the file */
};

static EFI_STATUS refuse_image(const CHAR16 *path, const char *why)
{
	Print(L"launch: refusing %s for the 64-bit boot protocol: %a\n", path, why);
	return EFI_UNSUPPORTED;
}

static EFI_STATUS parse_bzimage(const CHAR16 *path, const void *file, UINTN size,
				struct bzimage *bz)
{
	const struct setup_header *hdr = (const void *)((const UINT8 *)file + SETUP_HEADER_OFFSET);
	UINTN sects;

	if (size < SETUP_HEADER_OFFSET + sizeof(*hdr))
		return refuse_image(path, "file too short for a setup header");
	if (hdr->boot_flag != BOOT_FLAG || hdr->header != HDRS_MAGIC)
		return refuse_image(path, "no boot flag 0xaa55 and \"HdrS\" (not a bzImage)");
	if (hdr->version < MIN_PROTOCOL)
		return refuse_image(path, "boot protocol older than 2.12");
	if (!(hdr->xloadflags & XLF_KERNEL_64))
		return refuse_image(path, "no 64-bit entry (XLF_KERNEL_64)");
	if (!hdr->relocatable_kernel)
		return refuse_image(path, "kernel not relocatable");
	if (!hdr->kernel_alignment || (hdr->kernel_alignment & (hdr->kernel_alignment - 1)))
		return refuse_image(path, "kernel_alignment not a power of two");
	bz->header_end = 0x202 + ((const UINT8 *)file)[0x201];
	if (bz->header_end > SETUP_HEADER_OFFSET + sizeof(*hdr))
		/* fields newer than ours: not ours to copy */
		bz->header_end = SETUP_HEADER_OFFSET + sizeof(*hdr);
	sects = hdr->setup_sects ? hdr->setup_sects : 4;
	bz->setup_size = (sects + 1) * 512;
	if (bz->setup_size >= size)
		return refuse_image(path, "setup sectors go beyond the file");
	bz->kernel_size = size - bz->setup_size;
	if ((UINT64)hdr->syssize * 16 > bz->kernel_size)
		return refuse_image(path, "syssize goes beyond the file");
	if (bz->kernel_size > hdr->init_size)
		return refuse_image(path, "init_size smaller than the protected-mode part");
	if ((UINT64)hdr->init_size + hdr->kernel_alignment > BELOW_4G)
		return refuse_image(path, "init_size and kernel_alignment overflow 4 GiB");
	bz->file = file;
	bz->file_size = size;
	bz->hdr = hdr;
	return EFI_SUCCESS;
}

/* @bytes of pages of @type at or below @max. */
static EFI_STATUS alloc_pages_below(EFI_MEMORY_TYPE type, UINT64 max, UINT64 bytes,
				    EFI_PHYSICAL_ADDRESS *addr)
{
	*addr = max;
	return uefi_call_wrapper(BS->AllocatePages, 4, AllocateMaxAddress, type,
				 EFI_SIZE_TO_PAGES(bytes), addr);
}

/*
 * The protected-mode part at an address aligned to kernel_alignment with
 * init_size bytes from there: startup_64 decompresses in place, at its load
 * address rounded up to kernel_alignment, but never below the address it
 * was linked for (pref_address), which would be outside these pages.
 */
static EFI_STATUS load_protected_mode(const struct bzimage *bz, EFI_PHYSICAL_ADDRESS *load)
{
	UINT64 align = bz->hdr->kernel_alignment;
	EFI_PHYSICAL_ADDRESS base;
	EFI_STATUS st;

	/* code: a firmware that maps loader data no-execute still runs it */
	st = alloc_pages_below(EfiLoaderCode, BELOW_4G, (UINT64)bz->hdr->init_size + align, &base);
	if (EFI_ERROR(st)) {
		Print(L"launch: no %d bytes below 4 GiB for the kernel: %r\n", bz->hdr->init_size,
		      st);
		return st;
	}
	*load = (base + align - 1) & ~(align - 1);
	if (*load < bz->hdr->pref_address) {
		Print(L"launch: the kernel's pages at 0x%lx are below its pref_address 0x%lx\n",
		      *load, bz->hdr->pref_address);
		uefi_call_wrapper(BS->FreePages, 2, base,
				  EFI_SIZE_TO_PAGES((UINT64)bz->hdr->init_size + align));
		return EFI_OUT_OF_RESOURCES;
	}
	CopyMem((void *)*load, (void *)(bz->file + bz->setup_size), bz->kernel_size);
	return EFI_SUCCESS;
}

/* initrd=PATH into pages below initrd_addr_max. */
static EFI_STATUS load_initrd(EFI_FILE_HANDLE root, const struct setup_header *hdr,
			      EFI_PHYSICAL_ADDRESS *addr, UINTN *size)
{
	CHAR16 *path;
	void *data;
	EFI_STATUS st;

	*addr = 0;
	*size = 0;
	if (!cfg_initrd[0])
		return EFI_SUCCESS;
	path = to_ucs2(cfg_initrd);
	if (!path)
		return EFI_OUT_OF_RESOURCES;
	st = read_file(root, path, &data, size);
	if (EFI_ERROR(st)) {
		Print(L"launch: cannot read initrd %s: %r\n", path, st);
		return st;
	}
	if (!*size) {
		Print(L"launch: initrd %s is empty\n", path);
		FreePool(data);
		return EFI_INVALID_PARAMETER;
	}
	st = alloc_pages_below(EfiLoaderData, hdr->initrd_addr_max, *size, addr);
	if (EFI_ERROR(st)) {
		Print(L"launch: no %d bytes below initrd_addr_max 0x%x for %s: %r\n", *size,
		      hdr->initrd_addr_max, path, st);
		FreePool(data);
		return st;
	}
	CopyMem((void *)*addr, data, *size);
	FreePool(data);
	return EFI_SUCCESS;
}

/* options= as the ASCII command line, NUL-terminated, within cmdline_size. */
static EFI_STATUS place_cmdline(const struct setup_header *hdr, EFI_PHYSICAL_ADDRESS *addr)
{
	UINTN len = strlena(cfg_options);
	EFI_STATUS st;

	if (len > hdr->cmdline_size) {
		Print(L"launch: command line of %d bytes, the kernel takes %d\n", len,
		      hdr->cmdline_size);
		return EFI_BAD_BUFFER_SIZE;
	}
	st = alloc_pages_below(EfiLoaderData, BELOW_4G, len + 1, addr);
	if (EFI_ERROR(st))
		return st;
	CopyMem((void *)*addr, cfg_options, len + 1);
	return EFI_SUCCESS;
}

/* The zero page, as a loader that is not the stub leaves it: secure_boot 0. */
static EFI_STATUS make_boot_params(const struct bzimage *bz, EFI_PHYSICAL_ADDRESS cmdline,
				   EFI_PHYSICAL_ADDRESS initrd, UINTN initrd_size,
				   struct boot_params **out)
{
	struct boot_params *bp;
	EFI_PHYSICAL_ADDRESS addr;
	EFI_STATUS st;

	st = alloc_pages_below(EfiLoaderData, BELOW_4G, sizeof(*bp), &addr);
	if (EFI_ERROR(st))
		return st;
	bp = (void *)addr;
	ZeroMem(bp, sizeof(*bp));
	CopyMem(&bp->hdr, (void *)(bz->file + SETUP_HEADER_OFFSET),
		bz->header_end - SETUP_HEADER_OFFSET);
	bp->hdr.type_of_loader = LOADER_UNDEFINED;
	bp->hdr.cmd_line_ptr = (UINT32)cmdline;
	bp->ext_cmd_line_ptr = (UINT32)(cmdline >> 32);
	bp->hdr.ramdisk_image = (UINT32)initrd;
	bp->ext_ramdisk_image = (UINT32)(initrd >> 32);
	bp->hdr.ramdisk_size = (UINT32)initrd_size;
	bp->ext_ramdisk_size = (UINT32)((UINT64)initrd_size >> 32);
	bp->efi_loader_signature = EFI64_LOADER_SIGNATURE;
	bp->efi_systab = (UINT32)(UINTN)ST;
	bp->efi_systab_hi = (UINT32)((UINT64)(UINTN)ST >> 32);
	*out = bp;
	return EFI_SUCCESS;
}

/*
 * An EFI memory type as the stub's setup_e820() maps it, except that what
 * it skips (types it does not know) or accepts first (unaccepted memory) is
 * reserved here: a loader that accepts nothing must not offer it as RAM.
 */
static UINT32 e820_type_of(UINT32 efi_type)
{
	switch (efi_type) {
	case EfiLoaderCode:
	case EfiLoaderData:
	case EfiBootServicesCode:
	case EfiBootServicesData:
	case EfiConventionalMemory:
		return E820_RAM;
	case EfiACPIReclaimMemory:
		return E820_ACPI;
	case EfiACPIMemoryNVS:
		return E820_NVS;
	case EfiUnusableMemory:
		return E820_UNUSABLE;
	case EFI_PERSISTENT_MEMORY:
		return E820_PMEM;
	default:
		return E820_RESERVED;
	}
}

/*
 * boot_params' efi_info and e820 table from the memory map that
 * ExitBootServices is given. Prints nothing: it runs between a failed
 * ExitBootServices and its retry too. More than 128 ranges: too small.
 */
static EFI_STATUS describe_memory(struct boot_params *bp, EFI_MEMORY_DESCRIPTOR *map,
				  UINTN map_size, UINTN desc_size, UINT32 desc_version)
{
	struct e820_entry *prev = NULL;
	UINTN n = 0, i;

	bp->efi_memdesc_size = (UINT32)desc_size;
	bp->efi_memdesc_version = desc_version;
	bp->efi_memmap = (UINT32)(UINTN)map;
	bp->efi_memmap_hi = (UINT32)((UINT64)(UINTN)map >> 32);
	bp->efi_memmap_size = (UINT32)map_size;
	for (i = 0; i + desc_size <= map_size; i += desc_size) {
		EFI_MEMORY_DESCRIPTOR *md = (void *)((UINT8 *)map + i);
		UINT32 type = e820_type_of(md->Type);
		UINT64 size = md->NumberOfPages * EFI_PAGE_SIZE;

		if (prev && prev->type == type && prev->addr + prev->size == md->PhysicalStart) {
			prev->size += size;
			continue;
		}
		if (n == E820_MAX_ZEROPAGE)
			return EFI_BUFFER_TOO_SMALL;
		prev = &bp->e820_table[n++];
		prev->addr = md->PhysicalStart;
		prev->size = size;
		prev->type = type;
	}
	bp->e820_entries = (UINT8)n;
	return EFI_SUCCESS;
}

/*
 * The final memory map into boot_params, then ExitBootServices with its key;
 * once more with a fresh map if the key was stale (EFI_INVALID_PARAMETER).
 * Only GetMemoryMap may come between the two calls: no Print.
 */
static EFI_STATUS exit_boot_services(EFI_HANDLE image, struct boot_params *bp)
{
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	UINTN buf_size = 0, map_size, key, desc_size;
	UINT32 desc_version;
	EFI_STATUS st;
	int attempt;

	st = uefi_call_wrapper(BS->GetMemoryMap, 5, &buf_size, map, &key, &desc_size,
			       &desc_version);
	if (st != EFI_BUFFER_TOO_SMALL)
		return st;
	/* room for what this allocation and the firmware add to the map */
	buf_size += 16 * desc_size;
	map = AllocatePool(buf_size);
	if (!map)
		return EFI_OUT_OF_RESOURCES;
	for (attempt = 0; attempt < 2; attempt++) {
		map_size = buf_size;
		st = uefi_call_wrapper(BS->GetMemoryMap, 5, &map_size, map, &key, &desc_size,
				       &desc_version);
		if (EFI_ERROR(st))
			return st;
		st = describe_memory(bp, map, map_size, desc_size, desc_version);
		if (EFI_ERROR(st)) {
			if (attempt == 0)
				Print(L"launch: the memory map needs more than %d e820 entries\n",
				      E820_MAX_ZEROPAGE);
			return st;
		}
		st = uefi_call_wrapper(BS->ExitBootServices, 2, image, key);
		if (st != EFI_INVALID_PARAMETER)
			return st;
	}
	return st;
}

/*
 * startup_64 as the protocol asks: interrupts off, a GDT with __BOOT_CS
 * (0x10, 64-bit code) and __BOOT_DS (0x18, data) loaded into the segment
 * registers, RSI = boot_params. The firmware's identity map stays.
 */
static void __attribute__((noreturn)) enter_startup_64(UINT64 entry, struct boot_params *bp)
{
	static const UINT64 gdt[4] __attribute__((aligned(16))) = {
		0, 0,
		0x00af9a000000ffffULL,	/* 0x10: code, L=1, present, DPL 0 */
		0x00cf92000000ffffULL,	/* 0x18: data, 4 GiB, writable */
	};
	struct {
		UINT16 limit;
		UINT64 base;
	} __attribute__((packed)) gdtr = { sizeof(gdt) - 1, (UINT64)(UINTN)gdt };

	__asm__ volatile("cli\n\t"
			 "lgdt %0\n\t"
			 "movl $0x18, %%eax\n\t"
			 "movl %%eax, %%ds\n\t"
			 "movl %%eax, %%es\n\t"
			 "movl %%eax, %%ss\n\t"
			 "pushq $0x10\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movq %1, %%rsi\n\t"
			 "jmp *%2"
			 :
			 : "m"(gdtr), "r"(bp), "r"(entry)
			 : "rax", "rsi", "memory");
	__builtin_unreachable();
}

/* What the stub would have told the kernel, for the log to compare. */
static void print_firmware_secure_boot(void)
{
	UINT8 *sb;
	UINTN size;

	sb = LibGetVariableAndSize(L"SecureBoot", &EfiGlobalVariable, &size);
	if (sb && size == 1)
		Print(L"launch: firmware SecureBoot=%d", *sb);
	else
		Print(L"launch: firmware SecureBoot unreadable");
	Print(L"; boot_params.secure_boot left 0 (unset)\n");
	if (sb)
		FreePool(sb);
}

/* entry=boot-protocol (above): returns only if it could not enter the kernel. */
static EFI_STATUS enter_through_boot_protocol(EFI_HANDLE image, EFI_FILE_HANDLE root,
					      CHAR16 *image_path)
{
	EFI_PHYSICAL_ADDRESS load, cmdline, initrd;
	struct boot_params *bp;
	struct bzimage bz;
	UINTN file_size, initrd_size;
	void *file;
	EFI_STATUS st;

	st = read_file(root, image_path, &file, &file_size);
	if (EFI_ERROR(st)) {
		Print(L"launch: cannot read %s: %r\n", image_path, st);
		return st;
	}
	st = parse_bzimage(image_path, file, file_size, &bz);
	if (!EFI_ERROR(st))
		st = load_protected_mode(&bz, &load);
	if (!EFI_ERROR(st))
		st = load_initrd(root, bz.hdr, &initrd, &initrd_size);
	if (!EFI_ERROR(st))
		st = place_cmdline(bz.hdr, &cmdline);
	if (!EFI_ERROR(st))
		st = make_boot_params(&bz, cmdline, initrd, initrd_size, &bp);
	if (EFI_ERROR(st))
		return st;
	print_firmware_secure_boot();
	Print(L"launch: entering %s (protocol %d.%02d) through the 64-bit boot protocol, "
	      "no EFI stub: startup_64 at 0x%lx, initrd %d bytes at 0x%lx, command line \"%a\"\n",
	      image_path, bz.hdr->version >> 8, bz.hdr->version & 0xff, load + STARTUP_64_OFFSET,
	      initrd_size, initrd, cfg_options);
	st = exit_boot_services(image, bp);
	if (EFI_ERROR(st))
		return st;
	enter_startup_64(load + STARTUP_64_OFFSET, bp);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE *self, *child_info;
	EFI_DEVICE_PATH *dp;
	EFI_FILE_HANDLE root;
	EFI_HANDLE child;
	CHAR16 *image_path, *options = NULL;
	void *cfg;
	UINTN cfg_size;
	EFI_STATUS st;

	InitializeLib(image, systab);
	Print(L"launch: lockshim test launcher\n");
	st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&self);
	if (EFI_ERROR(st))
		goto fail;
	root = LibOpenRoot(self->DeviceHandle);
	if (!root) {
		st = EFI_NOT_FOUND;
		goto fail;
	}
	st = read_file(root, L"\\EFI\\BOOT\\launch.cfg", &cfg, &cfg_size);
	if (!EFI_ERROR(st))
		parse_cfg(cfg, cfg_size);
	else
		Print(L"launch: no \\EFI\\BOOT\\launch.cfg (%r): defaults\n", st);
	if (!cfg_image[0])
		copy_value(cfg_image, sizeof(cfg_image), (CHAR8 *)"\\EFI\\BOOT\\vmlinuz.efi", 21);

	st = install_table(root);
	if (EFI_ERROR(st))
		goto fail;
	if (str_eq(cfg_security, "alone")) {
		st = leave_security_alone();
		if (EFI_ERROR(st))
			goto fail;
	}
	if (str_eq(cfg_acpi_rsdp, "v1")) {
		st = append_acpi_rsdp_v1();
		if (EFI_ERROR(st)) {
			Print(L"launch: no ACPI 1.0 RSDP to give as acpi_rsdp=: %r\n", st);
			goto fail;
		}
	}

	image_path = to_ucs2(cfg_image);
	if (str_eq(cfg_entry, "boot-protocol")) {
		st = enter_through_boot_protocol(image, root, image_path);
		goto fail;
	}
	if (cfg_entry[0]) {
		Print(L"launch: unknown entry=%a\n", cfg_entry);
		st = EFI_INVALID_PARAMETER;
		goto fail;
	}
	dp = FileDevicePath(self->DeviceHandle, image_path);
	st = uefi_call_wrapper(BS->LoadImage, 6, FALSE, image, dp, NULL, 0, &child);
	if (EFI_ERROR(st)) {
		Print(L"launch: LoadImage %s: %r\n", image_path, st);
		goto fail;
	}
	st = uefi_call_wrapper(BS->HandleProtocol, 3, child, &LoadedImageProtocol,
			       (void **)&child_info);
	if (EFI_ERROR(st))
		goto fail;
	if (cfg_options[0]) {
		options = to_ucs2(cfg_options);
		child_info->LoadOptions = options;
		child_info->LoadOptionsSize = (UINT32)((StrLen(options) + 1) * sizeof(CHAR16));
	}
	Print(L"launch: starting %s with options \"%s\"\n", image_path, options ? options : L"");
	st = uefi_call_wrapper(BS->StartImage, 3, child, NULL, NULL);
	Print(L"launch: %s returned %r\n", image_path, st);
	return st;
fail:
	Print(L"launch: failed: %r\n", st);
	return st;
}
