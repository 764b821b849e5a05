// SPDX-License-Identifier: GPL-2.0-only
/* lockshim guest probe: the ACPI tables the kernel installed (probe.h) */
#include "probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ACPI_TABLES_DIR "/sys/firmware/acpi/tables"
#define ACPI_HEADER_SIZE 36
#define ACPI_OEM_TABLE_ID_OFFSET 16
#define ACPI_OEM_TABLE_ID_SIZE 8

/*
 * The file in DIR holding a table with OEM_TABLE_ID, into PATH (size
 * PATH_SIZE): 1 if there is one, 0 if not, -1 if DIR cannot be read.
 */
static int find_table(const char *dir_path, const char *oem_table_id, char *path, size_t path_size)
{
	unsigned char hdr[ACPI_HEADER_SIZE];
	struct dirent *d;
	DIR *dir = opendir(dir_path);

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		int fd;
		ssize_t n;

		if (d->d_type != DT_REG)
			continue;
		snprintf(path, path_size, "%s/%s", dir_path, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, hdr, sizeof(hdr));
		close(fd);
		if (n == (ssize_t)sizeof(hdr) &&
		    !memcmp(hdr + ACPI_OEM_TABLE_ID_OFFSET, oem_table_id, ACPI_OEM_TABLE_ID_SIZE)) {
			closedir(dir);
			return 1;
		}
	}
	closedir(dir);
	return 0;
}

/*
 * Whether a table with OEM_TABLE_ID (8 characters) is among the kernel's
 * tables, installed at boot or loaded since (dynamic/: an SSDT from an EFI
 * variable, say): `PROBE acpi_table:ID present FILE` or `absent`.
 */
void probe_acpi_table(const char *oem_table_id)
{
	char check[64], path[300];

	snprintf(check, sizeof(check), "acpi_table:%s", oem_table_id);
	switch (find_table(ACPI_TABLES_DIR, oem_table_id, path, sizeof(path))) {
	case -1:
		out(check, "untested", "no %s", ACPI_TABLES_DIR);
		return;
	case 1:
		out(check, "present", "%s", path);
		return;
	}
	if (find_table(ACPI_TABLES_DIR "/dynamic", oem_table_id, path, sizeof(path)) == 1) {
		out(check, "present", "%s", path);
		return;
	}
	out(check, "absent", "no table in %s or %s/dynamic has OEM table ID %s", ACPI_TABLES_DIR,
	    ACPI_TABLES_DIR, oem_table_id);
}
