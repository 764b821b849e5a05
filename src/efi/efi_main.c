// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * lockshim's entry point: read the Secure Boot state, find the kernel and
 * its command line, verify the kernel with the core (verify.c), and start it
 * only if the core allows it or Secure Boot is off.
 */
#include <efi.h>
#include <efilib.h>

#include "efi_guid.h"
#include "efi_log.h"
#include "cpu_features.h"
#include "efi_file.h"
#include "efi_handoff.h"
#include "efi_initrd.h"
#include "efi_mok.h"
#include "efi_policy.h"
#include "efi_sbat.h"
#include "efi_security_override.h"
#include "efi_vars.h"
#include "load_options.h"
#include "verify.h"

#define DEFAULT_KERNEL L"vmlinuz.efi"
#define DEFAULT_INITRD L"initrd.img"
#define MOK_MANAGER    L"mmx64.efi"

const CHAR16 log_prefix[] = L"lockshim";

struct secure_boot_state {
	UINT8 secure_boot; /* the SecureBoot variable; 0 when unreadable */
	UINT8 setup_mode;  /* the SetupMode variable; 0 when unreadable */
	BOOLEAN insecure;  /* the owner turned validation off through the MOK manager */
	BOOLEAN enforcing; /* SecureBoot=1, not in setup mode, validation not turned off */
};

static void read_secure_boot_state(struct secure_boot_state *state)
{
	if (EFI_ERROR(efi_var_read_u8(L"SecureBoot", &EfiGlobalVariable, &state->secure_boot, NULL)))
		state->secure_boot = 0;
	if (EFI_ERROR(efi_var_read_u8(L"SetupMode", &EfiGlobalVariable, &state->setup_mode, NULL)))
		state->setup_mode = 0;
	state->insecure = state->secure_boot == 1 && state->setup_mode == 0 &&
			  efi_mok_validation_disabled();
	state->enforcing = state->secure_boot == 1 && state->setup_mode == 0 && !state->insecure;
}

/* A new pool string: @dir followed by @len characters of @name, or @name alone if absolute. */
static CHAR16 *join_path(const CHAR16 *dir, const UINT16 *name, UINTN len)
{
	UINTN dir_len = name[0] == L'\\' || name[0] == L'/' ? 0 : StrLen(dir);
	CHAR16 *path = AllocatePool((dir_len + len + 1) * sizeof(CHAR16));

	if (!path)
		return NULL;
	CopyMem(path, (void *)dir, dir_len * sizeof(CHAR16));
	for (UINTN i = 0; i < len; i++)
		path[dir_len + i] = name[i] == L'/' ? L'\\' : name[i];
	path[dir_len + len] = L'\0';
	return path;
}

/* What the kernel is told: locked when Secure Boot is enforced (lockshim then verified it). */
static void lockdown_state_of(const struct secure_boot_state *sb, struct lockdown_state *state)
{
	UINT8 mok_sb_state;

	if (EFI_ERROR(efi_var_read_u8(L"MokSBState", &shim_lock_guid, &mok_sb_state, NULL)))
		mok_sb_state = LOCKSHIM_VAR_ABSENT;
	state->locked = sb->enforcing;
	state->lock_reason = sb->enforcing ? LOCKSHIM_LOCK_SECURE_BOOT : LOCKSHIM_LOCK_NONE;
	state->secure_boot = sb->secure_boot;
	state->setup_mode = sb->setup_mode;
	state->mok_sb_state = mok_sb_state;
}

/*
 * The initrd: the initrd= file of the command line (from the device's root,
 * as the kernel's EFI stub reads it), else initrd.img beside the kernel; not
 * an error when the default is absent.
 */
static void load_initrd(EFI_HANDLE device, const CHAR16 *kernel_path,
			const struct load_options *options, void **data, UINTN *size)
{
	CHAR16 *dir, *path;
	EFI_STATUS status;
	UINTN cut = 0;

	*data = NULL;
	*size = 0;
	if (options->initrd_path) {
		path = join_path(L"\\", options->initrd_path, options->initrd_path_len);
	} else {
		dir = StrDuplicate((CHAR16 *)kernel_path);
		if (!dir)
			return;
		for (UINTN i = 0; dir[i]; i++)
			if (dir[i] == L'\\')
				cut = i + 1;
		dir[cut] = L'\0';
		path = join_path(dir, (const UINT16 *)DEFAULT_INITRD, StrLen(DEFAULT_INITRD));
		FreePool(dir);
	}
	if (!path)
		return;
	status = efi_file_read(device, path, data, size);
	if (status == EFI_NOT_FOUND && !options->initrd_path)
		log_info(L"no initrd at %s", path);
	else if (EFI_ERROR(status))
		log_info(L"cannot read initrd %s: %r; booting without one", path, status);
	else
		log_info(L"initrd %s (%ld bytes)", path, *size);
	FreePool(path);
}

