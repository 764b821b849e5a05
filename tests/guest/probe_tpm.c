// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TPM as the kernel found it, for tests/qemu/test_measured_boot.sh: the
 * SHA-256 PCRs 4, 7 and 14 (PROBE tpm pcr <n> <hex>), then the firmware's
 * event log in base64, 76 characters a line (PROBE tpm log <base64>),
 * closed by PROBE tpm log-end <bytes>. Without a TPM: PROBE tpm absent.
 */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PCR_DIR   "/sys/class/tpm/tpm0/pcr-sha256"
#define EVENT_LOG "/sys/kernel/security/tpm0/binary_bios_measurements"
#define B64_LINE  57 /* bytes: 76 characters of base64 */

static void print_pcr(int pcr)
{
	char path[64], value[80];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), PCR_DIR "/%d", pcr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, value, sizeof(value) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		out("tpm", "unreadable", "%s", path);
		return;
	}
	value[n] = 0;
	value[strcspn(value, "\n")] = 0;
	out("tpm", "pcr", "%d %s", pcr, value);
}

static void base64(const unsigned char *in, size_t size, char *out_text)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < size; i += 3, out_text += 4) {
		out_text[0] = alphabet[in[i] >> 2];
		out_text[1] = alphabet[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		out_text[2] = alphabet[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
		out_text[3] = alphabet[in[i + 2] & 63];
	}
	if (i < size) {
		out_text[0] = alphabet[in[i] >> 2];
		out_text[1] = alphabet[((in[i] & 3) << 4) | (i + 1 < size ? in[i + 1] >> 4 : 0)];
		out_text[2] = i + 1 < size ? alphabet[(in[i + 1] & 15) << 2] : '=';
		out_text[3] = '=';
		out_text += 4;
	}
	*out_text = 0;
}

void probe_tpm(void)
{
	unsigned char chunk[B64_LINE];
	char text[4 * B64_LINE / 3 + 8];
	long long total = 0;
	ssize_t n;
	int fd;

	if (access(PCR_DIR, F_OK) != 0) {
		out("tpm", "absent", "no %s", PCR_DIR);
		return;
	}
	print_pcr(4);
	print_pcr(7);
	print_pcr(14);
	fd = open(EVENT_LOG, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		out("tpm", "unreadable", "%s: %s", EVENT_LOG, errname(errno));
		return;
	}
	/* securityfs hands the log out in pieces: fill each line whole */
	for (;;) {
		size_t have = 0;

		while (have < sizeof(chunk) && (n = read(fd, chunk + have, sizeof(chunk) - have)) > 0)
			have += (size_t)n;
		if (!have)
			break;
		base64(chunk, have, text);
		out("tpm", "log", "%s", text);
		total += (long long)have;
		if (have < sizeof(chunk))
			break;
	}
	close(fd);
	out("tpm", "log-end", "%lld", total);
}
