// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The Boot Loader Interface's values (loader_interface.c) as systemd-boot
 * 252 formats them, and the firmware's hostile inputs: vendor names without
 * their NUL, device paths cut anywhere or with bad lengths, each in a heap
 * block of exactly its size so ASan sees a read past it; the microseconds
 * against 128-bit arithmetic.
 */
#include "loader_interface.h"
#include "macro.h"
#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

/* @t as ASCII ('?' for other code units), after checking its NUL and its size. */
static const char *ascii(const struct loader_text *t)
{
	static char buf[LOADER_TEXT_MAX + 1];
	size_t n = 0;

	while (n < LOADER_TEXT_MAX && t->text[n]) {
		buf[n] = t->text[n] < 0x80 ? (char)t->text[n] : '?';
		n++;
	}
	buf[n] = '\0';
	CHECK(n < LOADER_TEXT_MAX && t->size == (n + 1) * 2,
	      unit_name("\"%s\": NUL-terminated, the NUL counted in its size", buf));
	return buf;
}

/* @s as UTF-16 in a heap block of exactly its characters, with the NUL only when @nul. */
static uint16_t *utf16(const char *s, size_t len, bool nul)
{
	uint16_t *u = malloc((len + nul) * 2);

	for (size_t i = 0; i < len; i++)
		u[i] = (uint8_t)s[i];
	if (nul)
		u[len] = 0;
	return u;
}

static void test_info(void)
{
	struct loader_text t;
	const char *reason = NULL;
	char long_version[LOADER_TEXT_MAX];

	CHECK_EQ(loader_info_text("0.7.0+g45c12cc", &t, &reason), 0, "LoaderInfo: formats");
	CHECK_STREQ(ascii(&t), "lockshim 0.7.0+g45c12cc", "LoaderInfo: lockshim and the version");
	CHECK_EQ(loader_info_text("0.7\n", &t, &reason), -1, "LoaderInfo: a control character");
	CHECK_STRSTR(reason, "printable", "LoaderInfo: says why");
	CHECK_EQ(loader_info_text("0.7\xc3\xa9", &t, &reason), -1, "LoaderInfo: non-ASCII");
	memset(long_version, 'v', sizeof(long_version) - 1);
	long_version[sizeof(long_version) - 1] = '\0';
	CHECK_EQ(loader_info_text(long_version, &t, &reason), -1,
		 "LoaderInfo: too long is refused");
	CHECK_STRSTR(reason, "too long", "LoaderInfo: too long says why");
	/* "lockshim " is 9: the longest version that fits leaves one unit for the NUL */
	long_version[LOADER_TEXT_MAX - 1 - 9] = '\0';
	CHECK_EQ(loader_info_text(long_version, &t, &reason), 0, "LoaderInfo: the longest fits");
	CHECK_EQ(t.size, (size_t)LOADER_TEXT_MAX * 2, "LoaderInfo: the longest fills the text");
}

