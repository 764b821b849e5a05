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
static CHAR8 cfg_security[16];

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
