// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * Request parsing and password checks on the variables Debian's mokutil
 * 0.6.0 really wrote (tests/vectors/mokutil/, see its README): the right
 * password matches, a wrong one does not, the signature lists parse.
 * Run from the repository's root (tests/run.sh does).
 */
#include "mok_list.h"
#include "mok_request.h"
#include "password_crypt.h"
#include "signature_list.h"
#include "unit.h"

#include <stdlib.h>

#define VECTORS "tests/vectors/mokutil/"

static uint8_t *read_vector(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = malloc(4096);

	*size = f ? fread(data, 1, 4096, f) : 0;
	if (f)
		fclose(f);
	if (!*size) {
		printf("# cannot read %s\n", path);
		free(data);
		return NULL;
	}
	return data;
}

/* @ascii as UCS-2 characters in @out (room for 64); returns how many. */
static size_t ucs2(const char *ascii, uint16_t *out)
{
	size_t n = strlen(ascii);

	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)ascii[i];
	return n;
}

/* password_matches on the vector @file: 1, 0, -1 (with the reason printed) or -2 (no file). */
static int matches(const char *file, const char *password)
{
	uint16_t typed[64];
	const char *why = NULL;
	size_t size, n = ucs2(password, typed);
	uint8_t *auth = read_vector(file, &size);
	int r;

	if (!auth)
		return -2;
	r = password_matches(auth, size, NULL, 0, typed, n, &why);
	if (r < 0)
		printf("# %s: %s\n", file, why);
	free(auth);
	return r;
}

static int count_entries(const struct esl_entry *e, void *ctx)
{
	(void)e;
	(*(int *)ctx)++;
	return 0;
}

/* The entries of the signature lists at @data, or -1 when any list is malformed. */
static int list_size_entries(const uint8_t *data, size_t size)
{
	const char *why;
	int n = 0;

	return esl_walk(data, size, count_entries, &n, &why) == 0 ? n : -1;
}

static int list_entries(const char *file)
{
	size_t size;
	uint8_t *data = read_vector(file, &size);
	int n = data ? list_size_entries(data, size) : -1;

	free(data);
	return n;
}

/* ---- password hashes: MokAuth, MokDelAuth, MokXAuth, MokPW -------------------------- */

static const struct auth_case {
	const char *file, *password;
} auths[] = {
	{ "import_hashfile/MokAuth.bin", "lockshim-mok-1" },
	{ "import_hashfile_rounds/MokAuth.bin", "p@ss w0rd!" },
	{ "import_stdin/MokAuth.bin", "typed-in-pw-3" },
	{ "import_hash/MokAuth.bin", "lockshim-mok-1" },
	{ "mokx_import/MokXAuth.bin", "lockshim-mok-1" },
	{ "reset/MokAuth.bin", "reset-pw-6" },
	{ "delete_hashfile/MokDelAuth.bin", "lockshim-del-2" },
	{ "password_stdin/MokPW.bin", "firmware-pw-4" },
	{ "password_hashfile/MokPW.bin", "firmware-pw-5" },
};

static void test_passwords(void)
{
	for (size_t i = 0; i < sizeof(auths) / sizeof(auths[0]); i++) {
		const struct auth_case *a = &auths[i];
		char path[160];

		snprintf(path, sizeof(path), VECTORS "%s", a->file);
		CHECK_EQ(matches(path, a->password), 1,
			 unit_name("%s: right password matches", a->file));
		CHECK_EQ(matches(path, "not-the-password"), 0,
			 unit_name("%s: wrong password does not", a->file));
	}
}

/* ---- signature lists: MokNew, MokXNew, MokDel ------------------------------------------ */

static const struct list_case {
	const char *name, *file;
	int entries;
} lists[] = {
	{ "MokNew: one certificate", "import_hashfile/MokNew.bin", 1 },
	{ "MokNew of --import-hash: one digest", "import_hash/MokNew.bin", 1 },
	{ "MokXNew: one certificate", "mokx_import/MokXNew.bin", 1 },
	{ "MokDel: one certificate", "delete_hashfile/MokDel.bin", 1 },
};

static void test_lists(void)
{
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		char path[160];

		snprintf(path, sizeof(path), VECTORS "%s", lists[i].file);
		CHECK_EQ(list_entries(path), lists[i].entries, lists[i].name);
	}
}