static void test_firmware(void)
{
	static const struct {
		const char *vendor;
		uint32_t revision;
		const char *info, *type;
	} cases[] = {
		{ "EDK II", 0x00010000, "EDK II 1.00", "UEFI 1.00" },
		{ "American Megatrends", 0x0005001a, "American Megatrends 5.26", "UEFI 5.26" },
		{ "Lenovo", 0x00001450, "Lenovo 0.5200", "UEFI 0.5200" },
		{ "HP", 0x00020046, "HP 2.70", "UEFI 2.70" },
		{ "x", 0x00020005, "x 2.05", "UEFI 2.05" },
		{ "", 0x00020064, " 2.100", "UEFI 2.100" }, /* UEFI 2.10: systemd-boot says 2.100 */
		{ "y", 0xffffffff, "y 65535.65535", "UEFI 65535.65535" },
		{ "z", 0, "z 0.00", "UEFI 0.00" },
	};
	struct loader_text t;
	const char *reason = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint16_t *vendor = utf16(cases[i].vendor, strlen(cases[i].vendor), true);

		if (CHECK_EQ(loader_firmware_info_text(vendor, cases[i].revision, &t, &reason), 0,
			     unit_name("LoaderFirmwareInfo %s: formats", cases[i].info)))
			CHECK_STREQ(ascii(&t), cases[i].info, "LoaderFirmwareInfo: %s %u.%02u");
		loader_firmware_type_text(cases[i].revision, &t);
		CHECK_STREQ(ascii(&t), cases[i].type, "LoaderFirmwareType: UEFI %u.%02u");
		free(vendor);
	}
	CHECK_EQ(loader_firmware_info_text(NULL, 0x10000, &t, &reason), -1,
		 "LoaderFirmwareInfo: no vendor is refused");

	/* a UTF-16 vendor is kept as it is */
	uint16_t accented[] = { 'V', 0xe9, 'n', 0 };
	CHECK_EQ(loader_firmware_info_text(accented, 0x20046, &t, &reason), 0,
		 "LoaderFirmwareInfo: non-ASCII vendor");
	CHECK_EQ(t.text[1], 0xe9, "LoaderFirmwareInfo: the vendor's code units as they are");
}

/* Vendor names at and around the length that fits, and ones without a NUL at all. */
static void test_firmware_vendor_lengths(void)
{
	char name[LOADER_TEXT_MAX + 8];
	struct loader_text t;
	const char *reason = NULL;
	/* " 1.00" and the NUL: 6 units besides the vendor */
	const size_t fits = LOADER_TEXT_MAX - 6;

	memset(name, 'F', sizeof(name));
	for (size_t len = fits - 2; len <= fits + 2; len++) {
		uint16_t *vendor = utf16(name, len, true);
		int r = loader_firmware_info_text(vendor, 0x10000, &t, &reason);

		CHECK_EQ(r, len <= fits ? 0 : -1,
			 unit_name("LoaderFirmwareInfo: a vendor of %zu characters", len));
		free(vendor);
	}
	/* no NUL: read no further than the text holds (ASan: the block is exactly this) */
	uint16_t *unterminated = utf16(name, LOADER_TEXT_MAX, false);
	CHECK_EQ(loader_firmware_info_text(unterminated, 0x10000, &t, &reason), -1,
		 "LoaderFirmwareInfo: a vendor without its NUL is refused, read within bounds");
	CHECK_STRSTR(reason, "too long", "LoaderFirmwareInfo: says why");
	free(unterminated);
}

static void test_frequency(void)
{
	CHECK_EQ(loader_tsc_frequency(100, 3000100), 3000000000u, "TSC: ticks of 1 ms times 1000");
	CHECK_EQ(loader_tsc_frequency(5, 5), 0u, "TSC: a counter that did not move: none");
	CHECK_EQ(loader_tsc_frequency(6, 5), 0u, "TSC: a counter that went back: none");
	CHECK_EQ(loader_tsc_frequency(0, UINT64_MAX / 1000), UINT64_MAX / 1000 * 1000,
		 "TSC: the largest product");
	CHECK_EQ(loader_tsc_frequency(0, UINT64_MAX / 1000 + 1), 0u, "TSC: an overflow: none");
}

