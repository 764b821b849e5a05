// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * pe_parse and the certificate-table walk on synthetic images: one valid
 * image, then one defect at a time. Each image lives in its own heap block
 * of exactly its size, so ASan reports any read past the end.
 */
#include "authenticode.h"
#include "pe.h"
#include "unit.h"
#include "unit_image.h"

static int parse(const uint8_t *img, size_t size, const char **reason)
{
	struct pe_image pe;
	uint8_t *copy = malloc(size ? size : 1);
	int r;

	memcpy(copy, img, size);
	*reason = NULL;
	r = pe_parse(copy, size, &pe, reason);
	free(copy);
	return r;
}

/* The first @size bytes of @img are refused, with a reason. */
static void check_refused(const uint8_t *img, size_t size, const char *name)
{
	const char *why;

	if (CHECK_EQ(parse(img, size, &why), -1, name))
		CHECK(why != NULL, unit_name("%s, with a reason", name));
}

static void test_truncation(void)
{
	static const size_t cuts[] = { 0, 1, 0x3f, IMG_LFANEW + 3, IMG_COFF + 19, IMG_OPT + 107,
				       IMG_OPT + IMG_OPT_SIZE - 1, IMG_SECTIONS + 79,
				       IMG_HEADERS - 1, IMG_CERT_OFFSET - 1, IMG_SIZE - 1 };
	uint8_t *img = unit_pe_image();

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
		check_refused(img, cuts[i], unit_name("truncated at %zu bytes: refused", cuts[i]));
	free(img);
}

/* One field of the valid image overwritten; each image must be refused. */
static const struct defect {
	const char *name;
	size_t offset;
	unsigned int width; /* bytes: 2 or 4 */
	uint32_t value;
} defects[] = {
	{ "bad MZ refused", 0, 2, 0x4d5a },
	{ "e_lfanew past the end refused", 0x3c, 4, IMG_SIZE },
	{ "e_lfanew near 4 GiB refused", 0x3c, 4, 0xfffffff0 },
	{ "bad PE signature refused", IMG_LFANEW, 4, 0x4551 },
	{ "i386 machine refused", IMG_COFF, 2, 0x14c },
	{ "PE32 (not PE32+) refused", IMG_OPT, 2, 0x10b },
	{ "zero sections refused", IMG_COFF + 2, 2, 0 },
	{ "too many sections refused", IMG_COFF + 2, 2, 97 },
	{ "optional header too small refused", IMG_COFF + 16, 2, 100 },
	{ "too many data directories refused", IMG_OPT + 108, 4, 17 },
	{ "section table past the headers refused", IMG_OPT + 60, 4, IMG_SECTIONS + 40 },
	{ "SizeOfHeaders past the end refused", IMG_OPT + 60, 4, IMG_SIZE + 1 },
	{ "overlapping sections refused", IMG_SECTIONS + 40 + 20, 4, IMG_HEADERS + 0x100 },
	{ "section inside the headers refused", IMG_SECTIONS + 20, 4, 0x100 },
	{ "SizeOfRawData past the end refused", IMG_SECTIONS + 40 + 16, 4, 0x400 },
	{ "SizeOfRawData near 4 GiB refused", IMG_SECTIONS + 40 + 16, 4, 0xfffffe00 },
	{ "section past SizeOfImage refused", IMG_SECTIONS + 40 + 8, 4, 0x3000 },
	{ "entry point outside the image refused", IMG_OPT + 16, 4, 0x3000 },
	{ "section mapped over the headers refused", IMG_SECTIONS + 12, 4, 0x100 },
	{ "certificate table past the end refused", IMG_OPT + 112 + 32, 4, IMG_CERT_OFFSET + 8 },
	{ "certificate table over the headers refused", IMG_OPT + 112 + 32, 4, 0x100 },
	{ "unaligned certificate table refused", IMG_OPT + 112 + 32, 4, IMG_CERT_OFFSET - 4 },
	{ "certificate table size near 4 GiB refused", IMG_OPT + 112 + 36, 4, 0xfffffff8 },
	{ "certificate offset without size refused", IMG_OPT + 112 + 36, 4, 0 },
};

