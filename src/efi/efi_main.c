// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * lockshim's entry point: read the Secure Boot and MOK state, then run the
 * boot plan (src/core/boot_plan.h), one function a step: bring SbatLevel
 * up to date and check itself, load the trust lists, offer them to second
 * stages (SHIM_LOCK) and hand the lockdown state on, run the MOK manager
 * when the owner asked for it, the fallback from the removable path, then
 * verify the next stage with the core (verify.c) and start it, only if the
 * core allows it or Secure Boot is off.
 */
#include <efi.h>
#include <efilib.h>

#include "boot_plan.h"
#include "cpu_features.h"
#include "efi_boot_record.h"
#include "efi_cleanup.h"
#include "efi_fallback.h"
#include "efi_fault.h"
#include "efi_file.h"
#include "efi_guid.h"
#include "efi_handoff.h"
#include "efi_initrd.h"
#include "efi_loader_interface.h"
#include "efi_log.h"
#include "efi_measure.h"
#include "efi_mok.h"
#include "efi_policy.h"
#include "efi_sbat.h"
#include "efi_security_override.h"
#include "efi_shim_lock.h"
#include "efi_vars.h"
#include "efi_verify.h"
#include "load_options.h"
#include "pe.h"
#include "stack_guard.h"
#include "variables.h"
#include "verify.h"

/* the build's DEFAULT_LOADER: started when the load options name no image */
#ifndef DEFAULT_LOADER
#error "DEFAULT_LOADER must be defined (the Makefile does)"
#endif
#define DEFAULT_INITRD L"initrd.img"
#define MOK_MANAGER    L"mmx64.efi"

const CHAR16 log_prefix[] = L"lockshim";

struct secure_boot_state {
	UINT8 secure_boot;   /* the SecureBoot variable; 0 when unreadable */
	UINT8 setup_mode;    /* the SetupMode variable; 0 when unreadable */
	UINT8 mok_sb_state;  /* efi_mok_sb_state(): the one attribute-checked reading */
	BOOLEAN mok_trusted; /* MokListTrusted: kernels may trust MOK keys */
	BOOLEAN db_ignored;  /* MokDBState: db is not trusted for the kernel */
	BOOLEAN insecure;    /* the owner turned validation off through the MOK manager */
	BOOLEAN enforcing;   /* SecureBoot=1, not in setup mode, validation not turned off */
};

/* Where the next stage is and what it is told: from lockshim's own loaded image. */
struct next_stage {
	EFI_HANDLE device;           /* lockshim's own device: the next stage is read from it */
	CHAR16 *dir;                 /* lockshim's directory, with a trailing '\' */
	CHAR16 *path;                /* the next stage, absolute */
	struct load_options options; /* lockshim's own, parsed (empty: none usable) */
	/* what the next stage is started with: the command line, or the fallback option's data */
	void *load_options;
	UINTN load_options_size;
};

static void next_stage_free(struct next_stage *location)
{
	if (location->load_options)
		FreePool(location->load_options);
	if (location->path)
		FreePool(location->path);
	if (location->dir)
		FreePool(location->dir);
}

/* The firmware's one-byte variable @id: @absent when it is not there, @unreadable on an error. */
static UINT8 secure_boot_variable(enum variable_id id, UINT8 absent, UINT8 unreadable)
{
	EFI_STATUS status;
	UINT8 value;

	status = efi_var_read_u8(EFI_VAR_NAME(id), efi_var_guid(id), &value, NULL);
	if (status == EFI_NOT_FOUND)
		return absent;
	if (EFI_ERROR(status)) {
		log_warning_status(status, "cannot read %ls: %m; taking %d", EFI_VAR_NAME(id),
				   unreadable);
		return unreadable;
	}
	return value;
}

