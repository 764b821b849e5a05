// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_fallback.h"

#include <efilib.h>
#include <stdio.h>

#include "boot_option.h"
#include "boot_plan.h"
#include "device_path.h"
#include "efi_cleanup.h"
#include "efi_file.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"
#include "efi_verify.h"
#include "fallback.h"
#include "macro.h"
#include "signature_list.h"
#include "variables.h"

#define CSV_NAME L"BOOTX64.CSV"
/* The fallback's once-a-boot mark (volatile, boot services only: set before an option starts). */
#define FALLBACK_DONE            EFI_VAR_NAME(VAR_LOCKSHIM_FALLBACK)
#define FALLBACK_DONE_GUID       efi_var_guid(VAR_LOCKSHIM_FALLBACK)
#define FALLBACK_DONE_ATTRIBUTES variables[VAR_LOCKSHIM_FALLBACK].attributes
#define BOOT_ORDER               EFI_VAR_NAME(VAR_BOOT_ORDER)
/* the boot manager's variables: Boot####, BootOrder */
#define BOOT_GUID                efi_var_guid(VAR_BOOT_OPTION)
#define BOOT_VARIABLE_ATTRIBUTES variables[VAR_BOOT_OPTION].attributes

/* What this boot's fallback found and did so far. */
struct fallback {
	const struct efi_verifier *verifier; /* lockshim's policy: decides every file a CSV names */
	EFI_HANDLE device; /* lockshim's partition: the CSVs and their files are there */
	int gpt;           /* 1: a GPT partition, hd and guid set; 0 none; -1 a bad device path */
	const char *gpt_reason;
	const UINT8 *hd; /* its HD() node, in its device path */
	char guid[BOOT_OPTION_GUID_TEXT];
	/* 0 until a CSV is found, then 1 when the fallback can go on, -1 when it cannot */
	int state;
	UINT16 order[BOOT_ORDER_MAX]; /* BootOrder as it was */
	UINTN order_count;
	UINT16 first[BOOT_ORDER_MAX]; /* the options of the CSVs taken, in order */
	UINTN first_count;
	struct efi_fallback_choice *choice; /* the first of them: what is started */
};

void efi_fallback_choice_free(struct efi_fallback_choice *choice)
{
	if (choice->path)
		FreePool(choice->path);
	if (choice->options)
		FreePool(choice->options);
	*choice = (struct efi_fallback_choice){};
}

/* A new pool copy of the @size bytes at @data. */
static void *pool_copy(const void *data, UINTN size)
{
	void *copy = AllocatePool(size);

	if (copy)
		CopyMem(copy, (void *)data, size);
	return copy;
}

/* "Boot####" for @number into @name (9 characters). */
static void option_name(UINT16 number, CHAR16 name[9])
{
	static const CHAR16 hex[] = L"0123456789ABCDEF";

	CopyMem(name, (void *)EFI_VAR_NAME(VAR_BOOT_OPTION), 4 * sizeof(CHAR16)); /* "Boot" */
	for (UINTN i = 0; i < 4; i++)
		name[4 + i] = hex[(number >> (12 - 4 * i)) & 0xf];
	name[8] = L'\0';
}

/*
 * BootOrder as it is (empty when absent). One that cannot be read or
 * parsed is never written again: the firmware may still use its entries,
 * and a rewrite from nothing would drop them all. Returns whether it is
 * usable.
 */
static BOOLEAN boot_order_read(struct fallback *fb)
{
	_cleanup_pool_ void *data = NULL;
	const char *reason;
	EFI_STATUS status;
	UINTN size;
	size_t count;

	fb->order_count = 0;
	status = efi_var_read(BOOT_ORDER, BOOT_GUID, &data, &size, NULL);
	if (status == EFI_NOT_FOUND)
		return TRUE;
	if (EFI_ERROR(status)) {
		log_error_status(status, "fallback: cannot read BootOrder: %m; nothing created");
		return FALSE;
	}
	if (boot_order_parse(data, size, fb->order, &count, &reason) < 0) {
		log_error("fallback: BootOrder: %s; not rewritten, nothing created", reason);
		return FALSE;
	}
	fb->order_count = count;
	return TRUE;
}

/*
 * When a CSV is found: the first time, whether the fallback already ran
 * this boot, the partition, BootOrder. Returns whether it can go on.
 */
