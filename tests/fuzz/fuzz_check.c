// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: what `lockshim check` reads of a machine it is asked
 * about, all of it hostile: BootOrder and Boot#### (boot_option.c), an
 * efivarfs file and a signed update (variable_data.c), a .vendor_cert
 * table (vendor_cert.c), grub.cfg (src/cli/grub_cfg.c) and systemd-boot's
 * entries (src/cli/bls.c); and, read the same way, the device path whose
 * GPT partition lockshim gives systemd as LoaderDevicePartUUID
 * (loader_interface.c), and its size and file path text (device_path.c),
 * which the firmware shell walks in every path it is given; the store's
 * room the loader hands over (variable_store.c).
 *
 * Input: the whole of it goes to every parser, each from a heap block of
 * exactly its size (ASan reports a read past it). What a parser hands back
 * must point inside its input and be terminated; a grub.cfg's default
 * index must name one of its entries.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bls.h"
#include "boot_option.h"
#include "device_path.h"
#include "fuzz.h"
#include "grub_cfg.h"
#include "loader_interface.h"
#include "variable_store.h"
#include "variable_data.h"
#include "vendor_cert.h"

static bool inside(const uint8_t *p, size_t n, const uint8_t *base, size_t size)
{
	return !p || (p >= base && (size_t)(p - base) <= size && n <= size - (size_t)(p - base));
}

static void check_boot_variables(const uint8_t *data, size_t size)
{
	static uint16_t order[BOOT_ORDER_MAX];
	static struct boot_option bo;
	const char *reason = NULL;
	size_t count = 0;

	if (boot_order_parse(data, size, order, &count, &reason) == 0)
		FUZZ_ASSERT(count == size / 2 && count <= BOOT_ORDER_MAX);
	else
		FUZZ_ASSERT(reason && reason[0]);
	if (boot_option_parse(data, size, &bo, &reason) == 0) {
		FUZZ_ASSERT(memchr(bo.description, '\0', sizeof(bo.description)));
		FUZZ_ASSERT(memchr(bo.path, '\0', sizeof(bo.path)));
		FUZZ_ASSERT(memchr(bo.partition_guid, '\0', sizeof(bo.partition_guid)));
		FUZZ_ASSERT(inside(bo.optional_data, bo.optional_data_size, data, size));
		FUZZ_ASSERT((bo.target == BOOT_TARGET_FILE) ==
			    (bo.path[0] && bo.target != BOOT_TARGET_FIRMWARE));
		for (const char *p = bo.path; *p; p++)
			FUZZ_ASSERT(*p >= 0x20 && *p < 0x7f && *p != '/');
	} else {
		FUZZ_ASSERT(reason && reason[0]);
	}
}

static void check_variable_data(const uint8_t *data, size_t size)
{
	struct vendor_cert_table table;
	const uint8_t *value;
	const char *reason = NULL;
	uint32_t attributes;
	size_t value_size;

	if (efivarfs_split(data, size, &attributes, &value, &value_size, &reason) == 0)
		FUZZ_ASSERT(value == data + 4 && value_size == size - 4);
	else
		FUZZ_ASSERT(size < 4);
	if (auth2_payload(data, size, &value, &value_size, &reason) == 0)
		FUZZ_ASSERT(inside(value, value_size, data, size) &&
			    value + value_size == data + size && value >= data + 40);
	if (vendor_cert_table_parse(data, size, &table, &reason) == 0) {
		FUZZ_ASSERT(inside(table.authorized, table.authorized_size, data, size));
		FUZZ_ASSERT(inside(table.deauthorized, table.deauthorized_size, data, size));
	}
}

