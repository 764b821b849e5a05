// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * crypt(3) digests against strings glibc's crypt() produced (Python's
 * crypt module on Debian 12), compared through crypt's own base64 and byte
 * order; PASSWORD_CRYPT parsing; password_matches in both forms.
 */
#include "password_crypt.h"
#include "unit.h"
#include "unit_image.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

static const char itoa64[] = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static void b64_from_24bit(char **p, uint8_t b2, uint8_t b1, uint8_t b0, int n)
{
	unsigned w = ((unsigned)b2 << 16) | ((unsigned)b1 << 8) | b0;

	while (n-- > 0) {
		*(*p)++ = itoa64[w & 0x3f];
		w >>= 6;
	}
}

/* crypt's text form of a raw digest (glibc's byte order for each method). */
static void crypt_text(int method, const uint8_t *d, char *out)
{
	char *p = out;

	if (method == PASSWORD_SHA512) {
		/* the rotation glibc uses: (0,21,42), (22,43,1), (44,2,23), ... */
		static const int order[21][3] = {
			{ 0, 21, 42 }, { 22, 43, 1 }, { 44, 2, 23 }, { 3, 24, 45 }, { 25, 46, 4 },
			{ 47, 5, 26 }, { 6, 27, 48 }, { 28, 49, 7 }, { 50, 8, 29 }, { 9, 30, 51 },
			{ 31, 52, 10 }, { 53, 11, 32 }, { 12, 33, 54 }, { 34, 55, 13 }, { 56, 14, 35 },
			{ 15, 36, 57 }, { 37, 58, 16 }, { 59, 17, 38 }, { 18, 39, 60 }, { 40, 61, 19 },
			{ 62, 20, 41 } };
		for (int i = 0; i < 21; i++)
			b64_from_24bit(&p, d[order[i][0]], d[order[i][1]], d[order[i][2]], 4);
		b64_from_24bit(&p, 0, 0, d[63], 2);
	} else if (method == PASSWORD_SHA256) {
		static const int order[10][3] = { { 0, 10, 20 }, { 21, 1, 11 }, { 12, 22, 2 },
						  { 3, 13, 23 },  { 24, 4, 14 }, { 15, 25, 5 },
						  { 6, 16, 26 },  { 27, 7, 17 }, { 18, 28, 8 },
						  { 9, 19, 29 } };
		for (int i = 0; i < 10; i++)
			b64_from_24bit(&p, d[order[i][0]], d[order[i][1]], d[order[i][2]], 4);
		b64_from_24bit(&p, 0, d[31], d[30], 3);
	} else {
		static const int order[5][3] = { { 0, 6, 12 }, { 1, 7, 13 }, { 2, 8, 14 },
						 { 3, 9, 15 }, { 4, 10, 5 } };
		for (int i = 0; i < 5; i++)
			b64_from_24bit(&p, d[order[i][0]], d[order[i][1]], d[order[i][2]], 4);
		b64_from_24bit(&p, 0, 0, d[11], 2);
	}
	*p = '\0';
}

/* glibc's crypt() of @password with @salt: @text is what it wrote after the salt. */
static const struct crypt_vector {
	const char *name;
	int method;
	uint64_t rounds;
	const char *salt, *password, *text;
} crypt_vectors[] = {
	{ "SHA-512-crypt, 5000 rounds", PASSWORD_SHA512, 5000, "saltstring", "Hello world!",
	  "svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1" },
	{ "SHA-512-crypt, 10000 rounds, 16-character salt", PASSWORD_SHA512, 10000,
	  "saltstringsaltst", "password",
	  "Qzq13AQeOS5aa8nj8fFRVn5cZkLp.t1PUmhPeygZiOwD7eFxWmcxrxGtIgnXDKoTYvTEmyGzyqVjaDGGtAurL/" },
	{ "SHA-512-crypt, empty password, short salt", PASSWORD_SHA512, 5000, "abc", "",
	  "mJP3a6FyA8uCnzRtlnNypPwjnvpi5TP9qOrInzrfDmwxUQG38PkpCPdqfTb8JQfAngapMxeim4AZ..hSdRRzD." },
	{ "SHA-256-crypt", PASSWORD_SHA256, 5000, "saltstring", "Hello world!",
	  "5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5" },
	{ "MD5-crypt", PASSWORD_MD5, 0, "saltstri", "password", "qQY4WxjABChYG1ccLpfkz/" },
};

