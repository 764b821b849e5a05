// SPDX-License-Identifier: BSD-2-Clause-Patent
/* Injected faults for tests (efi_fault.h); empty unless LOCKSHIM_FAULT_INJECTION. */
#ifdef LOCKSHIM_FAULT_INJECTION
#include "efi_fault.h"

#include <efilib.h>

#include "efi_guid.h"

enum fault_kind {
	FAULT_ALLOCATE_POOL,
	FAULT_ALLOCATE_PAGES,
	FAULT_GET_VARIABLE,
	FAULT_SET_VARIABLE,
	FAULT_READ_FILE,
	FAULT_LOAD_IMAGE,
	FAULT_KINDS
};

static const CHAR16 *const fault_kind_names[FAULT_KINDS] = {
	L"AllocatePool", L"AllocatePages", L"GetVariable",
	L"SetVariable",  L"ReadFile",      L"LoadImage",
};

/* One boot's count, shared by lockshim and the MOK manager through a protocol. */
struct fault_counter {
	UINT32 fail_at; /* the call that fails; 0: none, count and list them */
	UINT32 calls;
	UINT32 per_kind[FAULT_KINDS];
};

/* LockshimFaultAt's attributes (the table's) and data, as the harness writes them. */
#define FAULT_AT_ATTRIBUTES variables[VAR_LOCKSHIM_FAULT_AT].attributes
struct fault_at_variable {
	char tag[8]; /* "LSFAULT!" */
	UINT32 call;
} __attribute__((packed));

static struct fault_counter *counter;
static EFI_BOOT_SERVICES *real_bs, fault_bs;
static EFI_RUNTIME_SERVICES *real_rt, fault_rt;
static BOOLEAN reporting; /* what the console line itself calls is not counted */

/* Count a call of @kind (@name, or @size); TRUE when it is the one to fail. */
static BOOLEAN fault_hit(enum fault_kind kind, const CHAR16 *name, UINTN size)
{
	UINT32 n;

	if (!counter || reporting)
		return FALSE;
	n = ++counter->calls;
	counter->per_kind[kind]++;
	reporting = TRUE;
	if (n == counter->fail_at)
		Print(name ? L"fault: failing call %d (%s %s)\n" :
			     L"fault: failing call %d (%s %ld)\n",
		      n, fault_kind_names[kind], name ? (UINTN)name : size);
	else if (!counter->fail_at && kind != FAULT_ALLOCATE_POOL)
		Print(name ? L"fault: call %d: %s %s\n" : L"fault: call %d: %s %ld\n", n,
		      fault_kind_names[kind], name ? (UINTN)name : size);
	reporting = FALSE;
	return n == counter->fail_at;
}

static void fault_tally(void)
{
	const UINT32 *k = counter->per_kind;

	if (counter->fail_at)
		return;
	reporting = TRUE;
	Print(L"fault: tally: %d calls: AllocatePool %d, AllocatePages %d, GetVariable %d, "
	      L"SetVariable %d, ReadFile %d, LoadImage %d\n",
	      counter->calls, k[FAULT_ALLOCATE_POOL], k[FAULT_ALLOCATE_PAGES],
	      k[FAULT_GET_VARIABLE], k[FAULT_SET_VARIABLE], k[FAULT_READ_FILE],
	      k[FAULT_LOAD_IMAGE]);
	reporting = FALSE;
}

static EFI_STATUS EFIAPI fault_allocate_pool(EFI_MEMORY_TYPE type, UINTN size, void **buffer)
{
	if (fault_hit(FAULT_ALLOCATE_POOL, NULL, size))
		return EFI_OUT_OF_RESOURCES;
	return real_bs->AllocatePool(type, size, buffer);
}

static EFI_STATUS EFIAPI fault_allocate_pages(EFI_ALLOCATE_TYPE type, EFI_MEMORY_TYPE memory,
					      UINTN pages, EFI_PHYSICAL_ADDRESS *address)
{
	/* runtime pages are the kernel's tables (efi_handoff.c): named for the walks */
	if (fault_hit(FAULT_ALLOCATE_PAGES, memory == EfiRuntimeServicesData ? L"runtime" : NULL,
		      pages))
		return EFI_OUT_OF_RESOURCES;
	return real_bs->AllocatePages(type, memory, pages, address);
}

static EFI_STATUS EFIAPI fault_load_image(BOOLEAN boot_policy, EFI_HANDLE parent,
					  EFI_DEVICE_PATH *path, void *buffer, UINTN size,
					  EFI_HANDLE *image)
{
	if (fault_hit(FAULT_LOAD_IMAGE, NULL, size))
		return EFI_LOAD_ERROR;
	return real_bs->LoadImage(boot_policy, parent, path, buffer, size, image);
}

