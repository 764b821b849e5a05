// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * Variables as files (variable_data.c: efivarfs, signed updates), the
 * .vendor_cert table (vendor_cert.c) and long PE section names
 * (pe_find_section_long), each input in a heap block of exactly its size.
 */
#include "guid.h"
#include "macro.h"
#include "pe.h"
#include "unit.h"
#include "unit_image.h"
#include "variable_data.h"
#include "vendor_cert.h"

#include <stdlib.h>

static uint8_t *copy(const void *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	memcpy(c, p, n);
	return c;
}

static void test_efivarfs(void)
{
	static const uint8_t file[] = { 0x07, 0x00, 0x00, 0x00, 0x01 };
	const uint8_t *value;
	const char *reason = NULL;
	uint32_t attrs = 0;
	size_t size = 0;

	for (size_t n = 0; n < 4; n++) {
		uint8_t *c = copy(file, n);

		CHECK_EQ(efivarfs_split(c, n, &attrs, &value, &size, &reason), -1,
			 unit_name("efivarfs: %zu bytes: truncated", n));
		CHECK_STRSTR(reason, "truncated", unit_name("efivarfs: %zu bytes: says so", n));
		free(c);
	}
	CHECK_EQ(efivarfs_split(file, sizeof(file), &attrs, &value, &size, &reason), 0,
		 "efivarfs: attributes and one byte");
	CHECK_EQ(attrs, 7u, "efivarfs: attributes little-endian");
	CHECK_EQ(size, 1u, "efivarfs: the data after them");
	CHECK_PTR_EQ(value, file + 4, "efivarfs: the data points into the file");
	CHECK_EQ(efivarfs_split(file, 4, &attrs, &value, &size, &reason), 0, "efivarfs: empty data");
	CHECK_EQ(size, 0u, "efivarfs: empty data has no bytes");
}

/* An EFI_VARIABLE_AUTHENTICATION_2 header with a @cert_len-byte signature, then @payload_len bytes. */
static size_t make_auth(uint8_t *out, uint32_t dw_length, uint16_t revision, uint16_t type,
			size_t cert_len, size_t payload_len)
{
	static const uint8_t pkcs7[16] = GUID_BYTES(CERT_TYPE_PKCS7_GUID_FIELDS);

	memset(out, 0, 16);
	put32(out + 16, dw_length);
	put16(out + 20, revision);
	put16(out + 22, type);
	memcpy(out + 24, pkcs7, 16);
	memset(out + 40, 0x30, cert_len);
	memset(out + 40 + cert_len, 0xa5, payload_len);
	return 40 + cert_len + payload_len;
}

static void test_auth2(void)
{
	static const struct {
		const char *name;
		uint32_t dw_length;
		uint16_t revision, type;
		size_t cert, payload;
		int r;
		size_t payload_at;
	} cases[] = {
		{ "valid, 10-byte signature", 24 + 10, 0x0200, 0x0ef1, 10, 28, 0, 50 },
		{ "valid, no payload", 24 + 10, 0x0200, 0x0ef1, 10, 0, 0, 50 },
		{ "another revision", 24 + 10, 0x0100, 0x0ef1, 10, 28, -1, 0 },
		{ "another certificate type", 24 + 10, 0x0200, 0x0002, 10, 28, -1, 0 },
		{ "dwLength under its header", 23, 0x0200, 0x0ef1, 10, 28, -1, 0 },
		{ "dwLength past the file", 24 + 1000, 0x0200, 0x0ef1, 10, 28, -1, 0 },
		{ "dwLength near 4 GiB", 0xffffffffu, 0x0200, 0x0ef1, 10, 28, -1, 0 },
	};
	uint8_t buf[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = make_auth(buf, cases[i].dw_length, cases[i].revision, cases[i].type,
				     cases[i].cert, cases[i].payload);
		uint8_t *c = copy(buf, n);
		const uint8_t *payload = NULL;
		const char *reason = NULL;
		size_t size = 0;
		int r = auth2_payload(c, n, &payload, &size, &reason);

		CHECK_EQ(r, cases[i].r, unit_name("auth2: %s", cases[i].name));
		if (r == 0) {
			CHECK_PTR_EQ(payload, c + cases[i].payload_at,
				     unit_name("auth2: %s: payload after the signature", cases[i].name));
			CHECK_EQ(size, cases[i].payload, unit_name("auth2: %s: payload size", cases[i].name));
		}
		free(c);
	}
	for (size_t n = 0; n < 40; n += 13) {
		uint8_t *c = copy(buf, n);
		const uint8_t *payload;
		const char *reason = NULL;
		size_t size;

		CHECK_EQ(auth2_payload(c, n, &payload, &size, &reason), -1,
			 unit_name("auth2: %zu bytes: shorter than the header", n));
		free(c);
	}
}