static void test_crypt_vectors(void)
{
	for (size_t i = 0; i < sizeof(crypt_vectors) / sizeof(crypt_vectors[0]); i++) {
		const struct crypt_vector *v = &crypt_vectors[i];
		struct password_crypt pc = { .method = (uint16_t)v->method, .iterations = v->rounds,
					     .salt_size = (uint16_t)strlen(v->salt) };
		uint8_t digest[64];
		size_t len;
		char text[100];

		memcpy(pc.salt, v->salt, pc.salt_size);
		if (!CHECK_EQ(password_crypt_digest(&pc, (const uint8_t *)v->password,
						    strlen(v->password), digest, &len),
			      0, unit_name("%s: digest computed", v->name)))
			continue;
		crypt_text(v->method, digest, text);
		CHECK_STREQ(text, v->text, v->name);
	}
}

/* A PASSWORD_CRYPT as mokutil lays it out. */
static void make_auth(uint8_t *out, uint16_t method, uint64_t rounds, const char *salt,
		      const uint8_t *hash, size_t hash_len)
{
	memset(out, 0, PASSWORD_CRYPT_SIZE);
	put16(out, method);
	put64(out + 2, rounds);
	put16(out + 10, (uint16_t)strlen(salt));
	memcpy(out + 12, salt, strlen(salt));
	memcpy(out + 44, hash, hash_len);
}

static uint16_t *ucs2(const char *s)
{
	uint16_t *out = malloc((strlen(s) + 1) * 2);

	for (size_t i = 0; i <= strlen(s); i++)
		out[i] = (unsigned char)s[i];
	return out;
}

/* ---- what a check leaves on the stack ------------------------------------------- */

/*
 * The stack below a caller, as far as the checks reach: scrubbed before a
 * check, searched after it returned, both from the same frame, so what is
 * found there is what the check left and did not wipe.
 */
#define STACK_REACH (64 * 1024)

/*
 * ASan's fake stack (detect_stack_use_after_return, on by default with
 * clang) puts instrumented frames on the heap, where the search does not
 * look: off in this program, so the frames the checks leave are always on
 * the stack searched, and the control below proves it.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_stack_use_after_return=0";
}

static __attribute__((noinline)) void stack_scrub(void)
{
	OPENSSL_cleanse(__builtin_alloca(STACK_REACH), STACK_REACH);
}

static __attribute__((noinline)) bool stack_holds(const uint8_t *needle, size_t len)
{
	const volatile uint8_t *stack = __builtin_alloca(STACK_REACH);

	for (size_t i = 0; i + len <= STACK_REACH; i++) {
		size_t j = 0;

		while (j < len && stack[i + j] == needle[j])
			j++;
		if (j == len)
			return true;
	}
	return false;
}

/* What a check that forgot its wipe would leave: @len bytes of @secret in its frame. */
static __attribute__((noinline)) void stack_leave(const uint8_t *secret, size_t len)
{
	volatile uint8_t copy[64];

	for (size_t i = 0; i < len && i < sizeof(copy); i++)
		copy[i] = secret[i];
}

#define LEGACY (-1)
static const uint8_t legacy_request[] = "request bytes";

/* password_matches on @auth one frame down, so its frame is wholly within the search. */
static __attribute__((noinline)) int check_typed(const uint8_t *auth, size_t auth_size,
						 const uint16_t *typed, size_t chars)
{
	volatile uint8_t pad[128] = { 0 };
	const char *why;

	(void)pad;
	return password_matches(auth, auth_size, legacy_request, sizeof(legacy_request), typed,
				chars, &why);
}

static const struct residue_case {
	const char *name;
	int method; /* enum password_method, or LEGACY */
	const char *typed;
	bool non_ascii_after; /* a character past ASCII follows @typed: refused */
	int expected;
} residue_cases[] = {
	{ "SHA-512-crypt, wrong password", PASSWORD_SHA512, "residue-wrong-sha512", false, 0 },
	{ "SHA-512-crypt, right password", PASSWORD_SHA512, "residue-right-password", false, 1 },
	{ "SHA-256-crypt, wrong password", PASSWORD_SHA256, "residue-wrong-sha256", false, 0 },
	{ "MD5-crypt, wrong password", PASSWORD_MD5, "residue-wrong-md5", false, 0 },
	{ "legacy SHA-256, wrong password", LEGACY, "residue-wrong-legacy", false, 0 },
	{ "a character past ASCII after the others", PASSWORD_SHA512, "residue-ascii-before",
	  true, -1 },
};

