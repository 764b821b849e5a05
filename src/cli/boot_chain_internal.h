/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What boot_chain.c shares with the second stages' readers
 * (second_stage.c: GRUB and systemd-boot): the images of a chain, the
 * first stage's policy and measurements, and the steps. Not for other
 * callers: boot_chain.h is the interface.
 */
#ifndef LOCKSHIM_BOOT_CHAIN_INTERNAL_H
#define LOCKSHIM_BOOT_CHAIN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot_chain.h"
#include "measure.h"
#include "pe.h"
#include "sbat.h"
#include "tcg_log.h"
#include "verify.h"

enum image_kind {
	KIND_UNKNOWN,
	KIND_LOCKSHIM,
	KIND_SHIM,
	KIND_GRUB,
	KIND_SYSTEMD_BOOT,
	KIND_KERNEL, /* a Linux kernel's EFI stub, or a UKI */
};

/* One image read and parsed; @pe is heap memory (struct pe_image is large). */
struct image {
	char name[320]; /* as the chain shows it */
	const uint8_t *data;
	size_t size;
	struct pe_image *pe;           /* NULL when it is not a PE image */
	struct image_digests *digests; /* the cache's, kept across decisions (verify.h) */
	enum image_kind kind;
};

/*
 * lockshim's measurements at the next boot, into a copy of the firmware's
 * PCRs (PCR prediction): the events it extends, each recorded for
 * --pcrlock. @times: how often the next image decided is measured (GRUB's
 * `linux` asks SHIM_LOCK's Verify twice); 0 for an image off the default
 * path, which that boot does not run.
 */
struct chain_measure {
	struct measurer m;
	struct pcr_bank bank;
	struct chain_pcrs *pcrs;
	bool mok_state_done; /* later events are authorities and images */
	bool failed;
	unsigned int times;
};

/* What lockshim or shim @fs decides with at the next boot. */
struct first_stage {
	struct chain_measure *measure; /* NULL: nothing predicted */
	const struct image *image;
	struct verify_policy policy;
	struct sbat level;
	bool enforced; /* Secure Boot on and validation not turned off */
};

/* The file at host path @path, read at most once. Returns 0, or -1 having said why. */
int chain_cache_read(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size);

/* A new step of @out for @image in @role; NULL when the chain is full. */
struct chain_step *chain_add_step(struct chain *out, const char *image, const char *role);

/* @s refused for a reason outside the policy (a missing file, no SHIM_LOCK). */
void chain_step_refuse(struct chain_step *s, enum verdict_reason reason, const char *message);

/* The chain ends: it @boots or not, why in @fmt with @what. */
void chain_ends(struct chain *out, bool boots, const char *fmt, const char *what);

/* The directory of ESP path @path, with its trailing '\'. */
void chain_esp_dir(const char *path, char *out, size_t size);

/*
 * An image a second stage asks @fs about (SHIM_LOCK's rule; NULL @fs: the
 * firmware's db and dbx), at @host (NULL: missing), as a step: *@boots when
 * it is an allowed kernel. @firmware_fallback: a refusal goes on to db
 * (systemd-boot's override under shim). Returns 0, or -1 on unusable input.
 */
int chain_second_stage_image(const struct chain_files *files, const struct machine_state *m,
			     const struct first_stage *fs, const char *host, const char *name,
			     const char *role, bool firmware_fallback, struct chain *out,
			     bool *boots);

/* GRUB at ESP path @grub_path: its grub.cfg's entries (second_stage.c). 0, or -1 said. */
int chain_grub_stage(const struct chain_files *files, const struct machine_state *m,
		     const struct first_stage *fs, const char *grub_path, struct chain *out);

/* systemd-boot: its Type #1 entries and UKIs (second_stage.c). 0, or -1 said. */
int chain_systemd_boot_stage(const struct chain_files *files, const struct machine_state *m,
			     const struct first_stage *fs, struct chain *out);

#endif