static void secure_boot_state_read(struct secure_boot_state *state, const struct efi_mok_state *mok)
{
	/* absent: no Secure Boot; there but unreadable: the safe side, enforced */
	state->secure_boot = secure_boot_variable(VAR_SECURE_BOOT, 0, 1);
	state->setup_mode = secure_boot_variable(VAR_SETUP_MODE, 0, 0);
	state->mok_sb_state = efi_mok_sb_state(mok);
	state->mok_trusted = efi_mok_trusted_for_kernel(mok);
	state->db_ignored = efi_mok_db_ignored(mok);
	state->insecure = state->secure_boot == 1 && state->setup_mode == 0 &&
			  state->mok_sb_state == 1;
	state->enforcing = state->secure_boot == 1 && state->setup_mode == 0 && !state->insecure;

	log_info("SecureBoot=%d SetupMode=%d", state->secure_boot, state->setup_mode);
	if (state->insecure)
		log_info(
			"booting in insecure mode: the machine owner disabled validation (MokSBState)");
	else if (!state->enforcing)
		log_info("Secure Boot is off: images are not enforced");
	efi_record(
		BOOT_RECORD_STATE,
		"secure-boot=%s SecureBoot=%d SetupMode=%d MokSBState=%d MokDBState=%d MokListTrusted=%d",
		state->enforcing       ? "enforced" :
		state->insecure        ? "insecure-mode" :
		state->setup_mode == 1 ? "setup-mode" :
					 "off",
		state->secure_boot, state->setup_mode, state->mok_sb_state == 1, state->db_ignored,
		state->mok_trusted);
}

/*
 * Bring SbatLevel up to date and, under Secure Boot, make every image carry
 * a .sbat it allows, lockshim's own first. Without enforcement a failure
 * here does not stop the boot.
 */
static EFI_STATUS sbat_level_apply(const struct secure_boot_state *sb,
				   struct efi_sbat_level *sbat_level, struct verify_policy *policy)
{
	EFI_STATUS status;

	status = efi_sbat_level_apply(sb->enforcing, sbat_level);
	if (!sb->enforcing)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return status;
	status = efi_sbat_check_self(&sbat_level->level);
	if (EFI_ERROR(status))
		return status;
	policy->sbat_level = &sbat_level->level;
	return EFI_SUCCESS;
}

/* A new pool string: @name (@len characters) beside @dir, or alone if absolute (boot_plan.c). */
static CHAR16 *join_path(const CHAR16 *dir, const UINT16 *name, UINTN len)
{
	_cleanup_pool_ CHAR16 *path = AllocatePool((BOOT_PLAN_PATH_MAX + 1) * sizeof(CHAR16));

	if (!path || boot_plan_next_path(dir, StrLen(dir), name, len, path) < 0)
		return NULL;
	return TAKE_PTR(path);
}

/* Where lockshim is, and its load options (load_options.c; ignored, said, when they do not parse). */
static EFI_STATUS self_locate(EFI_HANDLE image, struct next_stage *location)
{
	EFI_LOADED_IMAGE *self;
	const char *reason;
	EFI_STATUS status;

	status = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&self);
	if (EFI_ERROR(status))
		return log_error_status(status, "no loaded image protocol");
	location->device = self->DeviceHandle;
	if (load_options_parse(self->LoadOptions, self->LoadOptionsSize, &location->options,
			       &reason) < 0) {
		log_info("ignoring load options: %s", reason);
		location->options = (struct load_options){};
	}

	location->dir = efi_file_directory(self->FilePath);
	return location->dir ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}

/*
 * Read @path from @device and decide on it as an image lockshim starts
 * itself, for @request (efi_verify.c; @verb: "booting", "starting").
 * Returns EFI_SECURITY_VIOLATION, with nothing read, when enforcement
 * refuses it.
 */
static EFI_STATUS read_verified(EFI_HANDLE device, const CHAR16 *path,
				const struct efi_verifier *verifier, enum verify_request request,
				const char *verb, struct efi_file_data *file)
{
	/* the TPM's record names the file alone, as shim's does */
	_cleanup_pool_ EFI_DEVICE_PATH *file_node = FileDevicePath(NULL, (CHAR16 *)path);
	EFI_STATUS status;

	status = efi_file_read(device, path, file);
	if (EFI_ERROR(status))
		return log_error_status(status, "cannot read %ls", path);
	status = efi_verify_image(verifier, file->data, file->size, request, path, verb, file_node);
	if (EFI_ERROR(status))
		efi_file_data_free(file);
	return status;
}

