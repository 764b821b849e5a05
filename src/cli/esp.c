// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "esp.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "file.h"

/* The entry of directory @dir named @component in any case, appended to @path. */
static int find_component(char *path, size_t size, const char *component)
{
	size_t len = strlen(path);
	struct dirent *d;
	DIR *dir = opendir(path);
	int found = 0;

	if (!dir) {
		if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
			return 0; /* a loop of symbolic links leads nowhere, as a missing name */
		say_error("%s: %s", path, strerror(errno));
		return -1;
	}
	while (!found && (d = readdir(dir)))
		if (strcasecmp(d->d_name, component) == 0) {
			if (snprintf(path + len, size - len, "/%s", d->d_name) >=
			    (int)(size - len)) {
				say_error("%s: path too long", path);
				found = -1;
			} else {
				found = 1;
			}
		}
	closedir(dir);
	return found;
}

int esp_resolve(const char *root, const char *name, char *out, size_t size)
{
	char component[256];
	const char *p = name;

	if (snprintf(out, size, "%s", root) >= (int)size) {
		say_error("%s: path too long", root);
		return -1;
	}
	while (*p) {
		size_t len = 0;
		int r;

		while (*p == '\\' || *p == '/')
			p++;
		while (p[len] && p[len] != '\\' && p[len] != '/')
			len++;
		if (!len)
			break;
		if (len >= sizeof(component) || (len <= 2 && p[0] == '.' && p[len - 1] == '.'))
			return 0; /* no such name, and never a way out of the root */
		snprintf(component, sizeof(component), "%.*s", (int)len, p);
		r = find_component(out, size, component);
		if (r <= 0)
			return r;
		p += len;
	}
	return 1;
}

/* The mount point of block device @device in /proc/self/mountinfo, into @out. */
static bool mount_point_of(const char *device, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], src[PATH_MAX];
		const char *sep = strstr(line, " - ");

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE ... */
		if (sep && sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 &&
		    sscanf(sep + 3, "%*s %4095s", src) == 1 && strcmp(src, device) == 0) {
			snprintf(out, size, "%s", mnt);
			found = true;
		}
	}
	if (f)
		fclose(f);
	return found;
}

int esp_find_live(const char *partuuid, char *out, size_t size)
{
	static const char *const usual[] = { "/boot/efi", "/efi", "/boot" };
	char link[PATH_MAX], device[PATH_MAX], lower[64], efi[PATH_MAX + 8];
	struct stat st;
	size_t i;

	if (partuuid && partuuid[0]) {
		for (i = 0; partuuid[i] && i + 1 < sizeof(lower); i++)
			lower[i] = (char)tolower((unsigned char)partuuid[i]);
		lower[i] = '\0';
		snprintf(link, sizeof(link), "/dev/disk/by-partuuid/%s", lower);
		if (realpath(link, device) && mount_point_of(device, out, size))
			return 0;
	}
	for (i = 0; i < sizeof(usual) / sizeof(usual[0]); i++) {
		snprintf(efi, sizeof(efi), "%s/EFI", usual[i]);
		if (stat(efi, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(out, size, "%s", usual[i]);
			return 0;
		}
	}
	say_error("no ESP found (LoaderDevicePartUUID %s; none of /boot/efi, /efi, /boot "
		  "holds EFI): give --esp DIR",
		  partuuid && partuuid[0] ? partuuid : "not set");
	return -1;
}

/* The value of udev property @key ("ID_PART_ENTRY_TYPE=") of block device @devno ("8:2"). */
static bool udev_property(const char *devno, const char *key, char *out, size_t size)
{
	char path[128], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/run/udev/data/b%s", devno);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		if (strncmp(line, "E:", 2) == 0 && strncmp(line + 2, key, strlen(key)) == 0) {
			snprintf(out, size, "%s", line + 2 + strlen(key));
			out[strcspn(out, "\n")] = '\0';
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

int xbootldr_find_live(const char *esp, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], esp_disk[64] = "";
	int found = 0;

	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ...: the ESP's disk first */
	for (int pass = 0; f && pass < 2 && !found; pass++) {
		rewind(f);
		while (!found && fgets(line, sizeof(line), f)) {
			char devno[64], root[PATH_MAX], mnt[PATH_MAX], value[128];

			if (sscanf(line, "%*s %*s %63s %4095s %4095s", devno, root, mnt) != 3)
				continue;
			if (pass == 0) {
				if (strcmp(mnt, esp) == 0)
					udev_property(devno, "ID_PART_ENTRY_DISK=", esp_disk,
						      sizeof(esp_disk));
				continue;
			}
			if (strcmp(root, "/") != 0 || strcmp(mnt, esp) == 0 ||
			    !udev_property(devno, "ID_PART_ENTRY_TYPE=", value, sizeof(value)) ||
			    strcasecmp(value, XBOOTLDR_TYPE_GUID) != 0)
				continue;
			if (esp_disk[0] &&
			    (!udev_property(devno, "ID_PART_ENTRY_DISK=", value, sizeof(value)) ||
			     strcmp(value, esp_disk) != 0))
				continue;
			snprintf(out, size, "%s", mnt);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found;
}