/* H(pw salt pw), the first intermediate of each crypt method, into @out; its length. */
static size_t crypt_first_digest(int method, const char *pw, const char *salt, uint8_t *out)
{
	const EVP_MD *md = method == PASSWORD_SHA512 ? EVP_sha512() :
			   method == PASSWORD_SHA256 ? EVP_sha256() :
						       EVP_md5();
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int len = 0;

	EVP_DigestInit_ex(ctx, md, NULL);
	EVP_DigestUpdate(ctx, pw, strlen(pw));
	EVP_DigestUpdate(ctx, salt, strlen(salt));
	EVP_DigestUpdate(ctx, pw, strlen(pw));
	EVP_DigestFinal_ex(ctx, out, &len);
	EVP_MD_CTX_free(ctx);
	return len;
}

/*
 * After password_matches, neither the typed password nor anything derived
 * from it is left on the stack: its ASCII copy, H(pw salt pw), the crypt
 * digest of a wrong password, the legacy digest. First the control: what a
 * frame leaves on purpose is found, else no absence found below would mean
 * anything (a failure, never a skip).
 */
static void test_stack_residue(void)
{
	static const char salt[] = "resSalt";
	static const uint8_t control[] = "control-left-on-the-stack";
	static uint8_t auth[PASSWORD_CRYPT_SIZE], right_digest[64], typed_digest[64], first[64];
	static uint16_t typed[64];

	stack_scrub();
	stack_leave(control, sizeof(control));
	if (!CHECK(stack_holds(control, sizeof(control)),
		   "stack residue: what a frame leaves is found (the search sees the stack)"))
		return;
	for (size_t i = 0; i < sizeof(residue_cases) / sizeof(residue_cases[0]); i++) {
		const struct residue_case *c = &residue_cases[i];
		const char *right = c->expected == 1 ? c->typed : "residue-right-password";
		size_t chars = strlen(c->typed), auth_size = sizeof(auth), digest_len = 0,
		       first_len = 0;
		struct password_crypt pc = { .method = (uint16_t)c->method,
					     .iterations = 5000,
					     .salt_size = sizeof(salt) - 1 };

		for (size_t j = 0; j < chars; j++)
			typed[j] = (unsigned char)c->typed[j];
		if (c->non_ascii_after)
			typed[chars++] = 0x263a;
		memcpy(pc.salt, salt, pc.salt_size);
		if (c->method == LEGACY) {
			uint8_t buf[sizeof(legacy_request) + 2 * 64] = { 0 };

			memcpy(buf, legacy_request, sizeof(legacy_request));
			memcpy(buf + sizeof(legacy_request), typed, 2 * chars);
			SHA256(buf, sizeof(legacy_request) + 2 * chars, typed_digest);
			digest_len = SHA256_DIGEST_LENGTH;
			memset(auth, 0xee, sizeof(auth)); /* some other password's */
			auth_size = PASSWORD_LEGACY_SIZE;
		} else {
			password_crypt_digest(&pc, (const uint8_t *)right, strlen(right), right_digest,
					      &digest_len);
			make_auth(auth, pc.method, pc.iterations, salt, right_digest, digest_len);
			if (!c->non_ascii_after) {
				password_crypt_digest(&pc, (const uint8_t *)c->typed, chars,
						      typed_digest, &digest_len);
				first_len = crypt_first_digest(c->method, c->typed, salt, first);
			}
		}
		/*
		 * Once before the scrub: a first call through the dynamic linker's
		 * lazy binding saves the vector registers on the stack, whatever
		 * they hold. Then what computing the expectations left is scrubbed.
		 */
		check_typed(auth, auth_size, typed, chars);
		stack_scrub();
		if (!CHECK_EQ(check_typed(auth, auth_size, typed, chars), c->expected,
			      unit_name("%s: the check's result", c->name)))
			continue;
		CHECK(!stack_holds((const uint8_t *)c->typed, strlen(c->typed)),
		      unit_name("%s: the typed password is not left on the stack", c->name));
		if (digest_len && !c->non_ascii_after)
			CHECK(!stack_holds(typed_digest, digest_len),
			      unit_name("%s: its digest is not left on the stack", c->name));
		if (first_len)
			CHECK(!stack_holds(first, first_len),
			      unit_name("%s: H(pw salt pw) is not left on the stack", c->name));
	}
}

