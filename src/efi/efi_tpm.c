// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_tpm.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"

#define TCG2_PE_COFF_IMAGE 0x0000000000000010ULL
/*
 * EFI_TCG2_BOOT_SERVICE_CAPABILITY 1.1 is laid out with natural alignment
 * (EDK2, shim): TPMPresentFlag at 16, as TrEEPresentFlag in TrEE's 1.0
 * structure, which firmware answers with for a smaller Size.
 */
#define CAPABILITY_PRESENT_OFFSET 16
#define CAPABILITY_SIZE           36

struct tcg2_event_header {
	UINT32 header_size;
	UINT16 header_version;
	UINT32 pcr_index;
	UINT32 event_type;
} __attribute__((packed));

struct tcg2_event {
	UINT32 size;
	struct tcg2_event_header header;
	UINT8 event[];
} __attribute__((packed));

struct tcg2_protocol {
	EFI_STATUS(EFIAPI *get_capability)(struct tcg2_protocol *this, void *capability);
	void *get_event_log;
	EFI_STATUS(EFIAPI *hash_log_extend_event)
	(struct tcg2_protocol *this, UINT64 flags, EFI_PHYSICAL_ADDRESS data, UINT64 size,
	 struct tcg2_event *event);
	void *submit_command;
	void *get_active_pcr_banks;
	void *set_active_pcr_banks;
	void *get_result_of_set_active_pcr_banks;
};

void efi_tpm_open(struct efi_tpm *tpm)
{
	UINT8 capability[CAPABILITY_SIZE] = { CAPABILITY_SIZE };
	struct tcg2_protocol *tcg2 = NULL;

	EFI_STATUS status;

	tpm->tcg2 = NULL;
	status = LibLocateProtocol(&tcg2_protocol_guid, (void **)&tcg2);
	if (EFI_ERROR(status) || !tcg2)
		return;
	/* the protocol without a TPM behind it (OVMF without one attached) */
	status = tcg2->get_capability(tcg2, capability);
	if (EFI_ERROR(status) || !capability[CAPABILITY_PRESENT_OFFSET])
		return;
	tpm->tcg2 = tcg2;
}

int efi_tpm_extend(const struct measure_event *event, void *ctx)
{
	struct efi_tpm *tpm = ctx;
	_cleanup_pool_ struct tcg2_event *e = NULL;
	EFI_PHYSICAL_ADDRESS data = (EFI_PHYSICAL_ADDRESS)(UINTN)event->data;
	EFI_STATUS status = EFI_UNSUPPORTED;

	if (!tpm->tcg2)
		return 0;
	/* the size is 32-bit: an image's event carries a device path a second stage chose */
	if (event->event_size > (UINT32)-1 - sizeof(*e)) {
		log_error("TPM: cannot measure an event of %lu bytes", (UINTN)event->event_size);
		return -1;
	}
	e = AllocatePool(sizeof(*e) + event->event_size);
	if (!e) {
		log_error("TPM: cannot measure: out of memory");
		return -1;
	}
	e->size = (UINT32)(sizeof(*e) + event->event_size);
	e->header = (struct tcg2_event_header){ sizeof(e->header), 1, event->pcr, event->type };
	CopyMem(e->event, (void *)event->event, event->event_size);

	if (event->pe_image)
		status = tpm->tcg2->hash_log_extend_event(tpm->tcg2, TCG2_PE_COFF_IMAGE, data,
							  event->data_size, e);
	if (!event->pe_image || (EFI_ERROR(status) && status != EFI_VOLUME_FULL))
		status = tpm->tcg2->hash_log_extend_event(tpm->tcg2, 0, data, event->data_size, e);
	if (status == EFI_VOLUME_FULL) {
		log_warning("TPM: PCR %u extended, but the event log is full", event->pcr);
		return 0;
	}
	if (EFI_ERROR(status)) {
		log_error_status(status, "TPM: cannot measure into PCR %u", event->pcr);
		return -1;
	}
	return 0;
}
