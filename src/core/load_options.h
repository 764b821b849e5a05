/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * lockshim's load options, as a boot entry's optional data carries them
 * (what efibootmgr -u writes): a UCS-2 string
 *
 *     [KERNEL.efi] [kernel command line...]
 *
 * The first word names the kernel when it ends in ".efi": relative to
 * lockshim's directory, or absolute on its device when it starts with '\'.
 * Everything else is the kernel's command line. An initrd= argument in it
 * names the initrd (from the root of lockshim's device, as the kernel's EFI
 * stub reads it; the first one counts); without one, lockshim serves
 * initrd.img from the kernel's directory.
 */
#ifndef LOCKSHIM_LOAD_OPTIONS_H
#define LOCKSHIM_LOAD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#define LOAD_OPTIONS_MAX_CHARS 4096 /* twice x86's COMMAND_LINE_SIZE */
#define LOAD_OPTIONS_MAX_PATH  255

struct load_options {
	const uint16_t *kernel_path; /* points into the options; NULL when not given */
	size_t kernel_path_len;      /* in characters, no terminator */
	const uint16_t *cmdline;     /* points into the options; NULL when empty */
	size_t cmdline_len;
	const uint16_t *initrd_path; /* the value of the first initrd= argument; NULL when none */
	size_t initrd_path_len;
};

/*
 * Split @size bytes of load options at @data. Empty options give an empty
 * result. Returns 0, or -1 with a reason when they are not a plain text
 * string (some firmware passes binary data), too long, or name a bad path.
 */
int load_options_parse(const void *data, size_t size, struct load_options *out,
		       const char **reason);

#endif