/*
 * The MOK manager beside lockshim, verified like a kernel, when a request
 * waits for it; even when a deny list is unusable (VERIFY_MOK_MANAGER).
 */
static void mok_manager_run(EFI_HANDLE image, const struct next_stage *location,
			    const struct efi_verifier *verifier)
{
	_cleanup_(efi_file_data_free) struct efi_file_data manager_file = {};
	_cleanup_pool_ CHAR16 *path = NULL;
	_cleanup_pool_ EFI_DEVICE_PATH *file_path = NULL;
	_cleanup_image_ EFI_HANDLE manager = NULL;
	EFI_STATUS status;

	path = join_path(location->dir, (const UINT16 *)MOK_MANAGER, StrLen(MOK_MANAGER));
	if (!path)
		return;
	log_info("starting the MOK manager");
	if (EFI_ERROR(read_verified(location->device, path, verifier, VERIFY_MOK_MANAGER,
				    "starting", &manager_file)))
		return;
	file_path = FileDevicePath(location->device, path);
	status = file_path ? efi_load_verified_image(image, file_path, manager_file.data,
						     manager_file.size, &manager) :
			     EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(status))
		status = BS->StartImage(manager, NULL, NULL);
	if (EFI_ERROR(status))
		log_error_status(status, "the MOK manager failed");
}

/*
 * The MOK manager, when the owner asked for it, then the trust lists without
 * db when the owner asked for that (@db_ignored: MokDBState).
 */
static void mok_requests_serve(EFI_HANDLE image, const struct next_stage *location,
			       const struct efi_verifier *verifier, struct verify_policy *policy,
			       BOOLEAN db_ignored)
{
	if (efi_mok_request_pending() || efi_mok_entry_requested())
		mok_manager_run(image, location, verifier);
	if (db_ignored) {
		/* after the MOK manager, which db may have signed: the owner can always get back */
		log_info("not trusting db for the kernel: the machine owner said so (MokDBState)");
		sig_db_free(&policy->db);
	}
}

/*
 * Tell the kernel whether to lock itself down (locked when Secure Boot is
 * enforced: lockshim then verifies what it starts), with the trusted keys:
 * the lockdown table and the MOK mirrors (efi_handoff.c). Before anything
 * starts, the MOK manager included: whatever runs finds lockshim's state,
 * never only what the OS left. Under enforcement, state that cannot be
 * installed stops the boot: a stock kernel would read root's variables.
 */
static EFI_STATUS lockdown_handoff(const struct secure_boot_state *sb,
				   const struct verify_policy *policy,
				   const struct sbat *sbat_level)
{
	struct lockdown_state lockdown = {
		.locked = sb->enforcing,
		.lock_reason = sb->enforcing ? LOCKSHIM_LOCK_SECURE_BOOT : LOCKSHIM_LOCK_NONE,
		.secure_boot = sb->secure_boot,
		.setup_mode = sb->setup_mode,
		.mok_sb_state = sb->mok_sb_state,
		.mok_trusted = sb->mok_trusted,
		.sbat_level = sbat_level->text,
		.sbat_level_size = sbat_level->size,
		.sbat_required = verify_sbat_required(policy, VERIFY_TO_START),
	};
	EFI_STATUS status;

	status = efi_handoff_install(&lockdown, policy, sbat_level, sb->db_ignored);
	if (EFI_ERROR(status) && sb->enforcing) {
		log_error("refusing to start anything: the kernel's tables are not installed");
		return status;
	}
	log_info("lockdown table: %s", lockdown.locked ? "locked (Secure Boot)" : "not locked");
	/* the record (verdict_reason.h) */
	efi_record(BOOT_RECORD_STATE, "lockdown=%s reason=%s", lockdown.locked ? "locked" : "none",
		   sb->enforcing ? "secure-boot" :
		   sb->insecure  ? "insecure-mode" :
				   "secure-boot-off");
	return EFI_SUCCESS;
}

