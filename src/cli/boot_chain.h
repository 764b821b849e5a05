/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The chain one boot option runs, decided on the host with the loader's
 * own code (verify.c): the firmware's verdict on the first stage (db,
 * dbx); for lockshim or shim as the first stage, the policy it applies
 * (its .vendor_cert keys, db, dbx, the MOK lists of the next boot, the
 * SbatLevel it will enforce) to what it starts; then what a second stage
 * asks about through SHIM_LOCK (GRUB's grub.cfg entries, systemd-boot's
 * Type #1 entries and UKIs), with the SHIM_LOCK rule.
 */
#ifndef LOCKSHIM_BOOT_CHAIN_H
#define LOCKSHIM_BOOT_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot_manager.h"
#include "image_cache.h"
#include "variable_store.h"
#include "verdict_reason.h"

/* A variable's data as the next boot reads it; OPENSSL_malloc'd. */
struct blob {
	bool present;
	uint8_t *data;
	size_t size;
};

/* What the next boot's decisions depend on. */
struct machine_state {
	bool secure_boot;                 /* SecureBoot=1 and SetupMode=0 */
	bool secure_boot_var, setup_mode; /* SecureBoot=1, SetupMode=1: each as the firmware says */
	struct blob kek, db, dbx;
	/* the store's room as the loader found it at this boot (VariableInfo); unknown without */
	struct variable_store_space store[STORE_SETS];
	struct blob mok_list, mok_list_x; /* as lockshim or shim mirrors them (vendor keys first) */
	struct blob sbat_level;           /* the level stored for the next boot */
	uint8_t sbat_policy;              /* SbatPolicy (mokutil --set-sbat-policy); 0 none */
	bool validation_off;              /* MokSBState: the first stage's verification is off */
	bool ignore_db;                   /* MokDBState: db not trusted by the first stage */
	bool mok_list_trusted;            /* MokListTrusted (mokutil --trust-mok) */
	/* systemd-boot's choice of entry (bootctl set-oneshot, set-default; what `@saved` names) */
	char loader_entry_oneshot[256], loader_entry_default[256], loader_entry_last_booted[256];
};

struct pcr_bank;
struct sig_db;
struct verify_policy;

/*
 * Add @b's signature lists to @db of @policy, as the loader does (deny
 * lists fail closed; verify_policy_list_loaded). Returns 0, or -1 said.
 */
int policy_add_blob(struct verify_policy *policy, struct sig_db *db, const struct blob *b);

/* Where the files are on the host. */
struct chain_files {
	const char *esp;      /* the ESP's mount point or copy */
	const char *boot;     /* the filesystem GRUB's `search` names (/boot); NULL when unknown */
	const char *xbootldr; /* the partition of XBOOTLDR's type GUID; NULL when none */
	struct image_cache *cache;
	/*
	 * The PCRs as the firmware left them when it started this boot's first
	 * stage, whose Authenticode SHA-256 is @first_stage_sha256 (the event
	 * log's part up to it); NULL: no PCR prediction.
	 */
	const struct pcr_bank *firmware;
	const uint8_t *first_stage_sha256;
};

/* lockshim's events at the next boot of a chain (measure.c), and the PCRs they give. */
enum chain_event_kind {
	EVENT_MOK_STATE, /* PCR 14, and PCR 7's MokSBState and SbatLevel */
	EVENT_AUTHORITY, /* PCR 7: the entry that allowed an image */
	EVENT_IMAGE,     /* PCR 4: an image */
};

#define CHAIN_MAX_EVENTS 64

struct chain_pcrs {
	bool predicted;
	char note[200]; /* why not, when not */
	uint8_t pcr4[32], pcr7[32], pcr14[32];
	size_t n_events;
	struct {
		enum chain_event_kind kind;
		uint32_t pcr;
		uint8_t sha256[32];
	} events[CHAIN_MAX_EVENTS];
};

#define CHAIN_MAX_STEPS 96

struct chain_step {
	char image[320]; /* \EFI\... on the ESP, or a path on --boot's filesystem */
	char role[600];  /* "first stage", "default loader", "entry 'Debian'": full titles */
	char id[256];    /* a second stage's entry: its stable id (second_stage.h); else empty */
	bool allowed;
	enum verdict_reason reason;
	char list[24];   /* the list whose entry decided; empty when none */
	char entry[256]; /* that entry */
	char message[384];
};

struct chain {
	char option[16];       /* Boot0001, or "removable" */
	char description[256]; /* the option's, or the path */
	size_t n_steps;
	struct chain_step steps[CHAIN_MAX_STEPS];
	bool boots;                /* it ends in a kernel that will run */
	enum boot_outcome outcome; /* what the firmware's attempt comes to (boot_manager.h) */
	char why[512];             /* what it boots, or why not */
	struct chain_pcrs pcrs;    /* when lockshim is the first stage and files->firmware is set */
};

/*
 * The SbatLevel the next boot leaves stored when @first_stage (an ESP path)
 * is lockshim or shim: @state's level brought up to its automatic one (or
 * as SbatPolicy asks), into state->sbat_level. Returns 0 (nothing to do
 * when it is neither), or -1 having said which file is unusable.
 */
int chain_next_sbat_level(const struct chain_files *files, const char *first_stage,
			  struct machine_state *state);

/*
 * The chain the firmware runs for the image at @path (an ESP path, '\'
 * separators) started with @load_options (@options_size bytes; NULL when
 * none), into @out. Returns 0, or -1 having said which input cannot be
 * used (an unreadable directory, a grub.cfg or entry that cannot be read).
 */
int chain_evaluate(const struct chain_files *files, const struct machine_state *state,
		   const char *path, const uint8_t *load_options, size_t options_size,
		   struct chain *out);

#endif
