# SPDX-License-Identifier: BSD-2-Clause-Patent
#
# OpenSSL libcrypto for the x86_64 UEFI build. Included by the root
# Makefile, before lib/efi/efi.mk (the C library subset, relocator and CPU
# detection that every EFI program links with).
#
# Uses from the includer: BUILD, CACHE_DIR, EFI_CFLAGS, EFI_LDS,
# EFI_PE_SECTIONS, GNUEFI_INCLUDES, GNUEFI_LIBDIR, and from lib/efi/efi.mk
# LIBC_EFI_LIB, LIBEFI_DIR, LIBEFI_RELR_LDFLAGS.
#
# CRYPTO_ASM=1 (default): OpenSSL's x86_64 assembly; CRYPTO_ASM=0: portable
# C only (no-asm, as rhboot/shim builds it). Each has its own cache entry.
#
# Defines:
#   CRYPTO_EFI_LIB       $(BUILD)/crypto/libcrypto.a (from the cache)
#   CRYPTO_EFI_INCLUDES  -I for the configured OpenSSL headers
#   CRYPTO_EFI_CFLAGS    extra flags for EFI objects including OpenSSL headers
#   CRYPTO_EFI_LIBS      libcrypto and lib/efi's libc-efi.a, grouped, in
#                        link order
#   CRYPTO_EFI_LDFLAGS   ld flags of the link check
# Targets: crypto, crypto-linkcheck ($(BUILD)/crypto/linkcheck.efi),
# crypto-clean.
# Objects that include OpenSSL headers should depend on $(CRYPTO_EFI_LIB)
# (a normal prerequisite: it changes only when the cache entry does).

CRYPTO_DIR := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))

CRYPTO_ASM ?= 1
CRYPTO_JOBS ?= 2

CRYPTO_BUILD_DIR := $(BUILD)/crypto
CRYPTO_EFI_LIB := $(CRYPTO_BUILD_DIR)/libcrypto.a
CRYPTO_EFI_INCDIR := $(CRYPTO_BUILD_DIR)/include
CRYPTO_EFI_INCLUDES := -I$(CRYPTO_EFI_INCDIR)
# OpenSSL's public headers under OPENSSL_SYS_UEFI need the EDK2 type names
# and the bignum word size: the same prelude the library was built with.
CRYPTO_EFI_CFLAGS := -include $(CRYPTO_DIR)/uefi-prelude.h

# libcrypto and libc-efi refer to each other (RAND seeding hooks).
CRYPTO_EFI_LIBS = --start-group $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB) --end-group

# --exclude-libs ALL: archive symbols are not exported, so --gc-sections can
# drop what the program does not reach (otherwise every exported symbol of a
# -shared link is a root).
CRYPTO_EFI_LDFLAGS = -nostdlib -znocombreloc -T $(EFI_LDS) -shared -Bsymbolic \
	--no-undefined --gc-sections --exclude-libs ALL $(LIBEFI_RELR_LDFLAGS) \
	-L$(GNUEFI_LIBDIR)

.PHONY: crypto crypto-linkcheck crypto-clean crypto-always

crypto: $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB)

# build.sh always runs (about 50 ms when warm: it hashes its inputs and finds
# the cache entry); it rewrites libcrypto.a only when the entry changed, so
# dependents relink only then.
$(CRYPTO_EFI_LIB): crypto-always
	+@BUILD='$(BUILD)' CACHE_DIR='$(CACHE_DIR)' CRYPTO_ASM='$(CRYPTO_ASM)' \
		CRYPTO_JOBS='$(CRYPTO_JOBS)' $(CRYPTO_DIR)/build.sh

crypto-always:

# ---------------------------------------------------------------- link check
CRYPTO_LINKCHECK := $(CRYPTO_BUILD_DIR)/linkcheck.efi

crypto-linkcheck: $(CRYPTO_LINKCHECK)

$(CRYPTO_BUILD_DIR)/linkcheck.o: $(CRYPTO_DIR)/linkcheck.c $(CRYPTO_DIR)/uefi-prelude.h $(CRYPTO_EFI_LIB)
	$(CC) $(EFI_CFLAGS) $(GNUEFI_INCLUDES) $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) $(LIBEFI_INCLUDES) -c $< -o $@

$(CRYPTO_BUILD_DIR)/linkcheck.so: $(CRYPTO_BUILD_DIR)/linkcheck.o $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB) $(EFI_LDS)
	$(LD) $(CRYPTO_EFI_LDFLAGS) $(GNUEFI_LIBDIR)/crt0-efi-x86_64.o $< $(CRYPTO_EFI_LIBS) -lefi -lgnuefi -o $@
	@$(LIBEFI_DIR)/check-pe-sections.sh $@ $(EFI_PE_SECTIONS) || { rm -f $@; exit 1; }
	@$(LIBEFI_DIR)/check-efi-relocs.sh $@ || { rm -f $@; exit 1; }

$(CRYPTO_LINKCHECK): $(CRYPTO_BUILD_DIR)/linkcheck.so
	objcopy $(EFI_PE_SECTIONS) --strip-all --target efi-app-x86_64 --subsystem=10 $< $@
	@echo "linkcheck: $@ ($$(stat -c %s $@) bytes)"

crypto-clean:
	rm -rf $(CRYPTO_BUILD_DIR)
