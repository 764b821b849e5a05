// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_console.h"

#include <efilib.h>

#include "efi_cleanup.h"

#define TICKS_PER_SECOND 10000000ULL /* timer events count 100 ns */

EFI_STATUS efi_console_read_key(UINTN seconds, EFI_INPUT_KEY *key)
{
	_cleanup_event_ EFI_EVENT timer = NULL;
	EFI_EVENT events[2];
	EFI_STATUS status;
	UINTN index;

	status = BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &timer);
	if (EFI_ERROR(status))
		return status;
	status = BS->SetTimer(timer, TimerRelative, seconds * TICKS_PER_SECOND);
	if (EFI_ERROR(status))
		return status;
	events[0] = ST->ConIn->WaitForKey;
	events[1] = timer;
	status = BS->WaitForEvent(2, events, &index);
	if (EFI_ERROR(status))
		return status;
	if (index == 1)
		return EFI_TIMEOUT;
	return ST->ConIn->ReadKeyStroke(ST->ConIn, key);
}

EFI_STATUS efi_console_read_line(CHAR16 *buffer, UINTN max, UINTN *len, BOOLEAN masked,
				 UINTN seconds)
{
	_cleanup_(input_key_wipe) EFI_INPUT_KEY key; /* the last one typed, when it times out */
	EFI_STATUS status;

	*len = 0;
	for (;;) {
		status = efi_console_read_key(seconds, &key);
		if (EFI_ERROR(status))
			return status;
		if (key.ScanCode == SCAN_ESC)
			return EFI_ABORTED;
		if (key.UnicodeChar == CHAR_CARRIAGE_RETURN || key.UnicodeChar == CHAR_LINEFEED) {
			Print(L"\n");
			return EFI_SUCCESS;
		}
		if (key.UnicodeChar == CHAR_BACKSPACE) {
			if (*len > 0) {
				(*len)--;
				Print(L"\b \b");
			}
			continue;
		}
		if (key.UnicodeChar < 0x20 || key.UnicodeChar > 0x7e || *len == max)
			continue;
		buffer[(*len)++] = key.UnicodeChar;
		Print(masked ? L"*" : L"%c", key.UnicodeChar);
	}
}
