/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * `lockshim install`: the signed first stage and MOK manager into
 * \EFI\<vendor>\ on the ESP, BOOTX64.CSV for the fallback, and the boot
 * option first in BootOrder, refused when `lockshim check` says the machine
 * would not boot after it (install.c).
 */
#ifndef LOCKSHIM_INSTALL_H
#define LOCKSHIM_INSTALL_H

extern const char install_usage[];

int cmd_install(int argc, char **argv);

#endif