/* ---- exactly the password, not more, not less ------------------------------------- */

static const char the_password[] = "Correct horse";

/* @auth as a request made with @password in @method (or LEGACY) holds it; its size. */
static size_t auth_for(int method, const char *password, uint8_t auth[PASSWORD_CRYPT_SIZE])
{
	struct password_crypt pc = { .method = (uint16_t)method, .iterations = 5000,
				     .salt_size = 8 };
	uint8_t digest[64], buf[sizeof(legacy_request) + 2 * sizeof(the_password)] = { 0 };
	size_t len = strlen(password), digest_len = 0;

	if (method == LEGACY) {
		memcpy(buf, legacy_request, sizeof(legacy_request));
		for (size_t i = 0; i < len; i++)
			buf[sizeof(legacy_request) + 2 * i] = (uint8_t)password[i];
		SHA256(buf, sizeof(legacy_request) + 2 * len, auth);
		return PASSWORD_LEGACY_SIZE;
	}
	memcpy(pc.salt, "trailing", 8);
	CHECK_EQ(password_crypt_digest(&pc, (const uint8_t *)password, len, digest, &digest_len), 0,
		 unit_name("method %d: the request's digest", method));
	make_auth(auth, pc.method, pc.iterations, "trailing", digest, digest_len);
	return PASSWORD_CRYPT_SIZE;
}

/*
 * For every form a request's password can take, only the whole password
 * matches: not with characters typed after it, nor a proper prefix of it.
 */
static void test_whole_password_only(void)
{
	static const struct {
		const char *name;
		int method;
	} forms[] = {
		{ "SHA-512-crypt", PASSWORD_SHA512 },
		{ "SHA-256-crypt", PASSWORD_SHA256 },
		{ "MD5-crypt", PASSWORD_MD5 },
		{ "legacy SHA-256", LEGACY },
	};
	/* typed: the password less its last @cut characters, then @more */
	static const struct {
		const char *what;
		size_t cut;
		const char *more;
		int expected;
	} typed_cases[] = {
		{ "the password", 0, "", 1 },
		{ "the password and one more character", 0, "x", 0 },
		{ "the password and a space", 0, " ", 0 },
		{ "the password and more words", 0, " battery staple", 0 },
		{ "the password typed twice", 0, the_password, 0 },
		{ "all but its last character", 1, "", 0 },
		{ "its first character", sizeof(the_password) - 2, "", 0 },
	};
	char text[2 * sizeof(the_password)];
	uint8_t auth[PASSWORD_CRYPT_SIZE];

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		size_t auth_size = auth_for(forms[f].method, the_password, auth);

		for (size_t t = 0; t < sizeof(typed_cases) / sizeof(typed_cases[0]); t++) {
			const char *why = NULL;
			uint16_t *typed;

			snprintf(text, sizeof(text), "%.*s%s",
				 (int)(strlen(the_password) - typed_cases[t].cut), the_password,
				 typed_cases[t].more);
			typed = ucs2(text);
			CHECK_EQ(password_matches(auth, auth_size, legacy_request,
						  sizeof(legacy_request), typed, strlen(text), &why),
				 typed_cases[t].expected,
				 unit_name("%s: %s: %s", forms[f].name, typed_cases[t].what,
					   typed_cases[t].expected ? "matches" : "does not match"));
			free(typed);
		}
	}
}