static BOOLEAN csv_found(struct fallback *fb)
{
	UINT32 attributes = 0;
	EFI_STATUS status;
	UINT8 done;

	if (fb->state)
		return fb->state > 0;
	fb->state = -1;
	status = efi_var_read_u8(FALLBACK_DONE, FALLBACK_DONE_GUID, &done, &attributes);
	if (!EFI_ERROR(status) && attributes == FALLBACK_DONE_ATTRIBUTES) {
		log_info("fallback: already ran this boot; not again");
		return FALSE;
	}
	if (status != EFI_NOT_FOUND) {
		/* not lockshim's mark: only boot services write one the OS cannot */
		status = efi_var_delete(FALLBACK_DONE, FALLBACK_DONE_GUID);
		if (EFI_ERROR(status)) {
			log_error_status(status,
					 "fallback: cannot delete the %ls the OS wrote: %m; "
					 "nothing created",
					 FALLBACK_DONE);
			return FALSE;
		}
		log_warning("fallback: deleted %ls: attributes 0x%x are not lockshim's",
			    FALLBACK_DONE, attributes);
	}
	if (fb->gpt < 0) {
		log_error("fallback: lockshim's device path: %s; nothing created", fb->gpt_reason);
		return FALSE;
	}
	if (fb->gpt == 0) {
		log_error("fallback: lockshim's device is not a GPT partition, which a boot option "
			  "must name; nothing created");
		return FALSE;
	}
	if (!boot_order_read(fb))
		return FALSE;
	fb->state = 1;
	return TRUE;
}

/* \EFI\@dir\BOOTX64.CSV, as a new pool string. */
static CHAR16 *csv_path_new(const CHAR16 *dir, UINTN dir_len)
{
	static const CHAR16 efi[] = L"\\EFI\\", csv[] = L"\\" CSV_NAME;
	UINTN efi_len = ARRAY_SIZE(efi) - 1, csv_len = ARRAY_SIZE(csv) - 1;
	CHAR16 *path = AllocatePool((efi_len + dir_len + csv_len + 1) * sizeof(CHAR16));

	if (!path)
		return NULL;
	CopyMem(path, (void *)efi, efi_len * sizeof(CHAR16));
	CopyMem(path + efi_len, (void *)dir, dir_len * sizeof(CHAR16));
	CopyMem(path + efi_len + dir_len, (void *)csv, (csv_len + 1) * sizeof(CHAR16));
	return path;
}

/*
 * Read @path from lockshim's partition and decide on it with lockshim's
 * policy, as on any image it starts (VERIFY_TO_START: the vendor keys, db
 * unless MokDBState, MokList, dbx, the vendor dbx, MokListX, SbatLevel):
 * EFI_SECURITY_VIOLATION when it may not start.
 */
static EFI_STATUS image_check(const struct fallback *fb, const CHAR16 *path)
{
	_cleanup_(efi_file_data_free) struct efi_file_data file = {};
	EFI_STATUS status;

	status = efi_file_read(fb->device, path, &file);
	if (EFI_ERROR(status))
		return status;
	return efi_verify_candidate(fb->verifier, file.data, file.size, path);
}

/*
 * The Boot#### option that already starts @path on lockshim's partition:
 * *@number set, and its optional data copied into *@options when given.
 * EFI_NOT_FOUND when none does.
 */
static EFI_STATUS option_find(const struct fallback *fb, const struct fallback_path *path,
			      UINT16 *number, void **options, UINTN *options_size)
{
	_cleanup_pool_ CHAR16 *name = NULL;
	_cleanup_pool_ struct boot_option *option = AllocatePool(sizeof(*option));
	EFI_GUID vendor = {};
	UINTN name_size = 0;
	EFI_STATUS status;

	if (!option)
		return EFI_OUT_OF_RESOURCES;
	for (;;) {
		_cleanup_pool_ void *data = NULL;
		const char *reason;
		UINTN len = 0, size;
		int n;

		status = efi_var_next_name(&name, &name_size, &vendor);
		if (EFI_ERROR(status))
			return status; /* EFI_NOT_FOUND after the last */
		while (len < name_size / sizeof(CHAR16) && name[len])
			len++;
		n = fallback_option_number(name, len);
		if (n < 0 || CompareMem(&vendor, BOOT_GUID, sizeof(vendor)) != 0)
			continue;
		if (EFI_ERROR(efi_var_read(name, BOOT_GUID, &data, &size, NULL)) ||
		    boot_option_parse(data, size, option, &reason) < 0 ||
		    !fallback_option_matches(option, path->ascii, fb->guid))
			continue;
		*number = (UINT16)n;
		if (options && option->optional_data_size) {
			*options = pool_copy(option->optional_data, option->optional_data_size);
			if (!*options)
				return EFI_OUT_OF_RESOURCES;
			*options_size = option->optional_data_size;
		}
		return EFI_SUCCESS;
	}
}

