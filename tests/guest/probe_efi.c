// SPDX-License-Identifier: GPL-2.0-only
/*
 * lockshim guest probe: the firmware's variable store (probe.h), as the
 * loader handed it over in the MokVar table's VariableInfo entry and as
 * efivarfs reports it now (statfs: f_bsize 1, f_blocks and f_bfree the
 * bytes QueryVariableInfo gives for NV|BS|RT, fs/efivarfs/super.c).
 */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define VARIABLE_INFO "/sys/firmware/efi/mok-variables/VariableInfo"
#define EFIVARFS      "/sys/firmware/efi/efivars"

/*
 * `PROBE variable_info line TEXT` for each line of the MokVar table's
 * VariableInfo entry, or `PROBE variable_info absent`; then
 * `PROBE efivarfs_statfs info bsize=B blocks=N bfree=N`.
 */
void probe_variable_store(void)
{
	char text[1024], *line, *save = NULL;
	struct statfs st;
	ssize_t n = -1;
	int mounted;
	int fd = open(VARIABLE_INFO, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
	}
	if (n < 0) {
		out("variable_info", "absent", "open/read(%s) errno=%s(%d)", VARIABLE_INFO,
		    errname(errno), errno);
	} else {
		text[n] = 0;
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			out("variable_info", "line", "%s", line);
	}

	/* read-only, and gone again after: nothing later sees it (EBUSY: already there) */
	mounted = !mount("efivarfs", EFIVARFS, "efivarfs", MS_RDONLY, NULL);
	if (statfs(EFIVARFS, &st))
		out("efivarfs_statfs", "untested", "statfs(%s) errno=%s(%d)", EFIVARFS,
		    errname(errno), errno);
	else
		out("efivarfs_statfs", "info", "bsize=%ld blocks=%llu bfree=%llu", (long)st.f_bsize,
		    (unsigned long long)st.f_blocks, (unsigned long long)st.f_bfree);
	if (mounted)
		umount(EFIVARFS);
}