/* Enroll and delete in turn: each step starts from the list the one before made. */
static void test_list_apply(void)
{
	size_t new_size, del_size, hash_size, size1, size2, size3, changed;
	uint8_t *new_req = read_vector(VECTORS "import_hashfile/MokNew.bin", &new_size);
	uint8_t *del_req = read_vector(VECTORS "delete_hashfile/MokDel.bin", &del_size);
	uint8_t *hash_req = read_vector(VECTORS "import_hash/MokNew.bin", &hash_size);
	uint8_t *list1 = NULL, *list2 = NULL, *list3 = NULL, *list4 = NULL;
	const char *why;

	if (!CHECK(new_req && del_req && hash_req, "MokNew, MokDel and the hash's MokNew read"))
		goto out;

	if (!CHECK_EQ(mok_list_apply(MOK_LIST_ENROLL, NULL, 0, new_req, new_size, &list1, &size1,
				     &changed, &why),
		      0, "enroll MokNew into an empty MokList"))
		goto out;
	CHECK_EQ(changed, 1, "enroll MokNew into an empty MokList: one entry added");
	CHECK_EQ(list_size_entries(list1, size1), 1,
		 "enroll MokNew into an empty MokList: one key");

	if (CHECK_EQ(mok_list_apply(MOK_LIST_ENROLL, list1, size1, new_req, new_size, &list2,
				    &size2, &changed, &why),
		     0, "enrolling the same key again succeeds")) {
		CHECK_EQ(changed, 0, "enrolling the same key again changes nothing");
		CHECK_EQ(size2, size1, "enrolling the same key again: the list keeps its size");
	}

	if (!CHECK_EQ(mok_list_apply(MOK_LIST_ENROLL, list1, size1, hash_req, hash_size, &list3,
				     &size3, &changed, &why),
		      0, "enroll a hash"))
		goto out;
	CHECK_EQ(changed, 1, "enroll a hash: one entry added");
	CHECK_EQ(list_size_entries(list3, size3), 2, "enroll a hash: two entries");
	if (CHECK_GE(size3, size1, "enroll a hash: the list grows"))
		CHECK_MEMEQ(list3, list1, size1,
			    "enroll a hash: the key stays first, byte for byte");

	OPENSSL_free(list2);
	list2 = NULL;
	if (CHECK_EQ(mok_list_apply(MOK_LIST_DELETE, list3, size3, del_req, del_size, &list2,
				    &size2, &changed, &why),
		     0, "MokDel applies")) {
		CHECK_EQ(changed, 1, "MokDel removes the key");
		CHECK_EQ(list_size_entries(list2, size2), 1, "MokDel keeps the hash");
	}
	if (CHECK_EQ(mok_list_apply(MOK_LIST_DELETE, list1, size1, del_req, del_size, &list4,
				    &size2, &changed, &why),
		     0, "deleting the only key applies")) {
		CHECK_EQ(changed, 1, "deleting the only key: one entry removed");
		CHECK_PTR_EQ(list4, NULL, "deleting the only key leaves an empty list");
	}

	list1[16] ^= 0x40; /* SignatureListSize now past the end */
	CHECK_EQ(mok_list_apply(MOK_LIST_ENROLL, list1, size1, hash_req, hash_size, &list4, &size2,
				&changed, &why),
		 -1, "a malformed MokList is not rewritten (no key may be lost)");
	CHECK_PTR_EQ(list4, NULL, "a malformed MokList: no new list");
	CHECK_EQ(mok_list_apply(MOK_LIST_ENROLL, NULL, 0, new_req, new_size - 1, &list4, &size2,
				&changed, &why),
		 -1, "a truncated MokNew is refused");
out:
	OPENSSL_free(list1);
	OPENSSL_free(list2);
	OPENSSL_free(list3);
	free(new_req);
	free(del_req);
	free(hash_req);
}

/* ---- state requests: MokSB, MokDB, MokListTrustedNew ------------------------------------ */

static const struct state_case {
	const char *name, *file;
	uint32_t state;
	const char *password; /* the characters stored */
} states[] = {
	{ "MokSB (disable validation)", "disable_validation/MokSB.bin", 0, "Sb8to16chars" },
	/* mokutil stores 15 characters of a 16-character password */
	{ "MokSB (enable, 16-character password)", "enable_validation/MokSB.bin", 1,
	  "sixteen-chars-1" },
	{ "MokListTrustedNew (--trust-mok)", "misc/MokListTrustedNew.bin", 0, "Sb8to16chars" },
	{ "MokDB (ignore db)", "ignore_db/MokDB.bin", 0, "Sb8to16chars" },
};

