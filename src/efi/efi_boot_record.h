/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The record of this boot (src/core/boot_record.h) in the volatile variable
 * LockshimBootLog, lockshim's vendor GUID, BS|RT: each record line lockshim
 * says on the console is kept there too. The variable is written when
 * lockshim hands over or returns (efi_boot_record_flush), and from then on
 * again at each record, so that it holds every decision said, those on what
 * a second stage asks about after lockshim handed over included; not at
 * each record before (a SetVariable is an SMI: several a boot added up).
 * Nothing here stops a boot: the record is for reading, never for deciding.
 */
#ifndef LOCKSHIM_EFI_BOOT_RECORD_H
#define LOCKSHIM_EFI_BOOT_RECORD_H

#include <efi.h>

#include "boot_record.h"

/*
 * Start this boot's record, for lockshim @version: first delete any
 * LockshimBootLog there is (an OS can write one, non-volatile too, and it
 * is not this boot's). One with other attributes than lockshim's BS|RT is
 * said, on the console and as the new record's first line (variable=...
 * action=deleted); one that cannot be deleted is said too, and then
 * nothing is written (`lockshim status` refuses it by its attributes).
 */
void efi_boot_record_begin(const char *version);

/*
 * Say the record line @fmt on the console (log_info) and keep it, of
 * @kind (BOOT_RECORD_IMAGE: an image a second stage asked about, the first
 * to give way when the record is full); written at once after a flush.
 */
void efi_record(enum boot_record_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Write the variable now, and from now on at each record: before the next
 * stage starts, and when lockshim returns to the firmware.
 */
void efi_boot_record_flush(void);

/* The record of a runtime mirror (efi_var_set_runtime_mirror) not written: @status. */
void efi_record_mirror_failed(const CHAR16 *name, EFI_STATUS status);

/* One console line: how many records, how many bytes the variable holds. */
void efi_boot_record_say(void);

#endif
