# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# Host throughput harness for `make bench`, included by the root Makefile:
#
#   make bench-verify-tools   $(BUILD)/bench/bench_verify-{asm,noasm,system}
#   tests/bench/mkimage.sh 12 OUT       a signed 12 MiB test image
#   tests/bench/verify_throughput.sh    both images, every variant, the ratios
#
# lockshim's verification core (CORE_SRCS), the CLI's file and trust-list
# option helpers (BENCH_CLI_SRCS) and tests/bench/bench_verify.c, linked as
# host programs against
#   -asm     the libcrypto.a built for UEFI with assembly (CRYPTO_ASM=1)
#   -noasm   the libcrypto.a built for UEFI without (CRYPTO_ASM=0)
#   -system  the system's libcrypto (the CPU's reference)
# The UEFI archives are x86_64 ELF objects that call only the C library
# subset lib/efi/libc provides; glibc provides it on the host, except the
# word-wise lockshim_memcpy/lockshim_memset their memcpy/memset calls were
# renamed to and the RAND seeding hooks, which come from lib/efi/libc as
# in the loader (with efi_globals.c standing in for the firmware). Each variant
# takes its cache entry through lib/crypto/build.sh with its own BUILD
# ($(BUILD)/bench/<variant>/crypto), so $(BUILD)/crypto is left alone.

BENCH_DIR := $(BUILD)/bench
# What bench_verify shares with build/lockshim: reading files, the --db/--dbx/... options.
BENCH_CLI_SRCS := src/cli/file.c src/cli/policy_args.c
BENCH_CFLAGS := $(HOST_CFLAGS) -Isrc/cli
BENCH_UEFI_CFLAGS = $(BENCH_CFLAGS) -DBENCH_UEFI_CRYPTO -include $(CRYPTO_DIR)/uefi-prelude.h \
	-I$(BENCH_DIR)/$*/crypto/include $(LIBEFI_INCLUDES)

.PHONY: bench-verify-tools
bench-verify-tools: $(BENCH_DIR)/bench_verify-asm $(BENCH_DIR)/bench_verify-noasm \
	$(BENCH_DIR)/bench_verify-system

$(BENCH_DIR)/asm/crypto/libcrypto.a: crypto-always
	+@BUILD='$(BENCH_DIR)/asm' CACHE_DIR='$(CACHE_DIR)' CRYPTO_ASM=1 \
		CRYPTO_JOBS='$(CRYPTO_JOBS)' $(CRYPTO_DIR)/build.sh
$(BENCH_DIR)/noasm/crypto/libcrypto.a: crypto-always
	+@BUILD='$(BENCH_DIR)/noasm' CACHE_DIR='$(CACHE_DIR)' CRYPTO_ASM=0 \
		CRYPTO_JOBS='$(CRYPTO_JOBS)' $(CRYPTO_DIR)/build.sh

# $* is the variant (asm, noasm) in these pattern rules.
$(BENCH_DIR)/%/core/bench_verify.o: tests/bench/bench_verify.c $(BENCH_DIR)/%/crypto/libcrypto.a
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_UEFI_CFLAGS) -MMD -MP -c $< -o $@

$(BENCH_DIR)/%/core/cpu_features.o: $(LIBEFI_DIR)/cpu_features.c $(BENCH_DIR)/%/crypto/libcrypto.a
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_UEFI_CFLAGS) -MMD -MP -c $< -o $@

$(BENCH_DIR)/%/core/memcpy.o: $(LIBEFI_DIR)/libc/memcpy.c
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_CFLAGS) $(GNUEFI_INCLUDES) -fno-builtin -MMD -MP -c $< -o $@

$(BENCH_DIR)/%/core/memset.o: $(LIBEFI_DIR)/libc/memset.c
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_CFLAGS) $(GNUEFI_INCLUDES) -fno-builtin -MMD -MP -c $< -o $@

# libcrypto's seeding hooks: the loader's, finding no firmware (efi_globals.c).
$(BENCH_DIR)/%/core/ossl_rand_pool.o: $(LIBEFI_DIR)/libc/ossl_rand_pool.c
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_CFLAGS) $(GNUEFI_INCLUDES) -DGNU_EFI_USE_MS_ABI -MMD -MP -c $< -o $@

$(BENCH_DIR)/%/core/efi_globals.o: tests/bench/efi_globals.c
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_CFLAGS) $(GNUEFI_INCLUDES) -DGNU_EFI_USE_MS_ABI -MMD -MP -c $< -o $@

# $(1): a source under src/, without .c (core/pe, cli/file): $(BENCH_DIR)/<variant>/$(1).o
define bench_src_rule
$(BENCH_DIR)/%/$(1).o: src/$(1).c $(BENCH_DIR)/%/crypto/libcrypto.a
	@mkdir -p $$(@D)
	$$(HOST_CC) $$(BENCH_UEFI_CFLAGS) -MMD -MP -c $$< -o $$@
endef
$(foreach src,$(CORE_SRCS:src/%.c=%) $(BENCH_CLI_SRCS:src/%.c=%),$(eval $(call bench_src_rule,$(src))))

bench_objs = $(addprefix $(BENCH_DIR)/$(1)/,$(CORE_SRCS:src/%.c=%.o) $(BENCH_CLI_SRCS:src/%.c=%.o)) \
	$(addprefix $(BENCH_DIR)/$(1)/core/,bench_verify.o cpu_features.o memcpy.o memset.o \
	ossl_rand_pool.o efi_globals.o)

$(BENCH_DIR)/bench_verify-asm: $(call bench_objs,asm) $(BENCH_DIR)/asm/crypto/libcrypto.a
	$(HOST_CC) $^ -o $@
$(BENCH_DIR)/bench_verify-noasm: $(call bench_objs,noasm) $(BENCH_DIR)/noasm/crypto/libcrypto.a
	$(HOST_CC) $^ -o $@

# The system's libcrypto: the core and CLI objects build/lockshim uses, and its headers.
$(BENCH_DIR)/system/bench_verify.o: tests/bench/bench_verify.c
	@mkdir -p $(@D)
	$(HOST_CC) $(BENCH_CFLAGS) -MMD -MP -c $< -o $@
$(BENCH_DIR)/bench_verify-system: $(BENCH_DIR)/system/bench_verify.o $(HOST_OBJS) \
		$(BENCH_CLI_SRCS:src/%.c=$(BUILD)/host/%.o)
	$(HOST_CC) $^ $(HOST_LIBS) -o $@

-include $(wildcard $(BENCH_DIR)/*/core/*.d $(BENCH_DIR)/*/cli/*.d $(BENCH_DIR)/system/*.d)