static void test_defects(void)
{
	uint8_t *img;

	for (size_t i = 0; i < sizeof(defects) / sizeof(defects[0]); i++) {
		const struct defect *d = &defects[i];

		img = unit_pe_image();
		if (d->width == 2)
			put16(img + d->offset, (uint16_t)d->value);
		else
			put32(img + d->offset, d->value);
		check_refused(img, IMG_SIZE, d->name);
		free(img);
	}

	/* two fields at once: the second section's raw data now reaches past SizeOfImage */
	img = unit_pe_image();
	put32(img + IMG_SECTIONS + 40 + 8, 0);
	put32(img + IMG_SECTIONS + 40 + 12, 0x2f00);
	check_refused(img, IMG_SIZE, "VirtualSize 0: SizeOfRawData past SizeOfImage refused");
	free(img);
}

static void test_certificate_entries(void)
{
	struct authenticode_signature sig;
	struct pe_image pe;
	const uint8_t *der;
	const char *why;
	size_t len, cursor;
	uint8_t *img = unit_pe_image();

	CHECK_EQ(pe_parse(img, IMG_SIZE, &pe, &why), 0, "valid image parses");
	cursor = 0;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), 1,
		 "one certificate entry found");
	CHECK_EQ(len, IMG_CERT_LEN - 8, "the entry's content: all but its 8-byte header");
	CHECK_PTR_EQ(der, img + IMG_CERT_OFFSET + 8, "the entry's content follows its header");
	if (CHECK_EQ(authenticode_signature_parse(der, len, &sig, &why), -1,
		     "garbage PKCS#7 refused"))
		CHECK(why != NULL, "garbage PKCS#7 refused, with a reason");
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), 0, "end of table");

	put32(img + IMG_CERT_OFFSET, 0);
	cursor = 0;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), -1, "dwLength 0 refused");
	put32(img + IMG_CERT_OFFSET, 8);
	cursor = 0;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), -1,
		 "dwLength of a bare header refused");
	put32(img + IMG_CERT_OFFSET, IMG_CERT_LEN + 8);
	cursor = 0;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), -1,
		 "dwLength past the table refused");
	put32(img + IMG_CERT_OFFSET, 0xffffffff);
	cursor = 0;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), -1,
		 "dwLength near 4 GiB refused");
	put32(img + IMG_CERT_OFFSET, IMG_CERT_LEN);
	put16(img + IMG_CERT_OFFSET + 6, 0x0001);
	cursor = 0;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), -1,
		 "non-PKCS#7 certificate type refused");
	cursor = 4;
	CHECK_EQ(authenticode_next_entry(&pe, &cursor, &der, &len, &why), -1,
		 "unaligned entry refused");
	free(img);
}

int main(void)
{
	uint8_t *img = unit_pe_image();
	const struct pe_section *data;
	struct pe_image pe;
	const char *why;

	if (CHECK_EQ(pe_parse(img, IMG_SIZE, &pe, &why), 0, "valid image: parses")) {
		CHECK_EQ(pe.n_sections, 2, "valid image: two sections");
		CHECK_EQ(pe.cert_table_offset, IMG_CERT_OFFSET,
			 "valid image: certificate table offset found");
		CHECK_EQ(pe.cert_table_size, IMG_CERT_LEN,
			 "valid image: certificate table size found");
		/* what SHIM_LOCK's Context reports (src/efi/efi_shim_lock.c) */
		CHECK_EQ(pe.nt_headers_offset, IMG_LFANEW, "valid image: PE header offset");
		CHECK_EQ(pe.image_base, 0x140000000, "valid image: ImageBase");
		CHECK_EQ(pe.section_alignment, 0x1000, "valid image: SectionAlignment");
		CHECK_EQ(pe.subsystem, 10, "valid image: Subsystem");
		CHECK_EQ(pe.dll_characteristics, 0x0160, "valid image: DllCharacteristics");
		CHECK_EQ(pe.n_data_dirs, 16, "valid image: NumberOfRvaAndSizes");
		data = pe_find_section(&pe, ".data");
		CHECK_STREQ(data ? data->name : NULL, ".data", "section lookup finds .data");
		CHECK_PTR_EQ(pe_find_section(&pe, ".sbat"), NULL, "section lookup: no .sbat");
		CHECK(!pe_is_linux_kernel(&pe), "no boot protocol header: not a Linux kernel");
		memcpy(img + 0x202, "HdrS", 4);
		CHECK(pe_is_linux_kernel(&pe), "\"HdrS\" at 0x202: a Linux kernel");
		pe.size = 0x205;
		CHECK(!pe_is_linux_kernel(&pe), "\"HdrS\" cut off by the end of the file: not a kernel");
	}
	free(img);

	test_truncation();
	test_defects();
	test_certificate_entries();
	UNIT_EXIT();
}
