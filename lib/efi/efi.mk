# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# What lockshim's firmware programs need besides OpenSSL: the C library
# subset (libc/), the packed-relocation relocator and CPU-feature detection,
# in one archive, the linker script every EFI link uses
# (elf_x86_64_efi.lds, named by the root Makefile's EFI_LDS) and the checks
# every EFI link runs. Included by the root
# Makefile after lib/crypto/crypto.mk; uses the root's FLAGS_FILE and
# FLAGS_DIR: its objects depend on $(FLAGS_DIR)/lib-efi, the compile command
# they are built with, so a change of it rebuilds them.
#
# Defines:
#   LIBEFI_DIR           this directory (its check-*.sh run after each link)
#   LIBEFI_INCLUDES      -I for cpu_features.h
#   LIBC_EFI_LIB         $(BUILD)/lib-efi/libc-efi.a: libc/*.c, cpu_features.o
#                        (crypto_cpu_init), efi_relocate.o (_relocate with
#                        DT_RELR), efi_random.o (efi_random64) and
#                        stack_guard.o (the stack protector's guard, set
#                        from efi_random64, and __stack_chk_fail)
#   LIBEFI_RELR_LDFLAGS  ld flags every EFI link needs (see below)
# Targets (host tests, in make check through tests/cli/test_lib_efi.sh):
# libefi-libc-test (libc/ against glibc), libefi-relocate-test (efi_relocate.c
# against gnu-efi's _relocate), libefi-cpu-test (cpu_features.c's XCR0
# masking).

LIBEFI_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LIBEFI_BUILD_DIR := $(BUILD)/lib-efi
LIBEFI_INCLUDES := -I$(LIBEFI_DIR)