/*
 * The initrd: the initrd= file of the command line (from the device's root,
 * as the kernel's EFI stub reads it), else initrd.img beside the kernel; not
 * an error when the default is absent.
 */
static void initrd_read(const struct next_stage *location, struct efi_file_data *initrd)
{
	const struct load_options *options = &location->options;
	_cleanup_pool_ CHAR16 *dir = NULL, *path = NULL;
	EFI_STATUS status;
	UINTN cut = 0;

	if (options->initrd_path) {
		path = join_path(L"\\", options->initrd_path, options->initrd_path_len);
	} else {
		dir = StrDuplicate(location->path);
		if (!dir)
			return;
		for (UINTN i = 0; dir[i]; i++)
			if (dir[i] == L'\\')
				cut = i + 1;
		dir[cut] = L'\0';
		path = join_path(dir, (const UINT16 *)DEFAULT_INITRD, StrLen(DEFAULT_INITRD));
	}
	if (!path)
		return;
	status = efi_file_read(location->device, path, initrd);
	if (status == EFI_NOT_FOUND && !options->initrd_path)
		log_info("no initrd at %ls", path);
	else if (EFI_ERROR(status))
		log_warning_status(status, "cannot read initrd %ls: %m; booting without one", path);
	else
		log_info("initrd %ls (%lu bytes)", path, initrd->size);
}

/*
 * Whether the verified next stage @file is a Linux kernel: only a kernel is
 * given lockshim's initrd. A second stage (GRUB, systemd-boot) passes the
 * kernels it starts their own, and the kernel's EFI stub would take ours,
 * still published, over GRUB's.
 */
static BOOLEAN next_stage_is_kernel(const struct efi_file_data *file)
{
	_cleanup_pool_ struct pe_image *img = AllocatePool(sizeof(*img));
	const char *reason;

	return img && pe_parse(file->data, file->size, img, &reason) == 0 &&
	       pe_is_linux_kernel(img);
}

/*
 * The next stage, its path and what it is started with: the fallback's
 * option (@fallback: its image and optional data, as the firmware starts
 * it), else the image the load options name with their command line, else
 * DEFAULT_LOADER (each beside lockshim unless absolute).
 */
static EFI_STATUS next_stage_choose(struct next_stage *location,
				    struct efi_fallback_choice *fallback)
{
	const struct load_options *options = &location->options;
	CHAR16 *cmdline;

	if (fallback->path) {
		location->path = TAKE_PTR(fallback->path);
		location->load_options = TAKE_PTR(fallback->options);
		location->load_options_size = fallback->options_size;
		location->options =
			(struct load_options){}; /* lockshim's own are not the option's */
		return EFI_SUCCESS;
	}
	if (options->kernel_path)
		location->path =
			join_path(location->dir, options->kernel_path, options->kernel_path_len);
	else
		location->path = join_path(location->dir, (const UINT16 *)DEFAULT_LOADER,
					   StrLen(DEFAULT_LOADER));
	if (!location->path)
		return EFI_OUT_OF_RESOURCES;
	if (!options->cmdline_len)
		return EFI_SUCCESS;
	cmdline = AllocatePool((options->cmdline_len + 1) * sizeof(CHAR16));
	if (!cmdline)
		return EFI_OUT_OF_RESOURCES;
	CopyMem(cmdline, (void *)options->cmdline, options->cmdline_len * sizeof(CHAR16));
	cmdline[options->cmdline_len] = L'\0';
	location->load_options = cmdline;
	location->load_options_size = (options->cmdline_len + 1) * sizeof(CHAR16);
	return EFI_SUCCESS;
}

/*
 * Load the verified next stage @file through the firmware
 * (efi_security_override.c), give it its command line and initrd, and start
 * it. While it runs, what it loads through the firmware is decided by
 * lockshim's policy when the firmware enforces Secure Boot. Just before,
 * the Boot Loader Interface's variables (@init_ticks: as lockshim started).
 */
