# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# OpenSSL libcrypto + C library subset for the x86_64 UEFI build.
# Included by the root Makefile; also usable alone:
#   make -f lib/crypto/crypto.mk crypto crypto-linkcheck
#
# Uses from the includer (fallbacks below): BUILD, CACHE_DIR, CRYPTO_ASM,
# EFI_CFLAGS, EFI_LDS (+ EFI_LDS_RULE_DEFINED if the includer has a rule for
# it), EFI_PE_SECTIONS (objcopy -j list).
#
# CRYPTO_ASM=1 (default): OpenSSL's x86_64 assembly; CRYPTO_ASM=0: portable
# C only (no-asm, as rhboot/shim builds it). Each has its own cache entry.
#
# Defines:
#   CRYPTO_EFI_LIB       $(BUILD)/crypto/libcrypto.a (from the cache)
#   CRYPTO_EFI_INCLUDES  -I for the configured OpenSSL headers and for
#                        lib/crypto's own (cpu_features.h)
#   CRYPTO_EFI_CFLAGS    extra flags for EFI objects including OpenSSL headers
#   LIBC_EFI_LIB         $(BUILD)/crypto/libc-efi.a: lib/crypto/libc/*.c, and
#                        cpu_features.o (crypto_cpu_init) and efi_relocate.o
#                        (_relocate with DT_RELR)
#   CRYPTO_EFI_LIBS      both archives, grouped, in link order
#   CRYPTO_EFI_RELR_LDFLAGS  ld flags every EFI link needs (see below)
#   CRYPTO_EFI_LDFLAGS   ld flags the link check uses (see below)
# Targets: crypto, crypto-linkcheck ($(BUILD)/crypto/linkcheck.efi),
# crypto-libc-test (host test of libc/), crypto-relocate-test (host test of
# efi_relocate.c), crypto-cpu-test (host test of cpu_features.c's XCR0
# masking), crypto-clean.
# Objects that include OpenSSL headers should depend on $(CRYPTO_EFI_LIB)
# (a normal prerequisite: it changes only when the cache entry does).

CRYPTO_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

BUILD ?= build
CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/lockshim
CRYPTO_ASM ?= 1
CRYPTO_JOBS ?= 2

GNUEFI_INCLUDES ?= -I/usr/include/efi -I/usr/include/efi/x86_64
GNUEFI_LIBDIR ?= /usr/lib
GNUEFI_CRT0 ?= $(GNUEFI_LIBDIR)/crt0-efi-x86_64.o
GNUEFI_LDS ?= $(GNUEFI_LIBDIR)/elf_x86_64_efi.lds

EFI_CFLAGS ?= -O2 -fpic -fshort-wchar -mno-red-zone -ffreestanding \
	-fno-stack-protector -fno-strict-aliasing -ffunction-sections \
	-fdata-sections -Wall -Wextra -DGNU_EFI_USE_MS_ABI \
	-maccumulate-outgoing-args

CRYPTO_BUILD_DIR := $(BUILD)/crypto
CRYPTO_EFI_LIB := $(CRYPTO_BUILD_DIR)/libcrypto.a
CRYPTO_EFI_INCDIR := $(CRYPTO_BUILD_DIR)/include
CRYPTO_EFI_INCLUDES := -I$(CRYPTO_EFI_INCDIR) -I$(CRYPTO_DIR)
# OpenSSL's public headers under OPENSSL_SYS_UEFI need the EDK2 type names
# and the bignum word size: the same prelude the library was built with.
CRYPTO_EFI_CFLAGS := -include $(CRYPTO_DIR)/uefi-prelude.h