LIBC_EFI_LIB := $(LIBEFI_BUILD_DIR)/libc-efi.a
LIBC_EFI_SRCS := $(sort $(wildcard $(LIBEFI_DIR)/libc/*.c))
LIBC_EFI_OBJS := $(patsubst $(LIBEFI_DIR)/libc/%.c,$(LIBEFI_BUILD_DIR)/libc/%.o,$(LIBC_EFI_SRCS))
# -fno-builtin and no loop-pattern distribution: keep GCC from compiling the
# string functions into calls to themselves (or to libefi's byte loops).
LIBC_EFI_CFLAGS = $(EFI_CFLAGS) $(GNUEFI_INCLUDES) -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns
# The rest of libc-efi.a. cpu_features.o reads the configured OpenSSL headers
# (OPENSSL_NO_ASM), so it is rebuilt when CRYPTO_ASM selects another cache
# entry.
LIBEFI_GLUE_OBJS := $(LIBEFI_BUILD_DIR)/cpu_features.o $(LIBEFI_BUILD_DIR)/efi_relocate.o \
                    $(LIBEFI_BUILD_DIR)/efi_random.o $(LIBEFI_BUILD_DIR)/stack_guard.o
# What $(FLAGS_DIR)/lib-efi records: every object's flags, cpu_features.o's
# OpenSSL ones included.
LIBEFI_COMPILE = $(CCACHE) $(CC) $(LIBC_EFI_CFLAGS) $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES)
$(eval $(call FLAGS_FILE,lib-efi,LIBEFI_COMPILE))

# Packed relative relocations: libcrypto's pointer tables (the OBJ table,
# the providers' dispatch tables) need about 6,000 R_X86_64_RELATIVE
# relocations, 24 bytes each as DT_RELA (about 140 KB of lockshimx64.efi);
# as DT_RELR they take about 2 KB. gnu-efi's _relocate knows DT_RELA only:
# efi_relocate.o (in libc-efi.a) replaces it, and requiring its marker
# symbol both pulls it in ahead of -lgnuefi and turns any other library order
# into a link error (two _relocate) instead of an image that faults at start.
# The linker script must place .relr.dyn in its own output section (.relr)
# and objcopy must copy it (-j .relr).
LIBEFI_RELOCATE_LDFLAGS := --require-defined=lockshim_relocate_relr
LIBEFI_RELR_LDFLAGS := -z pack-relative-relocs $(LIBEFI_RELOCATE_LDFLAGS)

$(LIBEFI_BUILD_DIR)/libc/%.o: $(LIBEFI_DIR)/libc/%.c $(FLAGS_DIR)/lib-efi
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(LIBC_EFI_CFLAGS) -MMD -MP -c $< -o $@

$(LIBEFI_BUILD_DIR)/cpu_features.o: $(LIBEFI_DIR)/cpu_features.c $(LIBEFI_DIR)/cpu_features.h \
		$(CRYPTO_EFI_LIB) $(FLAGS_DIR)/lib-efi
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(LIBC_EFI_CFLAGS) $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) -MMD -MP -c $< -o $@

$(LIBEFI_BUILD_DIR)/efi_relocate.o $(LIBEFI_BUILD_DIR)/efi_random.o $(LIBEFI_BUILD_DIR)/stack_guard.o: \
		$(LIBEFI_BUILD_DIR)/%.o: $(LIBEFI_DIR)/%.c $(FLAGS_DIR)/lib-efi
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(LIBC_EFI_CFLAGS) -MMD -MP -c $< -o $@

$(LIBC_EFI_LIB): $(LIBC_EFI_OBJS) $(LIBEFI_GLUE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

-include $(LIBC_EFI_OBJS:.o=.d) $(LIBEFI_GLUE_OBJS:.o=.d)

# ------------------------------------------------ host test of the libc subset
# The libc sources compiled for the host (ASan/UBSan), their symbols renamed
# t_*, compared with glibc; the firmware is faked. Prints "N passed, N failed".
LIBC_TEST_DIR := $(LIBEFI_BUILD_DIR)/libc-test
LIBC_TEST_SRCS := $(filter-out %/abort.c %/ossl_rand_pool.c,$(LIBC_EFI_SRCS))
LIBC_TEST_OBJS := $(patsubst $(LIBEFI_DIR)/libc/%.c,$(LIBC_TEST_DIR)/%.o,$(LIBC_TEST_SRCS))
LIBC_TEST_CFLAGS := -O2 -g -Wall -Wextra -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -DGNU_EFI_USE_MS_ABI $(GNUEFI_INCLUDES)

.PHONY: libefi-libc-test libefi-relocate-test libefi-cpu-test
libefi-libc-test: $(LIBC_TEST_DIR)/libc-test
	$(LIBC_TEST_DIR)/libc-test

$(LIBC_TEST_DIR)/%.o: $(LIBEFI_DIR)/libc/%.c $(wildcard $(LIBEFI_DIR)/libc/*.h)
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(LIBC_TEST_CFLAGS) -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns -c $< -o $@

# Every symbol the objects define gets the t_ prefix, in all of them.
$(LIBC_TEST_DIR)/libc-t.a: $(LIBC_TEST_OBJS)
	nm --defined-only -g $^ | awk 'NF == 3 { print $$3, "t_" $$3 }' | sort -u >$@.syms
	@rm -f $@ $@.tmp.a
	$(AR) rcs $@.tmp.a $^
	objcopy --redefine-syms=$@.syms $@.tmp.a $@
	@rm -f $@.tmp.a

$(LIBC_TEST_DIR)/libc-test: $(LIBEFI_DIR)/libc-test.c $(LIBC_TEST_DIR)/libc-t.a
	$(CC) $(LIBC_TEST_CFLAGS) -Wno-stringop-truncation $^ -o $@

# ------------------------------------------- host test of the relocator
# crypto's linkcheck linked a second time without -z pack-relative-relocs
# (DT_RELA, as gnu-efi links); relocate-test.c relocates that one as
# gnu-efi's _relocate does and the DT_RELR one with efi_relocate.c, and
# compares.
RELOCATE_TEST_DIR := $(LIBEFI_BUILD_DIR)/relocate-test

libefi-relocate-test: $(RELOCATE_TEST_DIR)/relocate-test $(RELOCATE_TEST_DIR)/linkcheck-rela.so \
		$(CRYPTO_BUILD_DIR)/linkcheck.so
	$< $(RELOCATE_TEST_DIR)/linkcheck-rela.so $(CRYPTO_BUILD_DIR)/linkcheck.so

$(RELOCATE_TEST_DIR)/linkcheck-rela.so: $(CRYPTO_BUILD_DIR)/linkcheck.o $(CRYPTO_EFI_LIB) \
		$(LIBC_EFI_LIB) $(EFI_LDS)
	@mkdir -p $(@D)
	$(LD) $(filter-out $(LIBEFI_RELR_LDFLAGS),$(CRYPTO_EFI_LDFLAGS)) \
	    $(LIBEFI_RELOCATE_LDFLAGS) $(GNUEFI_LIBDIR)/crt0-efi-x86_64.o $< $(CRYPTO_EFI_LIBS) \
	    -lefi -lgnuefi -o $@

$(RELOCATE_TEST_DIR)/relocate-test: $(LIBEFI_DIR)/relocate-test.c $(LIBEFI_DIR)/efi_relocate.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=all \
	    $(GNUEFI_INCLUDES) $^ -o $@

# ------------------------------------------ host test of the XCR0 masking
CPU_TEST := $(LIBEFI_BUILD_DIR)/cpu-features-test/cpu-features-test

libefi-cpu-test: $(CPU_TEST)
	$(CPU_TEST)

$(CPU_TEST): $(LIBEFI_DIR)/cpu-features-test.c $(LIBEFI_DIR)/cpu_features.c \
		$(LIBEFI_DIR)/cpu_features.h $(CRYPTO_EFI_LIB)
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=all \
	    $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) $(filter %.c,$^) -o $@