int main(void)
{
	struct password_crypt pc;
	const char *why;
	uint8_t auth[PASSWORD_CRYPT_SIZE], digest[64];
	size_t len;
	uint16_t *pw;

	test_crypt_vectors();
	test_stack_residue();
	test_whole_password_only();

	/* password_matches with a SHA-512 PASSWORD_CRYPT */
	pc = (struct password_crypt){ .method = PASSWORD_SHA512, .iterations = 5000, .salt_size = 10 };
	memcpy(pc.salt, "saltstring", 10);
	password_crypt_digest(&pc, (const uint8_t *)"password", 8, digest, &len);
	make_auth(auth, PASSWORD_SHA512, 5000, "saltstring", digest, len);
	pw = ucs2("password");
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), 1,
		 "right password matches");
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 7, &why), 0,
		 "prefix does not match");
	pw[0] = 'P';
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), 0,
		 "wrong password does not match");
	pw[0] = 0x263a;
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), -1,
		 "non-ASCII password refused");
	free(pw);

	/* malformed structures */
	pw = ucs2("password");
	CHECK_EQ(password_matches(auth, sizeof(auth) - 1, NULL, 0, pw, 8, &why), -1,
		 "171-byte auth refused");
	make_auth(auth, PASSWORD_BLOWFISH, 5000, "saltstring", digest, len);
	why = NULL;
	if (CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), -1,
		     "Blowfish refused"))
		CHECK(why != NULL, "Blowfish refused with a reason");
	make_auth(auth, PASSWORD_SHA512, 999, "saltstring", digest, len);
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), -1,
		 "rounds below 1000 refused");
	make_auth(auth, PASSWORD_SHA512, 0xffffffffffffffffULL, "saltstring", digest, len);
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), -1,
		 "rounds near 2^64 refused");
	make_auth(auth, PASSWORD_SHA512, 5000, "saltstring", digest, len);
	auth[10] = 33;
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), -1,
		 "salt size past the field refused");
	auth[10] = 17;
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, 8, &why), -1,
		 "salt longer than SHA-crypt's 16 refused");
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, pw, PASSWORD_MAX_CHARS + 1, &why),
		 -1, "over-long password refused");

	/* legacy: SHA-256(request || UCS-2 password) */
	{
		static const uint8_t request[] = "request bytes";
		uint8_t buf[sizeof(request) + 16];

		memcpy(buf, request, sizeof(request));
		for (int i = 0; i < 8; i++) {
			buf[sizeof(request) + 2 * i] = (uint8_t)"password"[i];
			buf[sizeof(request) + 2 * i + 1] = 0;
		}
		SHA256(buf, sizeof(buf), digest);
		CHECK_EQ(password_matches(digest, 32, request, sizeof(request), pw, 8, &why), 1,
			 "legacy SHA-256 form matches");
		CHECK_EQ(password_matches(digest, 32, request, sizeof(request) - 1, pw, 8, &why), 0,
			 "legacy form bound to the request");
	}
	free(pw);

	/* a bare Enter: an empty password never matches, whatever the request was made with */
	static const uint16_t empty[1] = { 0 };
	why = NULL;
	CHECK(password_typed_check(0, &why) < 0 && why && strcmp(why, "empty password") == 0,
	      "empty typed password refused as such");
	CHECK_EQ(password_typed_check(1, &why), 0, "one-character typed password checked");
	CHECK_EQ(password_typed_check(PASSWORD_MAX_CHARS + 1, &why), -1,
		 "over-long typed password refused");
	pc = (struct password_crypt){ .method = PASSWORD_SHA512, .iterations = 5000, .salt_size = 1 };
	memcpy(pc.salt, "X", 1);
	password_crypt_digest(&pc, (const uint8_t *)"", 0, digest, &len);
	make_auth(auth, PASSWORD_SHA512, 5000, "X", digest, len);
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, empty, 0, &why), 0,
		 "SHA-512 crypt(\"\") does not match an empty password");
	pc.method = PASSWORD_SHA256;
	password_crypt_digest(&pc, (const uint8_t *)"", 0, digest, &len);
	make_auth(auth, PASSWORD_SHA256, 5000, "X", digest, len);
	CHECK_EQ(password_matches(auth, sizeof(auth), NULL, 0, empty, 0, &why), 0,
		 "SHA-256 crypt(\"\") does not match an empty password");
	{
		static const uint8_t request[] = "request bytes";

		SHA256(request, sizeof(request), digest);
		CHECK_EQ(password_matches(digest, 32, request, sizeof(request),
					  empty, 0, &why),
			 0, "legacy SHA-256 over the request alone does not match an empty password");
	}
	UNIT_EXIT();
}
