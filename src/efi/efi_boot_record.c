// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_boot_record.h"

#include <efilib.h>
#include <stdio.h>

#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"

#define BOOT_RECORD_NAME       EFI_VAR_NAME(VAR_LOCKSHIM_BOOT_LOG)
#define BOOT_RECORD_ATTRIBUTES variables[VAR_LOCKSHIM_BOOT_LOG].attributes

/* One record a run of lockshim, as the console is one: the SHIM_LOCK calls add to it. */
static struct boot_record record;
static char data[BOOT_RECORD_SIZE];
static UINTN data_size;
static EFI_STATUS written = EFI_NOT_STARTED; /* the last write's status */
static BOOLEAN live;                         /* flushed once: each record is written as it comes */
static BOOLEAN blocked;                      /* an earlier LockshimBootLog could not be deleted */
static BOOLEAN write_said;                   /* a failed write was said: once is enough */

void efi_boot_record_begin(const char *version)
{
	_cleanup_pool_ void *earlier = NULL;
	UINT32 attributes = 0;
	UINTN size;
	EFI_STATUS read, status;

	boot_record_init(&record, version);
	read = efi_var_read(BOOT_RECORD_NAME, &lockshim_vendor_guid, &earlier, &size, &attributes);
	if (read == EFI_NOT_FOUND)
		return;
	status = efi_var_delete(BOOT_RECORD_NAME, &lockshim_vendor_guid);
	if (EFI_ERROR(status)) {
		blocked = TRUE;
		log_warning_status(
			status,
			"cannot delete the %ls there is: %m; it is not this boot's record, and this boot's is not written",
			BOOT_RECORD_NAME);
	}
	/* lockshim's own of an earlier start this boot goes silently; one an OS wrote is said */
	if (EFI_ERROR(status) || (!EFI_ERROR(read) && attributes != BOOT_RECORD_ATTRIBUTES))
		efi_record(BOOT_RECORD_STATE,
			   "variable=%ls action=%s reason=attributes attributes=0x%x",
			   BOOT_RECORD_NAME, EFI_ERROR(status) ? "ignored" : "deleted", attributes);
}

static void write_variable(void)
{
	EFI_STATUS status;

	if (blocked)
		return;
	status = RT->SetVariable((CHAR16 *)BOOT_RECORD_NAME, &lockshim_vendor_guid,
				 BOOT_RECORD_ATTRIBUTES, data_size, data);
	written = status;
	if (EFI_ERROR(status) && !write_said) {
		write_said = TRUE;
		log_warning_status(status, "cannot write %ls: %m; the boot goes on without it",
				   BOOT_RECORD_NAME);
	}
}

void efi_record(enum boot_record_kind kind, const char *fmt, ...)
{
	char line[VERDICT_RECORD_SIZE];
	va_list args;

	va_start(args, fmt);
	vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	log_info("%s", line);
	boot_record_add(&record, kind, line);
	data_size = boot_record_serialize(&record, data, sizeof(data));
	if (live)
		write_variable();
}

void efi_boot_record_flush(void)
{
	live = TRUE;
	write_variable();
}

void efi_record_mirror_failed(const CHAR16 *name, EFI_STATUS status)
{
	char line[VERDICT_RECORD_SIZE] = "", text[128];
	CHAR16 wide[64];
	UINTN i;

	snprintf(text, sizeof(text), "%ls", name);
	record_add_field(line, sizeof(line), "mirror", text);
	record_add_field(line, sizeof(line), "written", "no");
	StatusToString(wide, status);
	for (i = 0; wide[i] && i + 1 < sizeof(text); i++)
		text[i] = wide[i] < 0x80 ? (char)wide[i] : '?';
	text[i] = '\0';
	record_add_field(line, sizeof(line), "status", text);
	efi_record(BOOT_RECORD_STATE, "%s", line);
}

void efi_boot_record_say(void)
{
	if (blocked || (EFI_ERROR(written) && written != EFI_NOT_STARTED))
		return; /* said when it first failed, or when the old one stayed */
	log_info("boot record: %lu records, %lu bytes in %ls", (unsigned long)record.n,
		 (unsigned long)data_size, BOOT_RECORD_NAME);
}
