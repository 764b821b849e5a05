/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * systemd's Boot Loader Interface: the variables a boot loader sets for
 * bootctl and systemd (LoaderInfo, LoaderFirmwareInfo, LoaderFirmwareType,
 * LoaderImageIdentifier, LoaderDevicePartUUID, LoaderTimeInitUSec,
 * LoaderTimeExecUSec), volatile, formatted by the core
 * (loader_interface.c) as systemd-boot 252 formats them.
 */
#ifndef LOCKSHIM_EFI_LOADER_INTERFACE_H
#define LOCKSHIM_EFI_LOADER_INTERFACE_H

#include <efi.h>

/*
 * The TSC now, for LoaderTimeInitUSec: 0 when the CPU reports a hypervisor,
 * whose TSC need not count from the machine's reset (systemd-boot 252
 * then sets no time either). No firmware call: for the first line of
 * efi_main.
 */
UINT64 efi_loader_ticks(void);

/*
 * Set the variables, right before the next stage starts (a systemd-boot
 * started then sets its own over them), once per boot: a second call does
 * nothing. @image is lockshim's image, @version what its banner prints,
 * @init_ticks efi_loader_ticks() as lockshim started; LoaderTimeExecUSec
 * is taken last, now. A variable that cannot be set is a warning, never an
 * error; one line says what was set.
 */
void efi_loader_interface_set(EFI_HANDLE image, const char *version, UINT64 init_ticks);

#endif