static void check_texts(const uint8_t *data, size_t size)
{
	static struct grub_vars vars;
	static struct grub_cfg cfg;
	struct bls_entry entry;
	char def[64];
	const char *reason = NULL;
	long index;

	memset(&vars, 0, sizeof(vars));
	grub_vars_set(&vars, "root", GRUB_ESP_DEVICE);
	grub_vars_set(&vars, "prefix", "(" GRUB_ESP_DEVICE ")/EFI/debian");
	if (grub_cfg_parse((const char *)data, size, &vars, &cfg, &reason) == 0) {
		FUZZ_ASSERT(cfg.n_entries <= GRUB_CFG_MAX_ENTRIES && vars.n <= GRUB_CFG_MAX_VARS);
		index = grub_cfg_default_index(&cfg);
		FUZZ_ASSERT(cfg.n_entries ? index >= 0 && (size_t)index < cfg.n_entries :
					    index == -1);
		for (size_t i = 0; i < cfg.n_entries; i++) {
			FUZZ_ASSERT(memchr(cfg.entries[i].title, '\0', GRUB_CFG_MAX_TEXT));
			FUZZ_ASSERT(!cfg.entries[i].has_image ||
				    cfg.entries[i].image.path[0] == '/');
		}
		FUZZ_ASSERT(!cfg.has_configfile || cfg.configfile.path[0] == '/');
	} else {
		FUZZ_ASSERT(reason && reason[0]);
	}
	if (bls_entry_parse((const char *)data, size, &entry, &reason) == 0)
		FUZZ_ASSERT(memchr(entry.image, '\0', sizeof(entry.image)) &&
			    !strchr(entry.image, '\\'));
	if (bls_loader_default((const char *)data, size, def, sizeof(def), &reason) == 0)
		FUZZ_ASSERT(memchr(def, '\0', sizeof(def)));
}

/* LoaderDevicePartUUID: 8-4-4-4-12 uppercase hex digits and the NUL, or nothing. */
static void check_device_path(const uint8_t *data, size_t size)
{
	static struct loader_text text;
	const char *reason = NULL;
	int r = loader_device_part_uuid_text(data, size, &text, &reason);

	if (r < 0) {
		FUZZ_ASSERT(reason && reason[0]);
		return;
	}
	if (r == 0)
		return;
	FUZZ_ASSERT(text.size == 37 * 2 && text.text[36] == 0);
	for (size_t i = 0; i < 36; i++)
		FUZZ_ASSERT(i == 8 || i == 13 || i == 18 || i == 23 ?
				    text.text[i] == '-' :
				    (text.text[i] >= '0' && text.text[i] <= '9') ||
					    (text.text[i] >= 'A' && text.text[i] <= 'F'));
}

/*
 * The path's size ends with its end node, inside the input, and bounds it; its file path
 * text is the same counted and written, and terminated where it is cut.
 */
static void check_device_path_walk(const uint8_t *data, size_t size)
{
	static uint16_t text[64];
	const char *reason = NULL;
	size_t path_size = 0, len = 0, counted = 0;

	if (device_path_size(data, size, &path_size, &reason) < 0) {
		FUZZ_ASSERT(reason && reason[0]);
		FUZZ_ASSERT(device_path_file_text(data, size, text, 64, &len, &reason) < 0);
		return;
	}
	FUZZ_ASSERT(path_size >= DP_HEADER_SIZE && path_size <= size);
	/* bounded at its own size, the same path */
	FUZZ_ASSERT(device_path_size(data, path_size, &counted, &reason) == 0 && counted == path_size);
	FUZZ_ASSERT(device_path_file_text(data, path_size, NULL, 0, &counted, &reason) == 0);
	FUZZ_ASSERT(device_path_file_text(data, path_size, text, 64, &len, &reason) == 0);
	FUZZ_ASSERT(len == counted && len <= path_size / 2);
	FUZZ_ASSERT(text[len < 64 ? len : 63] == 0);
	for (size_t i = 0; i < len && i < 63; i++)
		FUZZ_ASSERT(text[i] != 0 && text[i] != '/');
}

/* The store's room as the loader handed it over: what is read writes back the same. */
static void check_variable_info(const uint8_t *data, size_t size)
{
	struct variable_store_space space[STORE_SETS], again[STORE_SETS];
	char text[VARIABLE_INFO_TEXT_MAX];
	const char *reason = NULL;
	size_t n;

	if (variable_info_parse(data, size, space, &reason) < 0) {
		FUZZ_ASSERT(reason && reason[0]);
		return;
	}
	n = variable_info_format(space, text);
	FUZZ_ASSERT(n < sizeof(text) && text[n] == '\0');
	FUZZ_ASSERT(variable_info_parse(text, n, again, &reason) == 0);
	for (int s = 0; s < STORE_SETS; s++)
		FUZZ_ASSERT(again[s].known == space[s].known &&
			    (!space[s].known || !memcmp(&again[s], &space[s], sizeof(space[s]))));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (size)
		memcpy(copy, data, size);
	check_boot_variables(copy, size);
	check_variable_data(copy, size);
	check_texts(copy, size);
	check_device_path(copy, size);
	check_device_path_walk(copy, size);
	check_variable_info(copy, size);
	free(copy);
	return 0;
}