/* The first option number no variable holds and BootOrder does not name. */
static EFI_STATUS option_free_number(const struct fallback *fb, UINT16 *number)
{
	for (UINT32 n = 0; n <= 0xffff; n++) {
		CHAR16 name[9];
		UINTN size = 0;
		EFI_STATUS status;

		if (fallback_order_has(fb->order, fb->order_count, (UINT16)n))
			continue;
		option_name((UINT16)n, name);
		status = RT->GetVariable(name, BOOT_GUID, NULL, &size, NULL);
		if (status == EFI_NOT_FOUND) {
			*number = (UINT16)n;
			return EFI_SUCCESS;
		}
	}
	return EFI_OUT_OF_RESOURCES;
}

/* Write a new Boot#### for @entry at @path: *@number set. */
static EFI_STATUS option_create(const struct fallback *fb, const struct fallback_entry *entry,
				const struct fallback_path *path, UINT16 *number)
{
	_cleanup_pool_ UINT8 *data = AllocatePool(FALLBACK_LOAD_OPTION_MAX);
	CHAR16 name[9];
	EFI_STATUS status;
	size_t size;

	if (!data)
		return EFI_OUT_OF_RESOURCES;
	status = option_free_number(fb, number);
	if (EFI_ERROR(status))
		return status;
	size = fallback_load_option(fb->hd, entry, path, data);
	option_name(*number, name);
	return RT->SetVariable(name, BOOT_GUID, BOOT_VARIABLE_ATTRIBUTES, size, data);
}

/*
 * The option of @entry of the CSV @csv_path: an existing one that starts
 * it, else a new one; added to the options put first. When it is the
 * first of all, it is the one started, with its own optional data.
 */
static EFI_STATUS option_take(struct fallback *fb, const CHAR16 *csv_path,
			      const struct fallback_entry *entry, const struct fallback_path *path)
{
	BOOLEAN starting = fb->first_count == 0;
	void *options = NULL;
	UINTN options_size = 0;
	EFI_STATUS status;
	UINT16 number = 0;

	status = option_find(fb, path, &number, starting ? &options : NULL, &options_size);
	if (!EFI_ERROR(status)) {
		log_info("fallback: %ls: line %zu: Boot%04X already starts %ls", csv_path,
			 entry->line, number, path->ucs2);
	} else if (status == EFI_NOT_FOUND) {
		status = option_create(fb, entry, path, &number);
		if (EFI_ERROR(status))
			return log_error_status(status,
						"fallback: %ls: line %zu: cannot create a "
						"boot option for %ls: %m",
						csv_path, entry->line, path->ucs2);
		log_info("fallback: created Boot%04X \"%ls\" for %ls", number, entry->label,
			 path->ucs2);
		if (starting && entry->options_len) {
			options_size = (entry->options_len + 1) * sizeof(CHAR16);
			options = pool_copy(entry->options, options_size);
		}
	} else {
		return log_error_status(status, "fallback: cannot read the boot options");
	}
	if (starting) {
		fb->choice->path = StrDuplicate(path->ucs2);
		fb->choice->number = number;
		fb->choice->options = options;
		fb->choice->options_size = options ? options_size : 0;
		if (!fb->choice->path)
			return EFI_OUT_OF_RESOURCES;
	}
	if (fb->first_count < ARRAY_SIZE(fb->first))
		fb->first[fb->first_count++] = number;
	return EFI_SUCCESS;
}