static void test_state_requests(void)
{
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		const struct state_case *c = &states[i];
		struct mok_state_request req;
		uint16_t password[64];
		size_t size, len = ucs2(c->password, password);
		const char *why = NULL;
		char path[160];
		uint8_t *data;

		snprintf(path, sizeof(path), VECTORS "%s", c->file);
		data = read_vector(path, &size); /* NULL, 0 when missing: refused for its size */
		if (CHECK_EQ(mok_state_request_parse(data, size, &req, &why), 0,
			     unit_name("%s: parses", c->name))) {
			CHECK_EQ(req.state, c->state, unit_name("%s: state", c->name));
			CHECK_EQ(req.password_len, len, unit_name("%s: password length", c->name));
			CHECK_MEMEQ(req.password, password, sizeof(password[0]) * len,
				    unit_name("%s: password", c->name));
			mok_state_request_wipe(&req);
			CHECK(req.password[0] == 0 && req.password_len == 0,
			      unit_name("%s: wiped", c->name));
		} else {
			printf("# %s\n", why);
		}
		free(data);
	}
}

/* enable_validation/MokSB.bin with one byte changed, its first @size bytes: refused. */
static const struct bad_state_case {
	const char *name;
	size_t size, offset;
	uint8_t value;
	const char *reason;
} bad_states[] = {
	{ "password length 17 refused", 40, 4, 17, "password length out of range" },
	{ "password length 0 refused", 40, 4, 0, "password length out of range" },
	{ "unknown state refused", 40, 0, 2, "unknown state" },
	{ "empty password refused", 40, 8, 0, "password is empty" },
	{ "password length 2 refused", 40, 4, 2, "shorter than 3 characters" },
	{ "password of 2 characters (NUL third) refused", 40, 12, 0, "shorter than 3 characters" },
	{ "control character in the password refused", 40, 8, 0x01, "not printable ASCII" },
	{ "control character after three characters refused", 40, 14, 0x01,
	  "not printable ASCII" },
	{ "39 bytes refused", 39, 8, 0, "wrong size" },
};

static void test_bad_state_requests(void)
{
	static const struct mok_state_request zero;
	size_t size;
	uint8_t *data = read_vector(VECTORS "enable_validation/MokSB.bin", &size);

	if (!CHECK_EQ(size, MOK_STATE_REQUEST_SIZE, "enable_validation/MokSB.bin: 40 bytes read"))
		goto out;
	for (size_t i = 0; i < sizeof(bad_states) / sizeof(bad_states[0]); i++) {
		const struct bad_state_case *c = &bad_states[i];
		struct mok_state_request req;
		uint8_t bad[MOK_STATE_REQUEST_SIZE];
		const char *why = NULL;

		memcpy(bad, data, sizeof(bad));
		bad[c->offset] = c->value;
		memset(&req, 0xa5, sizeof(req));
		if (!CHECK_EQ(mok_state_request_parse(bad, c->size, &req, &why), -1, c->name))
			continue;
		CHECK_STRSTR(why, c->reason, unit_name("%s: the reason", c->name));
		/* the characters read before the refusal are not left in @req */
		CHECK_MEMEQ(&req, &zero, sizeof(req), unit_name("%s: request wiped", c->name));
	}
out:
	free(data);
}

/* --clear-password writes 172 zero bytes: no method lockshim can check. */
static void test_clear_password(void)
{
	static const uint8_t zeros[PASSWORD_CRYPT_SIZE];
	struct password_crypt pc;
	const char *why;
	size_t size;
	uint8_t *data = read_vector(VECTORS "clear_password/MokPW.bin", &size);

	if (!CHECK_EQ(size, PASSWORD_CRYPT_SIZE, "MokPW of --clear-password: 172 bytes"))
		goto out;
	CHECK_MEMEQ(data, zeros, size, "MokPW of --clear-password: all zero");
	CHECK_EQ(password_crypt_parse(data, size, &pc, &why), -1,
		 "MokPW of --clear-password: not a usable hash");
out:
	free(data);
}

int main(void)
{
	test_passwords();
	test_lists();
	test_list_apply();
	test_state_requests();
	test_bad_state_requests();
	test_clear_password();
	UNIT_EXIT();
}
