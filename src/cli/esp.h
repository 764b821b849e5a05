/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The ESP and the kernels' filesystem on the host: where they are mounted
 * on a running system, and files on them by the names the firmware and the
 * loaders use (FAT compares names without regard to case).
 */
#ifndef LOCKSHIM_ESP_H
#define LOCKSHIM_ESP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The host path of @name (separators '\' or '/', from the root of the
 * filesystem mounted at @root) into @out (@size bytes): each component
 * matched without regard to ASCII case, as FAT does. Returns 1 found, 0
 * when a component does not exist, -1 (said) when a directory cannot be
 * read or the path is too long.
 */
int esp_resolve(const char *root, const char *name, char *out, size_t size);

/*
 * Where the running system's ESP is mounted, into @out: the partition the
 * boot loader named (@partuuid, LoaderDevicePartUUID; NULL or empty when
 * not set) through /dev/disk/by-partuuid and /proc/self/mountinfo, else
 * the first of /boot/efi, /efi, /boot that holds an EFI directory.
 * Returns 0, or -1 having said why none was found.
 */
int esp_find_live(const char *partuuid, char *out, size_t size);

/* XBOOTLDR's partition type GUID (the Discoverable Partitions Specification), as udev spells it. */
#define XBOOTLDR_TYPE_GUID "bc13c2ff-59e6-4262-a352-b57fc7aa6fb3"

/*
 * Where the running system mounts a partition of XBOOTLDR's type on the
 * ESP's disk (@esp, its mount point), as systemd-boot finds it: by the
 * type udev read from the GPT (/run/udev/data), never by a path name.
 * Returns 1 found (into @out), 0 none.
 */
int xbootldr_find_live(const char *esp, char *out, size_t size);

#endif