static EFI_STATUS next_stage_start(EFI_HANDLE parent, const struct next_stage *location,
				   const struct efi_file_data *file,
				   const struct efi_verifier *verifier,
				   const struct secure_boot_state *sb, UINT64 init_ticks)
{
	/* released in the reverse order: initrd, then the image */
	_cleanup_image_ EFI_HANDLE image = NULL;
	_cleanup_(efi_file_data_free) struct efi_file_data initrd_file = {};
	_cleanup_(efi_initrd_unregisterp) struct efi_initrd *initrd = NULL;
	_cleanup_pool_ EFI_DEVICE_PATH *file_path = NULL;
	EFI_LOADED_IMAGE *loaded;
	EFI_STATUS status;

	file_path = FileDevicePath(location->device, location->path);
	if (!file_path)
		return EFI_OUT_OF_RESOURCES;
	status = efi_load_verified_image(parent, file_path, file->data, file->size, &image);
	if (EFI_ERROR(status))
		return log_error_status(status, "firmware cannot load %ls", location->path);

	status = BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&loaded);
	if (EFI_ERROR(status))
		return status;
	if (location->load_options) {
		loaded->LoadOptions = location->load_options;
		loaded->LoadOptionsSize = (UINT32)location->load_options_size;
	}

	if (next_stage_is_kernel(file))
		initrd_read(location, &initrd_file);
	if (initrd_file.data) {
		status = efi_initrd_register(initrd_file.data, initrd_file.size, &initrd);
		if (EFI_ERROR(status))
			return log_error_status(status, "cannot publish the initrd");
	}

	if (sb->secure_boot == 1 && sb->setup_mode == 0)
		efi_security_policy_install(verifier);
	/* for bootctl, as systemd-boot sets them; never again once the next stage ran */
	efi_loader_interface_set(parent, LOCKSHIM_VERSION, init_ticks);
	efi_boot_record_flush();
	status = BS->StartImage(image, NULL, NULL);
	if (sb->secure_boot == 1 && sb->setup_mode == 0)
		efi_security_policy_remove();
	log_info_status(status, "%ls returned", location->path);
	return status;
}

/* Whether the firmware offers UEFI 2.10's memory attributes protocol: the
 * sign that it maps images section by section, where NX_COMPAT (which
 * lockshimx64.efi carries) matters. Said once, for the record of the boot;
 * BS->LocateProtocol allocates nothing, unlike LibLocateProtocol. */
static bool firmware_has_memory_attributes(void)
{
	void *protocol = NULL;

	return !EFI_ERROR(BS->LocateProtocol(&memory_attribute_protocol_guid, NULL, &protocol));
}

/* One boot's state, as the plan's steps build it; boot_done releases it. */
struct boot {
	EFI_HANDLE image;  /* lockshim's own */
	UINT64 init_ticks; /* as lockshim started: LoaderTimeInitUSec */
	struct secure_boot_state sb;
	struct efi_mok_state mok;
	struct efi_sbat_level sbat_level;
	struct verify_policy policy;
	struct efi_measure measure;
	struct efi_verifier verifier; /* the policy and the measurer, above */
	EFI_HANDLE shim_lock;
	struct next_stage location;
	struct efi_fallback_choice fallback;
	struct efi_file_data file; /* the next stage, verified */
};

/* Released in the reverse order of the plan: SHIM_LOCK before the policy it answers with. */
static void boot_done(struct boot *b)
{
	efi_file_data_free(&b->file);
	efi_fallback_choice_free(&b->fallback);
	next_stage_free(&b->location);
	efi_shim_lock_uninstall(&b->shim_lock);
	efi_measure_close(&b->measure);
	verify_policy_free(&b->policy);
	efi_sbat_level_free(&b->sbat_level);
	efi_mok_state_free(&b->mok);
}