static EFI_STATUS start_kernel(EFI_HANDLE parent, EFI_HANDLE device, const CHAR16 *path,
			       void *data, UINTN size, const struct load_options *options)
{
	EFI_LOADED_IMAGE *loaded;
	EFI_DEVICE_PATH *file_path;
	struct efi_initrd *initrd = NULL;
	EFI_HANDLE kernel = NULL;
	void *initrd_data;
	UINTN initrd_size;
	CHAR16 *cmdline = NULL;
	EFI_STATUS status;

	file_path = FileDevicePath(device, (CHAR16 *)path);
	if (!file_path)
		return EFI_OUT_OF_RESOURCES;
	status = efi_load_verified_image(parent, file_path, data, size, &kernel);
	FreePool(file_path);
	if (EFI_ERROR(status)) {
		log_info(L"firmware cannot load %s: %r", path, status);
		return status;
	}

	status = BS->HandleProtocol(kernel, &LoadedImageProtocol,
				   (void **)&loaded);
	if (EFI_ERROR(status))
		goto out;
	if (options->cmdline_len) {
		cmdline = AllocatePool((options->cmdline_len + 1) * sizeof(CHAR16));
		if (!cmdline) {
			status = EFI_OUT_OF_RESOURCES;
			goto out;
		}
		CopyMem(cmdline, (void *)options->cmdline, options->cmdline_len * sizeof(CHAR16));
		cmdline[options->cmdline_len] = L'\0';
		loaded->LoadOptions = cmdline;
		loaded->LoadOptionsSize = (UINT32)((options->cmdline_len + 1) * sizeof(CHAR16));
	}

	load_initrd(device, path, options, &initrd_data, &initrd_size);
	if (initrd_data) {
		status = efi_initrd_register(initrd_data, initrd_size, &initrd);
		if (EFI_ERROR(status)) {
			log_info(L"cannot publish the initrd: %r", status);
			goto out_initrd;
		}
	}

	status = BS->StartImage(kernel, NULL, NULL);
	log_info(L"kernel returned: %r", status);
	efi_initrd_unregister(initrd);
out_initrd:
	efi_file_free(initrd_data, initrd_size);
out:
	BS->UnloadImage(kernel);
	if (cmdline)
		FreePool(cmdline);
	return status;
}

/*
 * Read @path from @device and decide on it with @policy; the console says
 * what was decided (@verb: "booting", "starting"). Returns
 * EFI_SECURITY_VIOLATION, with nothing read, when enforcement refuses it.
 */
static EFI_STATUS read_verified(EFI_HANDLE device, const CHAR16 *path,
				const struct verify_policy *policy,
				const struct secure_boot_state *sb, const char *verb, void **data,
				UINTN *size)
{
	struct verdict verdict;
	EFI_STATUS status;

	status = efi_file_read(device, path, data, size);
	if (EFI_ERROR(status)) {
		log_info(L"cannot read %s: %r", path, status);
		return status;
	}
	verify_image(*data, *size, policy, &verdict);
	if (!verdict.allowed && sb->enforcing) {
		log_info(L"refusing %s: %a", path, verdict.message);
		efi_file_free(*data, *size);
		*data = NULL;
		*size = 0;
		return EFI_SECURITY_VIOLATION;
	}
	if (verdict.allowed)
		log_info(L"%a %s: %a", verb, path, verdict.message);
	else
		log_info(L"%a %s unverified: %a", verb, path, verdict.message);
	return EFI_SUCCESS;
}

