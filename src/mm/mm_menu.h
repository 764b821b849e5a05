/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The MOK manager entered on purpose, with no request: the machine's owner,
 * at the console, may enroll a key or an image hash from this disk.
 * Presence at the console is what authorises it, as in rhboot/shim's
 * MokManager, behind the MOK password once one is set.
 */
#ifndef LOCKSHIM_MM_MENU_H
#define LOCKSHIM_MM_MENU_H

#include <efi.h>

/* The menu, reading files from @device; TRUE when MokList changed. */
BOOLEAN mm_owner_menu(EFI_HANDLE device);

#endif
