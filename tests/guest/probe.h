// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the parts of the lockshim guest probe share (probe.c says what the
 * probe does and prints):
 *   probe.c          main: the order of the checks; output and the kernel
 *                    messages a check caused; the lockshim lines of the boot log
 *   probe_caps.c     the lockdown level and CAP_SYS_RAWIO
 *   probe_io.c       raw I/O: iopl, ioperm, /dev/mem, /dev/port
 *   probe_kexec.c    kexec_load, kexec_file_load, the kexec into a next kernel
 *   probe_modules.c  modules (finit_module, sig_enforce) and the keyrings
 *                    their signatures are checked against
 *   probe_acpi.c     the ACPI tables the kernel installed
 *   probe_pci.c      PCI devices in sysfs: finding one, binding it to a driver
 *   probe_uio.c      PCI memory mapped to user space (uio_pci_generic, uio_netx)
 *   probe_vfio.c     a PCI device driven from user space through VFIO, with
 *                    or without an IOMMU (QEMU's edu device and its DMA)
 *   probe_tpm.c      the TPM's PCRs and the firmware's event log
 *   probe_rawio.c    what the capability drop costs: SG_IO, bsg, HDIO, FIBMAP
 *   probe_params.c   what command-line parameters reached: pmem devices, the
 *                    consoles, a module parameter's value
 *   probe_efi.c      the firmware's variable store: the loader's VariableInfo
 *                    and efivarfs' statfs
 */
#ifndef LOCKSHIM_PROBE_H
#define LOCKSHIM_PROBE_H

#define _GNU_SOURCE
#include <stddef.h>
#include <linux/capability.h>

#define CAP_BIT CAP_SYS_RAWIO	/* the capability the patch removes */

/* probe.c */
void out(const char *check, const char *result, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *errname(int e);
void kmsg_skip(void);
void kmsg_collect(char *buf, size_t size);
void report_op(const char *check, const char *tried, long ret, int err);
/* A check on one file: its name, the file's path, an open descriptor, its size. */
typedef void file_check_fn(const char *check, const char *path, int fd, long long size);
void each_file(const char *dir, const char *suffix, const char *what, file_check_fn *fn);

/* probe_caps.c */
void probe_lockdown(void);
void probe_capfield(const char *check, const char *pid, const char *field);
void probe_regain(void);

/* probe_io.c */
void probe_iopl(void);
void probe_ioperm(void);
void probe_open(const char *check, const char *path);

/* probe_kexec.c */
void probe_kexec_load(void);
file_check_fn probe_kexec_file;
void kexec_assemble(const char *parts, const char *dir);
void kexec_corpus(const char *parts);
int kexec_into(const char *image, const char *initrd, const char *cmdline);

/* probe_modules.c */
void probe_sig_enforce_off(void);
file_check_fn probe_module;
void probe_keyrings(void);

/* probe_params.c */
void probe_pmem(void);
void probe_consoles(void);
void probe_sysfs_value(const char *check, const char *path);

/* probe_efi.c */
void probe_variable_store(void);

/* probe_acpi.c */
void probe_acpi_table(const char *oem_table_id);

/* probe_pci.c */
#define PCI_DEVICES "/sys/bus/pci/devices"
/*
 * The first PCI device without a driver whose vendor is VENDOR (and whose
 * device is DEVICE, unless NULL) into NAME; 0, or -1 when there is none.
 */
int unbound_device(const char *vendor, const char *device, char *name, size_t size);
/*
 * Bind PCI device DEV to DRIVER (its sysfs directory DRVDIR) with
 * driver_override: the check CHECK reports the bind (the driver's probe
 * error, and the kernel's messages); 0 once bound, or -1.
 */
int bind_device(const char *check, const char *driver, const char *drvdir, const char *dev);

/* probe_uio.c */
void probe_uio(void);

/* probe_vfio.c */
void probe_vfio(void);

/* probe_tpm.c */
void probe_tpm(void);

/* probe_rawio.c */
void probe_rawio(void);

#endif
