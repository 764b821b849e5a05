// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * mmx64.efi, lockshim's MOK manager: carries out the requests mokutil left
 * in variables (rhboot/shim's names and formats) once the machine's owner,
 * shown what each will do, types yes and then the password given to
 * mokutil: root in the OS can write any request, but not answer the console.
 *
 * Every request is read and then deleted before anything is asked, so none
 * can be replayed, whatever the outcome; one whose variables carry other
 * attributes than mokutil's (NV|BS|RT) is ignored. A changed MokList or
 * MokListX is computed whole (mok_list.c) and written with one SetVariable,
 * non-volatile and boot-services only. After any change the machine
 * reboots, so that lockshim starts again from the new lists. A MOK password
 * (MokPW, kept in MokPWStore) guards the menu the owner enters on purpose.
 */
#include <efi.h>
#include <efilib.h>

#include "cpu_features.h"
#include "efi_cleanup.h"
#include "efi_fault.h"
#include "efi_log.h"
#include "macro.h"
#include "mm.h"
#include "mm_menu.h"
#include "mm_requests.h"
#include "stack_guard.h"

const CHAR16 log_prefix[] = L"MOK manager";

/* Every request mokutil can leave, as taken (mm_request_take). */
struct pending_requests {
	struct mok_variable keys[ARRAY_SIZE(mm_key_requests)];
	struct mok_variable key_auths[ARRAY_SIZE(mm_key_requests)];
	struct mok_variable states[ARRAY_SIZE(mm_state_requests)];
	struct mok_variable password;
};

static void pending_requests_free(struct pending_requests *pending)
{
	for (UINTN i = 0; i < ARRAY_SIZE(pending->keys); i++) {
		mm_variable_free(&pending->keys[i]);
		mm_variable_free(&pending->key_auths[i]);
	}
	for (UINTN i = 0; i < ARRAY_SIZE(pending->states); i++)
		mm_variable_free(&pending->states[i]);
	mm_variable_free(&pending->password);
}

/* All of them before any is served: none survives, whatever serving one does. */
static void pending_requests_take(struct pending_requests *pending)
{
	for (UINTN i = 0; i < ARRAY_SIZE(mm_key_requests); i++) {
		mm_request_take(mm_key_requests[i].request, &pending->keys[i]);
		mm_request_take(mm_key_requests[i].auth, &pending->key_auths[i]);
	}
	for (UINTN i = 0; i < ARRAY_SIZE(mm_state_requests); i++)
		mm_request_take(mm_state_requests[i].request, &pending->states[i]);
	mm_request_take(VAR_MOK_PW, &pending->password);
}

/*
 * Take the pending requests and serve them: key requests, a reset, state
 * requests, the MOK password. *@any tells whether there was one; TRUE when
 * a variable changed.
 */
static BOOLEAN pending_requests_serve(BOOLEAN *any)
{
	_cleanup_(pending_requests_free) struct pending_requests pending = {};
	const struct mok_variable *reset_auth = &pending.key_auths[KEY_ENROLL_MOK];
	BOOLEAN changed = FALSE;

	pending_requests_take(&pending);
	for (UINTN i = 0; i < ARRAY_SIZE(mm_key_requests); i++) {
		if (!pending.keys[i].present)
			continue;
		*any = TRUE;
		changed |= mm_key_request_serve(&mm_key_requests[i], &pending.keys[i],
						&pending.key_auths[i]);
	}
	/* MokAuth alone is a reset; beside an ignored MokNew it is not */
	if (!pending.keys[KEY_ENROLL_MOK].seen && reset_auth->present) {
		*any = TRUE;
		changed |= mm_reset_request_serve(reset_auth);
	}
	for (UINTN i = 0; i < ARRAY_SIZE(mm_state_requests); i++) {
		if (!pending.states[i].present)
			continue;
		*any = TRUE;
		changed |= mm_state_request_serve(&mm_state_requests[i], &pending.states[i]);
	}
	if (pending.password.present) {
		*any = TRUE;
		changed |= mm_password_request_serve(&pending.password);
	}
	return changed;
}

/* Entered on purpose, with nothing to serve: the owner's menu, on the manager's own disk. */
static BOOLEAN owner_menu_run(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *self;

	if (EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self)))
		return FALSE;
	return mm_owner_menu(self->DeviceHandle);
}

static EFI_STATUS mm_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	BOOLEAN any = FALSE, changed;

	InitializeLib(image, system_table);
	EFI_FAULT_SCOPE(); /* test builds only (efi_fault.h) */
	crypto_cpu_init(); /* no constructors under UEFI: before any OpenSSL call */
	Print(L"lockshim MOK manager %a\n", LOCKSHIM_VERSION);

	changed = pending_requests_serve(&any);
	if (!any)
		changed = owner_menu_run(image);
	/* lockshim starts again from the new lists */
	if (changed) {
		log_info("rebooting");
		RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	}
	return EFI_SUCCESS;
}

/* The firmware's entry: the stack guard from its RNG, then mm_main. */
EFI_MAIN_WITH_STACK_GUARD(mm_main)
