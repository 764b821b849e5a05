// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mok_pending.h"

#include <stdio.h>
#include <string.h>

#include <openssl/x509.h>

#include "efivars.h"
#include "file.h"
#include "json.h"
#include "macro.h"
#include "signature_list.h"

static int describe_entry(const struct esl_entry *e, void *ctx)
{
	char *out = ctx;
	size_t len = strlen(out);
	char subject[200] = "";

	if (e->type == ESL_X509) {
		const unsigned char *p = e->data;
		X509 *cert = d2i_X509(NULL, &p, (long)e->size);

		if (cert)
			X509_NAME_oneline(X509_get_subject_name(cert), subject, sizeof(subject));
		X509_free(cert);
	} else {
		for (size_t i = 0; i < e->size && i < 32; i++)
			snprintf(subject + 2 * i, sizeof(subject) - 2 * i, "%02x", e->data[i]);
	}
	snprintf(out + len, 600 - len, "%s%s %s", len ? "; " : "", esl_type_name(e->type), subject);
	return 0;
}

/* The requests mokutil leaves for the MOK manager, said with what each would change. */
int mok_pending_print(const char *efivars, bool json)
{
	static const struct {
		const char *name, *effect;
		bool list;
	} requests[] = {
		{ "MokNew", "adds to MokList", true },
		{ "MokDel", "deletes from MokList", true },
		{ "MokXNew", "adds to MokListX", true },
		{ "MokXDel", "deletes from MokListX", true },
		{ "MokSB", "turns validation off or on (MokSBState)", false },
		{ "MokDB", "stops or starts trusting db (MokDBState)", false },
		{ "MokPW", "sets or clears the MOK password", false },
		{ "MokTML", "trusts MOK keys for modules or stops (MokListTrusted)", false },
		{ "SbatPolicy", "asks for another SbatLevel at the next boot", false },
	};
	size_t shown = 0;

	for (size_t i = 0; i < ARRAY_SIZE(requests); i++) {
		char what[600] = "";
		const char *reason;
		struct efivar v;

		if (efivar_read(efivars, requests[i].name, SHIM_GUID_TEXT, &v) < 0)
			return -1;
		if (!v.present)
			continue;
		if (requests[i].list &&
		    esl_walk(v.data, v.size, describe_entry, what, &reason) > 0) {
			say_error("%s: malformed request: %s", v.source, reason);
			efivar_free(&v);
			return -1;
		}
		efivar_free(&v);
		if (json) {
			printf("%s{", shown ? ", " : "");
			json_print_key("variable", false);
			json_print_string(requests[i].name);
			json_print_key("effect", true);
			json_print_string(requests[i].effect);
			json_print_key("entries", true);
			json_print_string(what);
			printf("}");
		} else {
			printf("pending %s: once confirmed at the console, %s%s%s\n",
			       requests[i].name, requests[i].effect, what[0] ? ": " : "", what);
		}
		shown++;
	}
	return 0;
}
