// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "pcrlock.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "json.h"
#include "macro.h"

static void hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

void chain_pcrs_print_text(const struct chain_pcrs *pcrs)
{
	const struct {
		int pcr;
		const uint8_t *value;
	} rows[] = { { 4, pcrs->pcr4 }, { 7, pcrs->pcr7 }, { 14, pcrs->pcr14 } };

	if (!pcrs->predicted) {
		if (pcrs->note[0])
			printf("  PCRs not predicted: %s\n", pcrs->note);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		printf("  PCR %d ", rows[i].pcr);
		hex(stdout, rows[i].value, 32);
		printf("\n");
	}
}

void chain_pcrs_print_json(const struct chain_pcrs *pcrs)
{
	json_print_key("pcrs", true);
	if (!pcrs->predicted) {
		printf("null");
		json_print_key("pcrs_note", true);
		json_print_string_or_null(pcrs->note);
		return;
	}
	printf("{\"4\": \"");
	hex(stdout, pcrs->pcr4, 32);
	printf("\", \"7\": \"");
	hex(stdout, pcrs->pcr7, 32);
	printf("\", \"14\": \"");
	hex(stdout, pcrs->pcr14, 32);
	printf("\"}");
}

/* One component file: the events of @kind. */
static int write_component(const char *dir, const char *name, const struct chain_pcrs *pcrs,
			   enum chain_event_kind kind)
{
	char path[4096], tmp[4200];
	size_t n = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s.pcrlock", dir, name) >= (int)sizeof(path)) {
		say_error("%s: path too long", dir);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		say_error("%s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "{\"records\":[");
	for (size_t i = 0; i < pcrs->n_events; i++) {
		if (pcrs->events[i].kind != kind)
			continue;
		fprintf(f, "%s{\"pcr\":%u,\"digests\":[{\"hashAlg\":\"sha256\",\"digest\":\"",
			n++ ? "," : "", pcrs->events[i].pcr);
		hex(f, pcrs->events[i].sha256, 32);
		fprintf(f, "\"}]}");
	}
	fprintf(f, "]}\n");
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		say_error("%s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

int pcrlock_write(const char *dir, const struct chain_pcrs *pcrs)
{
	/* as systemd-pcrlock makes its own: a directory that is not there yet is created */
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		say_error("%s: %s", dir, strerror(errno));
		return -1;
	}
	return write_component(dir, "630-lockshim-mok-state", pcrs, EVENT_MOK_STATE) < 0 ||
			       write_component(dir, "640-lockshim-authority", pcrs,
					       EVENT_AUTHORITY) < 0 ||
			       write_component(dir, "650-lockshim-images", pcrs, EVENT_IMAGE) < 0 ?
		       -1 :
		       0;
}
