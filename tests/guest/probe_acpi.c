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
 * Whether a table with OEM_TABLE_ID (8 characters) is among the kernel's
 * tables: `PROBE acpi_table:ID present FILE` or `absent`.
 */
void probe_acpi_table(const char *oem_table_id)
{
	char check[64], path[300];
	unsigned char hdr[ACPI_HEADER_SIZE];
	struct dirent *d;
	DIR *dir;

	snprintf(check, sizeof(check), "acpi_table:%s", oem_table_id);
	dir = opendir(ACPI_TABLES_DIR);
	if (!dir) {
		out(check, "untested", "no %s", ACPI_TABLES_DIR);
		return;
	}
	while ((d = readdir(dir))) {
		int fd;
		ssize_t n;

		if (d->d_type != DT_REG)
			continue;
		snprintf(path, sizeof(path), "%s/%s", ACPI_TABLES_DIR, d->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, hdr, sizeof(hdr));
		close(fd);
		if (n == (ssize_t)sizeof(hdr) &&
		    !memcmp(hdr + ACPI_OEM_TABLE_ID_OFFSET, oem_table_id, ACPI_OEM_TABLE_ID_SIZE)) {
			out(check, "present", "%s", path);
			closedir(dir);
			return;
		}
	}
	closedir(dir);
	out(check, "absent", "no table in %s has OEM table ID %s", ACPI_TABLES_DIR, oem_table_id);
}