static void test_vendor_cert(void)
{
	static const struct {
		const char *name;
		uint32_t cert_size, dbx_size, cert_offset, dbx_offset;
		int r;
	} cases[] = {
		{ "certificate and dbx", 8, 4, 16, 24, 0 },
		{ "empty dbx", 8, 0, 16, 0, 0 },
		{ "nothing", 0, 0, 0, 0, 0 },
		{ "certificate past the section", 20, 0, 16, 0, -1 },
		{ "dbx past the section", 8, 8, 16, 24, -1 },
		{ "offset near 4 GiB", 8, 0, 0xfffffff8u, 0, -1 },
		{ "dbx size near 4 GiB", 0, 0xffffffffu, 0, 16, -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint8_t *s = calloc(1, 28);
		struct vendor_cert_table t;
		const char *reason = NULL;
		int r;

		put32(s, cases[i].cert_size);
		put32(s + 4, cases[i].dbx_size);
		put32(s + 8, cases[i].cert_offset);
		put32(s + 12, cases[i].dbx_offset);
		r = vendor_cert_table_parse(s, 28, &t, &reason);
		CHECK_EQ(r, cases[i].r, unit_name(".vendor_cert: %s", cases[i].name));
		if (r == 0 && cases[i].cert_size) {
			CHECK_PTR_EQ(t.authorized, s + cases[i].cert_offset,
				     unit_name(".vendor_cert: %s: certificate", cases[i].name));
			CHECK_EQ(t.authorized_size, cases[i].cert_size,
				 unit_name(".vendor_cert: %s: its size", cases[i].name));
		}
		if (r == 0 && !cases[i].dbx_size)
			CHECK_PTR_EQ(t.deauthorized, NULL, unit_name(".vendor_cert: %s: no dbx", cases[i].name));
		free(s);
	}
	for (size_t n = 0; n < 16; n += 5) {
		uint8_t *s = calloc(1, n ? n : 1);
		struct vendor_cert_table t;
		const char *reason = NULL;

		CHECK_EQ(vendor_cert_table_parse(s, n, &t, &reason), -1,
			 unit_name(".vendor_cert: %zu bytes: shorter than its table", n));
		free(s);
	}
}

static void test_long_section_names(void)
{
	uint8_t *data = unit_pe_image();
	struct pe_image *img = malloc(sizeof(*img));
	uint32_t table = IMG_HEADERS + IMG_SECTION_LEN; /* inside .data's bytes */
	const char *reason = NULL;

	/* .data renamed "/4": the string table's first name, after its 4-byte size */
	memcpy(data + IMG_SECTIONS + 40, "/4\0\0\0\0\0\0", 8);
	put32(data + IMG_COFF + 8, table);
	put32(data + IMG_COFF + 12, 0);
	memcpy(data + table + 4, ".vendor_cert", 13);
	if (!CHECK_EQ(pe_parse(data, IMG_SIZE, img, &reason), 0, "long names: the image parses")) {
		free(img);
		free(data);
		return;
	}
	CHECK_PTR_EQ(pe_find_section_long(img, ".vendor_cert"), &img->sections[1],
		     "long names: /4 found in the string table");
	CHECK_PTR_EQ(pe_find_section_long(img, ".vendor_c"), NULL, "long names: a prefix does not match");
	CHECK_PTR_EQ(pe_find_section_long(img, ".text"), &img->sections[0],
		     "long names: a short name as pe_find_section");
	put32(data + IMG_COFF + 8, IMG_SIZE - 6); /* the name runs past the image */
	CHECK_PTR_EQ(pe_find_section_long(img, ".vendor_cert"), NULL,
		     "long names: a string table past the image finds nothing");
	put32(data + IMG_COFF + 8, 0xffffffffu);
	put32(data + IMG_COFF + 12, 0xffffffffu);
	CHECK_PTR_EQ(pe_find_section_long(img, ".vendor_cert"), NULL,
		     "long names: a symbol table near 4 GiB finds nothing");
	free(img);
	free(data);
}

int main(void)
{
	test_efivarfs();
	test_auth2();
	test_vendor_cert();
	test_long_section_names();
	return unit_failed;
}