static void test_usec(void)
{
	static const struct {
		uint64_t ticks, frequency, usec;
	} cases[] = {
		{ 3000000000u, 3000000000u, 1000000 },
		{ 1, 3000000000u, 0 },
		{ 2999, 3000000000u, 0 },
		{ 3000, 3000000000u, 1 },
		{ 0, 3000000000u, 0 }, /* no ticks: no time */
		{ 12345, 0, 0 },       /* no frequency: no time */
		/* past 1.8e13 ticks systemd-boot 252's ticks * 10^6 wraps; this does not */
		{ 100000000000000u, 3000000000u, 33333333333u },
		{ UINT64_MAX, 1000000, UINT64_MAX },
		{ UINT64_MAX, 999999, 0 }, /* does not fit */
		{ UINT64_MAX, 1, 0 },
		{ 5, UINT64_MAX, 0 },
	};
	struct loader_text t;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK_EQ(loader_time_usec(cases[i].ticks, cases[i].frequency), cases[i].usec,
			 unit_name("usec: %llu ticks at %llu Hz",
				   (unsigned long long)cases[i].ticks,
				   (unsigned long long)cases[i].frequency));

	/* against 128-bit arithmetic, over frequencies a TSC has */
	uint64_t x = 0x9e3779b97f4a7c15u;
	bool all = true;
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t ticks = x >> (i % 64), frequency = 1000000 + (x >> 30) % 20000000000u;
		unsigned __int128 want = (unsigned __int128)ticks * 1000000 / frequency;
		uint64_t got = loader_time_usec(ticks, frequency);

		if (ticks == 0)
			want = 0;
		if (want > UINT64_MAX ? got != 0 : got != (uint64_t)want) {
			all = false;
			printf("#   %llu ticks at %llu Hz: %llu\n", (unsigned long long)ticks,
			       (unsigned long long)frequency, (unsigned long long)got);
			break;
		}
	}
	CHECK(all, "usec: floor(ticks * 10^6 / frequency) as 128-bit arithmetic gives it");

	loader_usec_text(0, &t);
	CHECK_STREQ(ascii(&t), "0", "usec text: zero");
	loader_usec_text(1234567, &t);
	CHECK_STREQ(ascii(&t), "1234567", "usec text: decimal");
	loader_usec_text(UINT64_MAX, &t);
	CHECK_STREQ(ascii(&t), "18446744073709551615", "usec text: the largest");
}

/* A device path under construction. */
struct dp {
	uint8_t b[256];
	size_t n;
};

static void put_le(struct dp *d, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d->b[d->n++] = (uint8_t)(v >> (8 * i));
}

static void node(struct dp *d, uint8_t type, uint8_t subtype, uint16_t length)
{
	d->b[d->n++] = type;
	d->b[d->n++] = subtype;
	put_le(d, length, 2);
}

/* PciRoot(0x0)/Pci(0x1,0x1), as OVMF's disks begin */
static void pci_nodes(struct dp *d)
{
	node(d, 0x02, 0x01, 12);
	put_le(d, 0x0a0341d0, 4);
	put_le(d, 0, 4);
	node(d, 0x01, 0x01, 6);
	put_le(d, 0x0101, 2);
}

/* HD(1,GPT,...) with @signature (16 bytes) and @signature_type */
static void hd_node(struct dp *d, const uint8_t *signature, uint8_t signature_type)
{
	node(d, 0x04, 0x01, 42);
	put_le(d, 1, 4);
	put_le(d, 2048, 8);
	put_le(d, 204800, 8);
	memcpy(d->b + d->n, signature, 16);
	d->n += 16;
	d->b[d->n++] = signature_type == 2 ? 2 : 1; /* MBR type: GPT or PC-AT */
	d->b[d->n++] = signature_type;
}

static void end(struct dp *d)
{
	node(d, 0x7f, 0xff, 4);
}

/* loader_device_part_uuid_text on a heap copy of @size bytes of @d, walked within @bound */
static int part_uuid(const struct dp *d, size_t size, size_t bound, struct loader_text *t,
		     const char **reason)
{
	uint8_t *copy = memcpy(malloc(size ? size : 1), d->b, size);
	int r = loader_device_part_uuid_text(copy, bound, t, reason);

	free(copy);
	return r;
}

static const uint8_t esp_guid[16] = { 0x0e, 0x6f, 0x5e, 0x0b, 0x11, 0x11, 0x22, 0x22,
				      0x33, 0x33, 0x44, 0x44, 0x55, 0x66, 0xa6, 0xbf };

/* Malformed endings of a device path. */
static void short_node(struct dp *d)
{
	node(d, 0x04, 0x01, 3);
	end(d);
}

static void long_node(struct dp *d)
{
	node(d, 0x04, 0x01, 200);
	end(d);
}

static void no_end(struct dp *d)
{
	(void)d;
}