/* The MOK manager beside lockshim, verified like a kernel, when a request waits for it. */
static void run_mok_manager(EFI_HANDLE image, EFI_HANDLE device, const CHAR16 *dir,
			    const struct verify_policy *policy, const struct secure_boot_state *sb)
{
	EFI_DEVICE_PATH *file_path;
	EFI_HANDLE manager = NULL;
	CHAR16 *path;
	void *data;
	UINTN size;
	EFI_STATUS status;

	path = join_path(dir, (const UINT16 *)MOK_MANAGER, StrLen(MOK_MANAGER));
	if (!path)
		return;
	log_info(L"starting the MOK manager");
	if (EFI_ERROR(read_verified(device, path, policy, sb, "starting", &data, &size)))
		goto out;
	file_path = FileDevicePath(device, path);
	status = file_path ? efi_load_verified_image(image, file_path, data, size, &manager)
			   : EFI_OUT_OF_RESOURCES;
	if (file_path)
		FreePool(file_path);
	if (!EFI_ERROR(status)) {
		status = BS->StartImage(manager, NULL, NULL);
		BS->UnloadImage(manager);
	}
	if (EFI_ERROR(status))
		log_info(L"the MOK manager failed: %r", status);
	efi_file_free(data, size);
out:
	FreePool(path);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	struct secure_boot_state sb;
	struct lockdown_state lockdown;
	struct verify_policy policy;
	struct efi_sbat_level sbat_level = { 0 };
	struct load_options options = { 0 };
	EFI_LOADED_IMAGE *self;
	const char *reason;
	CHAR16 *dir = NULL, *kernel_path = NULL;
	void *kernel = NULL;
	UINTN kernel_size = 0;
	EFI_STATUS status;

	char cpu[CRYPTO_CPU_DESCRIBE_SIZE];

	InitializeLib(image, system_table);
	crypto_cpu_init(); /* no constructors under UEFI: before any OpenSSL call */
	verify_policy_init(&policy);
	Print(L"lockshim %a\n", LOCKSHIM_VERSION);
	log_info(L"crypto: %a", crypto_cpu_describe(cpu, sizeof(cpu)));
	read_secure_boot_state(&sb);
	log_info(L"SecureBoot=%d SetupMode=%d", sb.secure_boot, sb.setup_mode);
	if (sb.insecure)
		log_info(L"booting in insecure mode: the machine owner disabled validation (MokSBState)");
	else if (!sb.enforcing)
		log_info(L"Secure Boot is off: images are not enforced");

	status = efi_sbat_level_apply(sb.enforcing, &sbat_level);
	if (EFI_ERROR(status) && sb.enforcing)
		goto out;
	if (sb.enforcing) {
		status = efi_sbat_check_self(&sbat_level.level);
		if (EFI_ERROR(status))
			goto out;
		policy.sbat_level = &sbat_level.level; /* images must carry .sbat it allows */
	}

	status = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self);
	if (EFI_ERROR(status)) {
		log_info(L"no loaded image protocol: %r", status);
		return status;
	}
	if (load_options_parse(self->LoadOptions, self->LoadOptionsSize, &options, &reason) < 0) {
		log_info(L"ignoring load options: %a", reason);
		options = (struct load_options){ 0 };
	}

	dir = efi_file_directory(self->FilePath);
	if (!dir) {
		status = EFI_OUT_OF_RESOURCES;
		goto out;
	}
	if (options.kernel_path)
		kernel_path = join_path(dir, options.kernel_path, options.kernel_path_len);
	else
		kernel_path = join_path(dir, (const UINT16 *)DEFAULT_KERNEL, StrLen(DEFAULT_KERNEL));
	if (!kernel_path) {
		status = EFI_OUT_OF_RESOURCES;
		goto out;
	}

	status = efi_policy_load(&policy);
	if (EFI_ERROR(status))
		goto out; /* no usable vendor certificate: nothing could be verified */
	if (efi_mok_request_pending() || efi_mok_entry_requested())
		run_mok_manager(image, self->DeviceHandle, dir, &policy, &sb);
	if (efi_mok_db_ignored()) {
		/* after the MOK manager, which db may have signed: the owner can always get back */
		log_info(L"not trusting db for the kernel: the machine owner said so (MokDBState)");
		sig_db_free(&policy.db);
	}

	status = read_verified(self->DeviceHandle, kernel_path, &policy, &sb, "booting", &kernel,
			       &kernel_size);
	if (EFI_ERROR(status))
		goto out;

	lockdown_state_of(&sb, &lockdown);
	status = efi_handoff_install(&lockdown, &policy);
	if (EFI_ERROR(status)) {
		/* a kernel that cannot be told to lock down must not run when it should */
		log_info(L"cannot install the lockdown table: %r", status);
		if (sb.enforcing)
			goto out;
	}
	log_info(L"lockdown table: %a", lockdown.locked ? "locked (Secure Boot)" : "not locked");
	status = start_kernel(image, self->DeviceHandle, kernel_path, kernel, kernel_size, &options);
out:
	verify_policy_free(&policy);
	efi_sbat_level_free(&sbat_level);
	efi_file_free(kernel, kernel_size);
	if (kernel_path)
		FreePool(kernel_path);
	if (dir)
		FreePool(dir);
	return status;
}