LIBC_EFI_LIB := $(CRYPTO_BUILD_DIR)/libc-efi.a
LIBC_EFI_SRCS := $(sort $(wildcard $(CRYPTO_DIR)/libc/*.c))
LIBC_EFI_OBJS := $(patsubst $(CRYPTO_DIR)/libc/%.c,$(CRYPTO_BUILD_DIR)/libc/%.o,$(LIBC_EFI_SRCS))
# -fno-builtin and no loop-pattern distribution: keep GCC from compiling the
# string functions into calls to themselves (or to libefi's byte loops).
LIBC_EFI_CFLAGS = $(EFI_CFLAGS) $(GNUEFI_INCLUDES) -ffreestanding -fno-builtin \
	-fno-tree-loop-distribute-patterns
# The rest of libc-efi.a: lockshim's glue around libcrypto in the loader.
# cpu_features.o reads the configured headers (OPENSSL_NO_ASM), so it is
# rebuilt when CRYPTO_ASM selects another cache entry.
CRYPTO_GLUE_OBJS := $(CRYPTO_BUILD_DIR)/cpu_features.o $(CRYPTO_BUILD_DIR)/efi_relocate.o

# libcrypto and libc-efi refer to each other (RAND seeding hooks).
CRYPTO_EFI_LIBS = --start-group $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB) --end-group

# gnu-efi's linker script with the .bss.* and .reloc fixes. The root Makefile
# defines EFI_LDS and its rule (and sets EFI_LDS_RULE_DEFINED) before
# including this file; the fallback, for standalone use, lives under
# $(BUILD)/crypto so it can never stand in for the root's script.
EFI_LDS ?= $(CRYPTO_BUILD_DIR)/elf_x86_64_efi.lds

# Packed relative relocations: libcrypto's pointer tables (the OBJ table,
# the providers' dispatch tables) need about 6,000 R_X86_64_RELATIVE
# relocations, 24 bytes each as DT_RELA (about 140 KB of lockshimx64.efi);
# as DT_RELR they take about 2 KB. gnu-efi's _relocate knows DT_RELA only: efi_relocate.o (in libc-efi.a) replaces it, and requiring its marker
# symbol both pulls it in ahead of -lgnuefi and turns any other library order
# into a link error (two _relocate) instead of an image that faults at start.
# The linker script must place .relr.dyn in its own output section (.relr)
# and objcopy must copy it (-j .relr).
CRYPTO_EFI_RELOCATE_LDFLAGS := --require-defined=lockshim_relocate_relr
CRYPTO_EFI_RELR_LDFLAGS := -z pack-relative-relocs $(CRYPTO_EFI_RELOCATE_LDFLAGS)

# --exclude-libs ALL: archive symbols are not exported, so --gc-sections can
# drop what the program does not reach (otherwise every exported symbol of a
# -shared link is a root).
CRYPTO_EFI_LDFLAGS = -nostdlib -znocombreloc -T $(EFI_LDS) -shared -Bsymbolic \
	--no-undefined --gc-sections --exclude-libs ALL $(CRYPTO_EFI_RELR_LDFLAGS) \
	-L$(GNUEFI_LIBDIR)

# Sections objcopy copies into the PE image (the root Makefile's list wins).
EFI_PE_SECTIONS ?= -j .text -j .sdata -j .data -j .dynamic -j .dynsym \
	-j .rel -j .rela -j '.rel.*' -j '.rela.*' -j .relr -j .reloc

.PHONY: crypto crypto-linkcheck crypto-clean crypto-always

crypto: $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB)

# build.sh always runs (about 50 ms when warm: it hashes its inputs and finds
# the cache entry); it rewrites libcrypto.a only when the entry changed, so
# dependents relink only then.
$(CRYPTO_EFI_LIB): crypto-always
	+@BUILD='$(BUILD)' CACHE_DIR='$(CACHE_DIR)' CRYPTO_ASM='$(CRYPTO_ASM)' \
		CRYPTO_JOBS='$(CRYPTO_JOBS)' $(CRYPTO_DIR)/build.sh

crypto-always:

$(CRYPTO_BUILD_DIR)/libc/%.o: $(CRYPTO_DIR)/libc/%.c
	@mkdir -p $(@D)
	$(CC) $(LIBC_EFI_CFLAGS) -MMD -MP -c $< -o $@

$(CRYPTO_BUILD_DIR)/cpu_features.o: $(CRYPTO_DIR)/cpu_features.c $(CRYPTO_DIR)/cpu_features.h \
		$(CRYPTO_EFI_LIB)
	$(CC) $(LIBC_EFI_CFLAGS) $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) -MMD -MP -c $< -o $@

$(CRYPTO_BUILD_DIR)/efi_relocate.o: $(CRYPTO_DIR)/efi_relocate.c
	@mkdir -p $(@D)
	$(CC) $(LIBC_EFI_CFLAGS) -MMD -MP -c $< -o $@

$(LIBC_EFI_LIB): $(LIBC_EFI_OBJS) $(CRYPTO_GLUE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

-include $(LIBC_EFI_OBJS:.o=.d) $(CRYPTO_GLUE_OBJS:.o=.d)

ifndef EFI_LDS_RULE_DEFINED
EFI_LDS_RULE_DEFINED := 1
# gnu-efi 3.0.15's script gathers *(.bss) but not .bss.* (-fdata-sections
# puts zeroed data there; left out, the image faults at start), lets
# --gc-sections drop crt0's .reloc, and has no place for .relr.dyn (DT_RELR
# must be an output section of its own: ld derives the dynamic tags from it).
$(EFI_LDS): $(GNUEFI_LDS) $(CRYPTO_DIR)/crypto.mk
	@mkdir -p $(@D)
	sed -e 's/^\([[:space:]]*\)\*(\.bss)$$/\1*(.bss .bss.*)/' \
	    -e 's/^\([[:space:]]*\)\*(\.reloc)$$/\1KEEP (*(.reloc))/' \
	    -e '/^[[:space:]]*\.dynsym[[:space:]]*:/i\  .relr : { *(.relr.dyn) }\n  . = ALIGN(4096);' \
	    $< >$@.tmp
	grep -q '(\.bss \.bss\.\*)' $@.tmp && grep -q 'KEEP (\*(\.reloc))' $@.tmp && \
	    grep -q '\*(\.relr\.dyn)' $@.tmp
	mv $@.tmp $@
endif

# ---------------------------------------------------------------- link check
CRYPTO_LINKCHECK := $(CRYPTO_BUILD_DIR)/linkcheck.efi

crypto-linkcheck: $(CRYPTO_LINKCHECK)

$(CRYPTO_BUILD_DIR)/linkcheck.o: $(CRYPTO_DIR)/linkcheck.c $(CRYPTO_DIR)/uefi-prelude.h $(CRYPTO_EFI_LIB)
	$(CC) $(EFI_CFLAGS) $(GNUEFI_INCLUDES) $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) -c $< -o $@

$(CRYPTO_BUILD_DIR)/linkcheck.so: $(CRYPTO_BUILD_DIR)/linkcheck.o $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB) $(EFI_LDS)
	$(LD) $(CRYPTO_EFI_LDFLAGS) $(GNUEFI_CRT0) $< $(CRYPTO_EFI_LIBS) -lefi -lgnuefi -o $@
	@$(CRYPTO_DIR)/check-pe-sections.sh $@ $(EFI_PE_SECTIONS) || { rm -f $@; exit 1; }
	@$(CRYPTO_DIR)/check-efi-relocs.sh $@ || { rm -f $@; exit 1; }

$(CRYPTO_LINKCHECK): $(CRYPTO_BUILD_DIR)/linkcheck.so
	objcopy $(EFI_PE_SECTIONS) --strip-all --target efi-app-x86_64 --subsystem=10 $< $@
	@echo "linkcheck: $@ ($$(stat -c %s $@) bytes)"

# ------------------------------------------------ host test of the libc subset
# The libc sources compiled for the host (ASan/UBSan), their symbols renamed
# t_*, compared with glibc; the firmware is faked. Prints "N passed, N failed".
LIBC_TEST_DIR := $(CRYPTO_BUILD_DIR)/libc-test
LIBC_TEST_SRCS := $(filter-out %/abort.c %/ossl_rand_pool.c,$(LIBC_EFI_SRCS))
LIBC_TEST_OBJS := $(patsubst $(CRYPTO_DIR)/libc/%.c,$(LIBC_TEST_DIR)/%.o,$(LIBC_TEST_SRCS))
LIBC_TEST_CFLAGS := -O2 -g -Wall -Wextra -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -DGNU_EFI_USE_MS_ABI $(GNUEFI_INCLUDES)

.PHONY: crypto-libc-test
crypto-libc-test: $(LIBC_TEST_DIR)/libc-test
	$(LIBC_TEST_DIR)/libc-test

$(LIBC_TEST_DIR)/%.o: $(CRYPTO_DIR)/libc/%.c $(wildcard $(CRYPTO_DIR)/libc/*.h)
	@mkdir -p $(@D)
	$(CC) $(LIBC_TEST_CFLAGS) -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns -c $< -o $@

# Every symbol the objects define gets the t_ prefix, in all of them.
$(LIBC_TEST_DIR)/libc-t.a: $(LIBC_TEST_OBJS)
	nm --defined-only -g $^ | awk 'NF == 3 { print $$3, "t_" $$3 }' | sort -u >$@.syms
	@rm -f $@ $@.tmp.a
	$(AR) rcs $@.tmp.a $^
	objcopy --redefine-syms=$@.syms $@.tmp.a $@
	@rm -f $@.tmp.a

$(LIBC_TEST_DIR)/libc-test: $(CRYPTO_DIR)/libc-test.c $(LIBC_TEST_DIR)/libc-t.a
	$(CC) $(LIBC_TEST_CFLAGS) -Wno-stringop-truncation $^ -o $@

# ------------------------------------------- host test of the relocator
# linkcheck linked a second time without -z pack-relative-relocs (DT_RELA,
# as gnu-efi links); relocate-test.c relocates that one as gnu-efi's
# _relocate does and the DT_RELR one with efi_relocate.c, and compares.
RELOCATE_TEST_DIR := $(CRYPTO_BUILD_DIR)/relocate-test

.PHONY: crypto-relocate-test
crypto-relocate-test: $(RELOCATE_TEST_DIR)/relocate-test $(RELOCATE_TEST_DIR)/linkcheck-rela.so \
		$(CRYPTO_BUILD_DIR)/linkcheck.so
	$< $(RELOCATE_TEST_DIR)/linkcheck-rela.so $(CRYPTO_BUILD_DIR)/linkcheck.so

$(RELOCATE_TEST_DIR)/linkcheck-rela.so: $(CRYPTO_BUILD_DIR)/linkcheck.o $(CRYPTO_EFI_LIB) \
		$(LIBC_EFI_LIB) $(EFI_LDS)
	@mkdir -p $(@D)
	$(LD) $(filter-out $(CRYPTO_EFI_RELR_LDFLAGS),$(CRYPTO_EFI_LDFLAGS)) \
	    $(CRYPTO_EFI_RELOCATE_LDFLAGS) $(GNUEFI_CRT0) $< $(CRYPTO_EFI_LIBS) -lefi -lgnuefi -o $@

$(RELOCATE_TEST_DIR)/relocate-test: $(CRYPTO_DIR)/relocate-test.c $(CRYPTO_DIR)/efi_relocate.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=all \
	    $(GNUEFI_INCLUDES) $^ -o $@

# ------------------------------------------ host test of the XCR0 masking
CPU_TEST := $(CRYPTO_BUILD_DIR)/cpu-features-test/cpu-features-test

.PHONY: crypto-cpu-test
crypto-cpu-test: $(CPU_TEST)
	$(CPU_TEST)

$(CPU_TEST): $(CRYPTO_DIR)/cpu-features-test.c $(CRYPTO_DIR)/cpu_features.c \
		$(CRYPTO_DIR)/cpu_features.h $(CRYPTO_EFI_LIB)
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=all \
	    $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) $(filter %.c,$^) -o $@

crypto-clean:
	rm -rf $(CRYPTO_BUILD_DIR)