static void short_hd(struct dp *d)
{
	node(d, 0x04, 0x01, 8);
	put_le(d, 0, 4);
	end(d);
}

static void nothing(struct dp *d)
{
	d->n = 0;
}

static void short_hd_after_gpt(struct dp *d)
{
	hd_node(d, esp_guid, 2);
	short_hd(d);
}

static void test_part_uuid(void)
{
	static const uint8_t zero[16];
	struct loader_text t;
	const char *reason = NULL;
	struct dp d = { .n = 0 };

	pci_nodes(&d);
	hd_node(&d, esp_guid, 2);
	end(&d);
	if (CHECK_EQ(part_uuid(&d, d.n, d.n, &t, &reason), 1, "LoaderDevicePartUUID: GPT"))
		CHECK_STREQ(
			ascii(&t), "0B5E6F0E-1111-2222-3333-44445566A6BF",
			"LoaderDevicePartUUID: uppercase, the first three fields little-endian");
	/* the firmware's path has no known size: a bound far past it, nothing read past its end */
	CHECK_EQ(part_uuid(&d, d.n, d.n + 4096, &t, &reason), 1,
		 "LoaderDevicePartUUID: walked within a bound, not past the end node");

	/* a GPT HD() after a file path node, and a second one: the first counts */
	d.n = 0;
	pci_nodes(&d);
	node(&d, 0x04, 0x04, 8);
	put_le(&d, 'a', 2);
	put_le(&d, 0, 2);
	hd_node(&d, esp_guid, 2);
	hd_node(&d, zero, 2);
	end(&d);
	CHECK_EQ(part_uuid(&d, d.n, d.n, &t, &reason), 1, "LoaderDevicePartUUID: the first HD()");

	/* what sets none */
	static const struct {
		const char *name;
		int kind;
	} none[] = {
		{ "a superfloppy: no HD() node", 0 },
		{ "an MBR partition", 1 },
		{ "a zero GUID", 2 },
		{ "an empty path", 3 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(none); i++) {
		d.n = 0;
		if (none[i].kind != 3)
			pci_nodes(&d);
		if (none[i].kind == 1)
			hd_node(&d, esp_guid, 1);
		if (none[i].kind == 2)
			hd_node(&d, zero, 2);
		end(&d);
		CHECK_EQ(part_uuid(&d, d.n, d.n, &t, &reason), 0,
			 unit_name("LoaderDevicePartUUID: none for %s", none[i].name));
	}

	/* malformed: after PciRoot/Pci, what each builder adds */
	static const struct {
		void (*build)(struct dp *d);
		const char *name, *reason;
	} bad[] = {
		{ short_node, "a node shorter than its header", "bad length" },
		{ long_node, "a node past the path", "bad length" },
		{ no_end, "no end node", "no end node" },
		{ short_hd, "an HD() node of the wrong length", "HD() node" },
		{ nothing, "nothing at all", "no end node" },
		{ short_hd_after_gpt, "a bad HD() node after a good one", "HD() node" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		d.n = 0;
		pci_nodes(&d);
		bad[i].build(&d);
		reason = NULL;
		CHECK_EQ(part_uuid(&d, d.n, d.n, &t, &reason), -1,
			 unit_name("LoaderDevicePartUUID: %s is refused", bad[i].name));
		CHECK_STRSTR(reason, bad[i].reason,
			     unit_name("LoaderDevicePartUUID: %s", bad[i].name));
	}

	/* every cut of a valid path: refused or none, never a read past it */
	d.n = 0;
	pci_nodes(&d);
	hd_node(&d, esp_guid, 2);
	end(&d);
	bool cut_ok = true;
	for (size_t size = 0; size < d.n; size++)
		if (part_uuid(&d, size, size, &t, &reason) != -1)
			cut_ok = false;
	CHECK(cut_ok, "LoaderDevicePartUUID: every cut path is refused");
}

int main(void)
{
	test_info();
	test_firmware();
	test_firmware_vendor_lengths();
	test_frequency();
	test_usec();
	test_part_uuid();
	return unit_failed;
}