/*
 * Not counted: says how many calls came before the next image starts, and
 * whether the firmware's tables, which that image is given, are still the
 * firmware's own.
 */
static EFI_STATUS EFIAPI fault_start_image(EFI_HANDLE image, UINTN *exit_size, CHAR16 **exit_data)
{
	if (ST->BootServices != real_bs || ST->RuntimeServices != real_rt)
		Print(L"fault: the system table no longer holds the firmware's services\n");
	fault_tally();
	return real_bs->StartImage(image, exit_size, exit_data);
}

static EFI_STATUS EFIAPI fault_get_variable(CHAR16 *name, EFI_GUID *vendor, UINT32 *attributes,
					    UINTN *size, void *data)
{
	if (fault_hit(FAULT_GET_VARIABLE, name, 0))
		return EFI_DEVICE_ERROR;
	return real_rt->GetVariable(name, vendor, attributes, size, data);
}

static EFI_STATUS EFIAPI fault_set_variable(CHAR16 *name, EFI_GUID *vendor, UINT32 attributes,
					    UINTN size, void *data)
{
	if (fault_hit(FAULT_SET_VARIABLE, name, 0))
		return EFI_OUT_OF_RESOURCES; /* a full variable store */
	return real_rt->SetVariable(name, vendor, attributes, size, data);
}

/* Not counted: the tally of the boot, then the reset. */
static EFI_STATUS EFIAPI fault_reset_system(EFI_RESET_TYPE type, EFI_STATUS status, UINTN size,
					    CHAR16 *data)
{
	fault_tally();
	return real_rt->ResetSystem(type, status, size, data);
}

EFI_STATUS efi_fault_file_read(EFI_FILE_HANDLE file, UINTN *size, void *buffer)
{
	if (fault_hit(FAULT_READ_FILE, NULL, *size))
		return EFI_DEVICE_ERROR;
	return file->Read(file, size, buffer);
}

/* The first program of the boot makes the counter, with the call to fail from LockshimFaultAt. */
static struct fault_counter *fault_counter_create(void)
{
	struct fault_at_variable value;
	struct fault_counter *created = NULL;
	EFI_HANDLE handle = NULL;
	UINTN size = sizeof(value);
	UINT32 attributes;

	if (EFI_ERROR(BS->AllocatePool(EfiBootServicesData, sizeof(*created), (void **)&created)))
		return NULL;
	ZeroMem(created, sizeof(*created));
	/*
	 * Only the harness's variable, written before the boot: NV+BS, no
	 * runtime access (which an OS could have written), no other attribute.
	 */
	if (!EFI_ERROR(RT->GetVariable((CHAR16 *)EFI_VAR_NAME(VAR_LOCKSHIM_FAULT_AT),
				       &lockshim_fault_guid, &attributes, &size, &value)) &&
	    size == sizeof(value) && CompareMem(value.tag, "LSFAULT!", sizeof(value.tag)) == 0) {
		if (attributes == FAULT_AT_ATTRIBUTES)
			created->fail_at = value.call;
		else
			Print(L"fault: LockshimFaultAt ignored: attributes 0x%x, not NV+BS (0x%x)\n",
			      attributes, FAULT_AT_ATTRIBUTES);
	}
	if (EFI_ERROR(BS->InstallProtocolInterface(&handle, &lockshim_fault_guid,
						   EFI_NATIVE_INTERFACE, created))) {
		BS->FreePool(created);
		return NULL;
	}
	return created;
}

void efi_fault_exit(int *scope)
{
	(void)scope;
	if (counter)
		fault_tally();
}

void efi_fault_init(void)
{
	if (EFI_ERROR(BS->LocateProtocol(&lockshim_fault_guid, NULL, (void **)&counter))) {
		counter = fault_counter_create();
		if (!counter) {
			Print(L"fault: cannot set up the fault counter\n");
			return;
		}
		if (counter->fail_at)
			Print(L"fault: injection build: failing call %d\n", counter->fail_at);
		else
			Print(L"fault: injection build: counting calls\n");
	}
	real_bs = BS;
	real_rt = RT;
	fault_bs = *BS;
	fault_bs.AllocatePool = fault_allocate_pool;
	fault_bs.AllocatePages = fault_allocate_pages;
	fault_bs.LoadImage = fault_load_image;
	fault_bs.StartImage = fault_start_image;
	fault_rt = *RT;
	fault_rt.GetVariable = fault_get_variable;
	fault_rt.SetVariable = fault_set_variable;
	fault_rt.ResetSystem = fault_reset_system;
	BS = &fault_bs;
	RT = &fault_rt;
}
#endif
