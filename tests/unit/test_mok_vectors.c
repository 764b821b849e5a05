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

static int matches(const char *file, const char *password)
{
	uint16_t typed[64];
	const char *why = NULL;
	size_t size, n = strlen(password);
	uint8_t *auth = read_vector(file, &size);
	int r;

	if (!auth)
		return -2;
	for (size_t i = 0; i < n; i++)
		typed[i] = (unsigned char)password[i];
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

static int list_size_entries(const uint8_t *data, size_t size)
{
	const char *why;
	int n = 0;

	return esl_walk(data, size, count_entries, &n, &why) == 0 ? n : -1;
}

static int list_entries(const char *file)
{
	const char *why;
	size_t size;
	uint8_t *data = read_vector(file, &size);
	int n = 0;

	if (!data || esl_walk(data, size, count_entries, &n, &why) != 0)
		n = -1;
	free(data);
	return n;
}

int main(void)
{
	static const struct {
		const char *file, *password;
	} auths[] = {
		{ VECTORS "import_hashfile/MokAuth.bin", "lockshim-mok-1" },
		{ VECTORS "import_hashfile_rounds/MokAuth.bin", "p@ss w0rd!" },
		{ VECTORS "import_stdin/MokAuth.bin", "typed-in-pw-3" },
		{ VECTORS "import_hash/MokAuth.bin", "lockshim-mok-1" },
		{ VECTORS "mokx_import/MokXAuth.bin", "lockshim-mok-1" },
		{ VECTORS "reset/MokAuth.bin", "reset-pw-6" },
		{ VECTORS "delete_hashfile/MokDelAuth.bin", "lockshim-del-2" },
		{ VECTORS "password_stdin/MokPW.bin", "firmware-pw-4" },
		{ VECTORS "password_hashfile/MokPW.bin", "firmware-pw-5" },
	};
	struct mok_state_request req;
	const char *why;
	char name[160];
	size_t size;
	uint8_t *data;

	for (size_t i = 0; i < sizeof(auths) / sizeof(auths[0]); i++) {
		snprintf(name, sizeof(name), "%s: right password matches", auths[i].file + strlen(VECTORS));
		CHECK(matches(auths[i].file, auths[i].password) == 1, name);
		snprintf(name, sizeof(name), "%s: wrong password does not", auths[i].file + strlen(VECTORS));
		CHECK(matches(auths[i].file, "not-the-password") == 0, name);
	}

	CHECK(list_entries(VECTORS "import_hashfile/MokNew.bin") == 1, "MokNew: one certificate");
	CHECK(list_entries(VECTORS "import_hash/MokNew.bin") == 1, "MokNew of --import-hash: one digest");
	CHECK(list_entries(VECTORS "mokx_import/MokXNew.bin") == 1, "MokXNew: one certificate");
	CHECK(list_entries(VECTORS "delete_hashfile/MokDel.bin") == 1, "MokDel: one certificate");

	{
		size_t new_size, del_size, hash_size, size1, size2, size3, changed;
		uint8_t *new_req = read_vector(VECTORS "import_hashfile/MokNew.bin", &new_size);
		uint8_t *del_req = read_vector(VECTORS "delete_hashfile/MokDel.bin", &del_size);
		uint8_t *hash_req = read_vector(VECTORS "import_hash/MokNew.bin", &hash_size);
		uint8_t *list1 = NULL, *list2 = NULL, *list3 = NULL, *list4 = NULL;

		CHECK(new_req && mok_list_apply(MOK_LIST_ENROLL, NULL, 0, new_req, new_size, &list1,
						&size1, &changed, &why) == 0 &&
			      changed == 1 && list_size_entries(list1, size1) == 1,
		      "enroll MokNew into an empty MokList: one key");
		CHECK(mok_list_apply(MOK_LIST_ENROLL, list1, size1, new_req, new_size, &list2, &size2,
				     &changed, &why) == 0 && changed == 0 && size2 == size1,
		      "enrolling the same key again changes nothing");
		CHECK(hash_req && mok_list_apply(MOK_LIST_ENROLL, list1, size1, hash_req, hash_size,
						 &list3, &size3, &changed, &why) == 0 &&
			      changed == 1 && list_size_entries(list3, size3) == 2 &&
			      memcmp(list3, list1, size1) == 0,
		      "enroll a hash: the key stays first, byte for byte");
		OPENSSL_free(list2);
		CHECK(del_req && mok_list_apply(MOK_LIST_DELETE, list3, size3, del_req, del_size, &list2,
						&size2, &changed, &why) == 0 &&
			      changed == 1 && list_size_entries(list2, size2) == 1,
		      "MokDel removes the key, keeps the hash");
		CHECK(mok_list_apply(MOK_LIST_DELETE, list1, size1, del_req, del_size, &list4, &size2,
				     &changed, &why) == 0 && changed == 1 && list4 == NULL,
		      "deleting the only key leaves an empty list");
		list1[16] ^= 0x40; /* SignatureListSize now past the end */
		CHECK(mok_list_apply(MOK_LIST_ENROLL, list1, size1, hash_req, hash_size, &list4, &size2,
				     &changed, &why) < 0 && list4 == NULL,
		      "a malformed MokList is not rewritten (no key may be lost)");
		CHECK(mok_list_apply(MOK_LIST_ENROLL, NULL, 0, new_req, new_size - 1, &list4, &size2,
				     &changed, &why) < 0,
		      "a truncated MokNew is refused");
		OPENSSL_free(list1);
		OPENSSL_free(list2);
		OPENSSL_free(list3);
		free(new_req);
		free(del_req);
		free(hash_req);
	}

	data = read_vector(VECTORS "disable_validation/MokSB.bin", &size);
	CHECK(data && mok_state_request_parse(data, size, &req, &why) == 0 && req.state == 0 &&
		      req.password_len == 12 && req.password[0] == 'S' && req.password[11] == 's',
	      "MokSB (disable validation): state 0, the 12-character password");
	free(data);
	data = read_vector(VECTORS "enable_validation/MokSB.bin", &size);
	CHECK(data && mok_state_request_parse(data, size, &req, &why) == 0 && req.state == 1 &&
		      req.password_len == 15,
	      "MokSB (enable, 16-character password): state 1, the 15 characters mokutil stored");
	if (data) {
		uint8_t bad[MOK_STATE_REQUEST_SIZE];

		memcpy(bad, data, sizeof(bad));
		bad[4] = 17;
		CHECK(mok_state_request_parse(bad, sizeof(bad), &req, &why) < 0, "password length 17 refused");
		bad[4] = 0;
		CHECK(mok_state_request_parse(bad, sizeof(bad), &req, &why) < 0, "password length 0 refused");
		memcpy(bad, data, sizeof(bad));
		bad[0] = 2;
		CHECK(mok_state_request_parse(bad, sizeof(bad), &req, &why) < 0, "unknown state refused");
		memcpy(bad, data, sizeof(bad));
		bad[8] = 0;
		CHECK(mok_state_request_parse(bad, sizeof(bad), &req, &why) < 0, "empty password refused");
		CHECK(mok_state_request_parse(bad, sizeof(bad) - 1, &req, &why) < 0, "39 bytes refused");
	}
	free(data);
	data = read_vector(VECTORS "misc/MokListTrustedNew.bin", &size);
	CHECK(data && mok_state_request_parse(data, size, &req, &why) == 0 && req.state == 0,
	      "MokListTrustedNew (--trust-mok): state 0");
	free(data);
	data = read_vector(VECTORS "ignore_db/MokDB.bin", &size);
	CHECK(data && mok_state_request_parse(data, size, &req, &why) == 0 && req.state == 0,
	      "MokDB (ignore db): state 0");
	free(data);
	data = read_vector(VECTORS "clear_password/MokPW.bin", &size);
	{
		struct password_crypt pc;
		int all_zero = data != NULL;

		for (size_t i = 0; data && i < size; i++)
			all_zero &= data[i] == 0;
		CHECK(all_zero && size == PASSWORD_CRYPT_SIZE &&
			      password_crypt_parse(data, size, &pc, &why) < 0,
		      "MokPW of --clear-password: all zero, not a usable hash");
	}
	free(data);
	UNIT_EXIT();
}