/* Every file @csv names, checked (image_check): EFI_SUCCESS, else the reason on the console. */
static EFI_STATUS csv_check(struct fallback *fb, const CHAR16 *csv_path, const CHAR16 *dir,
			    UINTN dir_len, const struct fallback_csv *csv)
{
	for (size_t i = 0; i < csv->count; i++) {
		const struct fallback_entry *entry = &csv->entry[i];
		struct fallback_path path;
		EFI_STATUS status;

		fallback_entry_path(dir, dir_len, entry, &path);
		status = image_check(fb, path.ucs2);
		if (status == EFI_NOT_FOUND)
			log_error("fallback: %ls: line %zu: %ls: not found; nothing created",
				  csv_path, entry->line, path.ucs2);
		else if (status == EFI_SECURITY_VIOLATION)
			log_error("fallback: %ls: line %zu: %ls: lockshim's policy refuses it; "
				  "nothing created",
				  csv_path, entry->line, path.ucs2);
		else if (EFI_ERROR(status))
			log_error_status(status,
					 "fallback: %ls: line %zu: %ls: cannot load it: %m; "
					 "nothing created",
					 csv_path, entry->line, path.ucs2);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

/* The CSV of the vendor directory @dir (@dir_len characters), when it has one: taken whole or not. */
static void csv_take(struct fallback *fb, const CHAR16 *dir, UINTN dir_len)
{
	_cleanup_pool_ CHAR16 *csv_path = csv_path_new(dir, dir_len);
	_cleanup_(efi_file_data_free) struct efi_file_data file = {};
	_cleanup_pool_ struct fallback_csv *csv = NULL;
	struct reason_buf buf;
	const char *reason;
	EFI_STATUS status;

	if (!csv_path)
		return;
	status = efi_file_read_max(fb->device, csv_path, FALLBACK_CSV_MAX_SIZE, &file);
	if (status == EFI_NOT_FOUND)
		return;
	if (!csv_found(fb))
		return;
	if (status == EFI_BAD_BUFFER_SIZE) {
		log_error("fallback: %ls: larger than %d bytes; nothing created", csv_path,
			  FALLBACK_CSV_MAX_SIZE);
		return;
	}
	if (EFI_ERROR(status)) {
		log_error_status(status, "fallback: cannot read %ls: %m; nothing created",
				 csv_path);
		return;
	}
	csv = AllocatePool(sizeof(*csv));
	if (!csv)
		return;
	if (fallback_csv_parse(file.data, file.size, csv, &buf, &reason) < 0) {
		log_error("fallback: %ls: %s; nothing created", csv_path, reason);
		return;
	}
	if (fb->first_count + csv->count > ARRAY_SIZE(fb->first)) {
		log_error("fallback: %ls: too many boot options; nothing created", csv_path);
		return;
	}
	if (EFI_ERROR(csv_check(fb, csv_path, dir, dir_len, csv)))
		return;

	for (size_t i = 0; i < csv->count; i++) {
		struct fallback_path path;

		fallback_entry_path(dir, dir_len, &csv->entry[i], &path);
		if (EFI_ERROR(option_take(fb, csv_path, &csv->entry[i], &path)))
			return;
	}
}

/* Every \EFI\<vendor>\ directory of lockshim's partition, in the file system's order. */
static void vendor_dirs_walk(struct fallback *fb)
{
	_cleanup_file_ EFI_FILE_HANDLE root = NULL, efi = NULL;
	EFI_STATUS status;

	root = LibOpenRoot(fb->device);
	if (!root)
		return;
	if (EFI_ERROR(root->Open(root, &efi, L"\\EFI", EFI_FILE_MODE_READ, 0)))
		return;
	for (;;) {
		_cleanup_pool_ EFI_FILE_INFO *info = NULL;
		const char *reason;
		UINTN len;
		int r;

		status = efi_dir_next(efi, &info, &len);
		if (EFI_ERROR(status)) {
			log_warning_status(status, "fallback: cannot read \\EFI: %m");
			return;
		}
		if (!info)
			return;
		if (!(info->Attribute & EFI_FILE_DIRECTORY))
			continue;
		r = fallback_vendor_dir(info->FileName, len, &reason);
		if (r < 0)
			log_info("fallback: skipping a directory of \\EFI: %s", reason);
		if (r > 0)
			csv_take(fb, info->FileName, len);
	}
}

/* BootOrder with the options taken first, when it is not so already. */
static EFI_STATUS boot_order_update(const struct fallback *fb)
{
	_cleanup_pool_ UINT16 *order = AllocatePool(BOOT_ORDER_MAX * sizeof(UINT16));
	char text[BOOT_ORDER_MAX * 5 + 1];
	const char *reason;
	EFI_STATUS status;
	size_t count;
	int r;

	if (!order)
		return EFI_OUT_OF_RESOURCES;
	r = fallback_boot_order(fb->order, fb->order_count, fb->first, fb->first_count, order,
				&count, &reason);
	if (r < 0) {
		log_error("fallback: BootOrder not written: %s", reason);
		return EFI_BAD_BUFFER_SIZE;
	}
	text[0] = '\0';
	for (size_t i = 0, len = 0; i < count && len + 6 < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%04X", i ? "," : "",
					order[i]);
	if (r == 0) {
		log_info("fallback: BootOrder %s unchanged", text);
		return EFI_SUCCESS;
	}
	status = RT->SetVariable((CHAR16 *)BOOT_ORDER, BOOT_GUID, BOOT_VARIABLE_ATTRIBUTES,
				 count * sizeof(UINT16), order);
	if (EFI_ERROR(status))
		return log_error_status(status, "fallback: cannot write BootOrder");
	log_info("fallback: BootOrder %s", text);
	return EFI_SUCCESS;
}

/*
 * Whether @device is on a medium the firmware calls removable (a USB
 * stick, a CD): the fallback writes boot options only for the machine's
 * own disk (docs/fallback.md).
 */
static BOOLEAN on_removable_medium(EFI_HANDLE device)
{
	EFI_BLOCK_IO *block_io;

	return !EFI_ERROR(BS->HandleProtocol(device, &BlockIoProtocol, (void **)&block_io)) &&
	       block_io->Media->RemovableMedia;
}

/* Mark this boot's fallback done, so that it never runs twice a boot, whatever the option starts. */
static EFI_STATUS fallback_mark_done(void)
{
	UINT8 done = 1;

	return RT->SetVariable((CHAR16 *)FALLBACK_DONE, FALLBACK_DONE_GUID,
			       FALLBACK_DONE_ATTRIBUTES, sizeof(done), &done);
}

void efi_fallback_run(EFI_HANDLE image, const struct efi_verifier *verifier,
		      struct efi_fallback_choice *choice)
{
	struct fallback fb = { .verifier = verifier, .choice = choice };
	_cleanup_pool_ CHAR16 *path = NULL;
	EFI_LOADED_IMAGE *self;
	EFI_DEVICE_PATH *device_path;
	EFI_STATUS status;
	struct dp_node hd;
	const UINT8 *guid;

	*choice = (struct efi_fallback_choice){};
	if (EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self)))
		return;
	path = efi_file_path_text(self->FilePath);
	if (!path || !boot_plan_runs_fallback(path, StrLen(path)))
		return;
	fb.device = self->DeviceHandle;
	if (on_removable_medium(fb.device)) {
		log_info("fallback: lockshim runs from a removable medium; no boot option written");
		return;
	}
	device_path = DevicePathFromHandle(fb.device);
	fb.gpt = device_path ? device_path_gpt_find((const UINT8 *)device_path, DEVICE_PATH_BOUND,
						    &hd, &guid, &fb.gpt_reason) :
			       0;
	if (fb.gpt > 0) {
		fb.hd = hd.data;
		esl_guid_text(guid, fb.guid);
	}

	vendor_dirs_walk(&fb);
	if (fb.state == 0)
		return; /* no CSV: nothing said */
	if (fb.state < 0)
		return; /* csv_found() said why it stopped */
	if (fb.first_count == 0) {
		log_info("fallback: no boot option created; booting as without it");
		return;
	}
	if (EFI_ERROR(boot_order_update(&fb)) || !choice->path) {
		efi_fallback_choice_free(choice);
		return;
	}
	status = fallback_mark_done();
	if (EFI_ERROR(status)) {
		log_error_status(status,
				 "fallback: cannot mark this boot's fallback done: %m; "
				 "not starting Boot%04X",
				 choice->number);
		efi_fallback_choice_free(choice);
		return;
	}
	log_info("fallback: starting Boot%04X (%ls) as the next stage", choice->number,
		 choice->path);
}