/* One step of the plan (boot_plan.h); an error stops the boot. */
static EFI_STATUS boot_step_run(struct boot *b, enum boot_step step)
{
	EFI_STATUS status;

	switch (step) {
	case BOOT_STEP_SELF_CHECK:
		return sbat_level_apply(&b->sb, &b->sbat_level, &b->policy);
	case BOOT_STEP_POLICY:
		status = efi_policy_load(&b->policy, &b->mok);
		if (EFI_ERROR(status))
			return status; /* no usable vendor certificate: nothing could be verified */
		/* as shim, before anything runs: the MOK manager too */
		efi_measure_mok_state(&b->measure, &b->sbat_level.level, &b->mok);
		return EFI_SUCCESS;
	case BOOT_STEP_HANDOFF:
		/* before any image starts, as shim installs it; removed if lockshim returns */
		status = efi_shim_lock_install(&b->verifier, &b->shim_lock);
		if (EFI_ERROR(status))
			return status;
		return lockdown_handoff(&b->sb, &b->policy, &b->sbat_level.level);
	case BOOT_STEP_MOK_REQUESTS:
		mok_requests_serve(b->image, &b->location, &b->verifier, &b->policy,
				   b->sb.db_ignored);
		return EFI_SUCCESS;
	case BOOT_STEP_FALLBACK:
		efi_fallback_run(b->image, &b->verifier, &b->fallback);
		return EFI_SUCCESS;
	case BOOT_STEP_NEXT_STAGE:
		status = next_stage_choose(&b->location, &b->fallback);
		if (EFI_ERROR(status))
			return status;
		return read_verified(b->location.device, b->location.path, &b->verifier,
				     VERIFY_TO_START, "booting", &b->file);
	case BOOT_STEP_START:
		return next_stage_start(b->image, &b->location, &b->file, &b->verifier, &b->sb,
					b->init_ticks);
	}
	return EFI_INVALID_PARAMETER;
}

static EFI_STATUS lockshim_run(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	/* first: LoaderTimeInitUSec is when lockshim started */
	_cleanup_(boot_done) struct boot b = { .image = image, .init_ticks = efi_loader_ticks() };
	bool memory_attributes;
	char cpu[CRYPTO_CPU_DESCRIBE_SIZE];
	EFI_STATUS status;

	InitializeLib(image, system_table);
	EFI_FAULT_SCOPE(); /* test builds only (efi_fault.h) */
	crypto_cpu_init(); /* no constructors under UEFI: before any OpenSSL call */
	verify_policy_init(&b.policy);
	b.verifier = (struct efi_verifier){ .policy = &b.policy, .measurer = &b.measure.measurer };
	Print(L"lockshim %a\n", LOCKSHIM_VERSION);
	efi_boot_record_begin(LOCKSHIM_VERSION); /* before anything it records */
	efi_measure_open(&b.measure);
	log_info("crypto: %s", crypto_cpu_describe(cpu, sizeof(cpu)));
	memory_attributes = firmware_has_memory_attributes();
	log_info("firmware: memory attributes protocol %s",
		 memory_attributes ? "present" : "absent");
	efi_record(BOOT_RECORD_STATE, "memory-attributes=%s",
		   memory_attributes ? "present" : "absent");
	efi_mok_state_read(&b.mok); /* once: what follows decides from this reading */
	secure_boot_state_read(&b.sb, &b.mok);
	b.verifier.enforcing = b.sb.enforcing;
	status = self_locate(image, &b.location);
	if (EFI_ERROR(status))
		return status;

	for (size_t i = 0; i < boot_plan_length; i++) {
		status = boot_step_run(&b, boot_plan[i].step);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

/* lockshim_run, and this boot's record written however it ends (efi_boot_record.h) */
static EFI_STATUS lockshim_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	EFI_STATUS status = lockshim_run(image, system_table);

	efi_boot_record_flush();
	return status;
}

/* The firmware's entry: the stack guard from its RNG, then lockshim_main. */
EFI_MAIN_WITH_STACK_GUARD(lockshim_main)
