# lockshim: a UEFI Secure Boot first-stage loader.
#
#   make                 build/lockshimx64.efi, build/lockshim (host CLI), unit tests
#   make check           every test (unit and QEMU), closing with "N passed, N failed"
#   make demo            boot firmware -> lockshim -> kernel in QEMU, console visible
#   make fuzz            run each libFuzzer target for FUZZ_SECONDS (60)
#   make bench           figures: throughput, boot overhead and sizes beside
#                        rhboot/shim 16.1 (build/bench.json); never a test
#   make VENDOR_CERT=f   embed f (DER) as the vendor certificate instead of the test one
#
# Where each artifact comes from:
#   build/pki/            tests/pki.sh                  (test keys; never committed)
#   build/crypto/         lib/crypto/crypto.mk          (OpenSSL for UEFI, cached)
#   build/efi/*.o         src/*.c compiled for UEFI     (CORE_SRCS + EFI_SRCS)
#   build/host/*.o        src/*.c compiled for the host (CORE_SRCS, system libcrypto)
#   build/lockshimx64.efi build/efi/*.o + crypto, objcopy to PE32+
#   build/lockshim        build/host/*.o + src/cli.c
#   build/mmx64.efi       the MOK manager: src/mok_manager.c + the core
#   kernel (cache)        kernel/build.sh: linux-source-6.12 + kernel/patches
#   build/tests/          tests/unit/*.c with ASan/UBSan

BUILD     ?= build
CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/lockshim
VERSION   := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# The verification core: plain C, no firmware calls, built for both platforms.
CORE_SRCS := src/pe.c src/authenticode.c src/signature_list.c src/verify.c src/load_options.c \
             src/lockdown_table.c src/password_crypt.c src/mok_request.c src/mok_list.c \
             src/sbat.c src/sbat_level.c

# Loader-only sources: the thin firmware shell around the core.
EFI_SRCS  := src/efi_main.c src/efi_file.c src/efi_vars.c src/efi_policy.c \
             src/efi_security_override.c src/efi_initrd.c src/efi_handoff.c src/efi_mok.c \
             src/efi_console.c src/efi_sbat.c
EFI_ASM   := src/vendor_certs.S src/sbat_data.S
# The MOK manager: its own entry point, the same core and firmware helpers.
MM_SRCS   := src/mok_manager.c src/efi_console.c src/efi_vars.c src/efi_file.c

# Embedded vendor certificate: the test one unless the builder names theirs;
# embedded vendor dbx (an EFI signature list): empty unless named.
TEST_VENDOR_CERT := $(BUILD)/pki/vendor.der
VENDOR_CERT ?= $(TEST_VENDOR_CERT)
EMPTY_ESL   := $(BUILD)/efi/empty.esl
VENDOR_DBX  ?= $(EMPTY_ESL)
# lockshim's own SBAT components and the revocation levels it applies.
SBAT_CSV             := certs/sbat.csv
SBAT_LEVEL_AUTOMATIC := certs/sbat-level-automatic.csv
SBAT_LEVEL_LATEST    := certs/sbat-level-latest.csv

HOST_CC      ?= cc
HOST_CFLAGS  := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Isrc -Iinclude -DOPENSSL_NO_DEPRECATED
SANITIZE     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
HOST_LIBS    := -lcrypto

.PHONY: all check demo bootstrap clean
all: $(BUILD)/lockshimx64.efi $(BUILD)/mmx64.efi $(BUILD)/lockshim $(BUILD)/lockshim-san unit-tests

# ---- UEFI: lockshimx64.efi ---------------------------------------------------
EFI_INC    := /usr/include/efi
EFI_LIBDIR := /usr/lib
EFI_CFLAGS := -std=gnu11 -O2 -Wall -Wextra -Werror -fpic -fshort-wchar -mno-red-zone \
              -ffreestanding -fno-stack-protector -fno-strict-aliasing -fvisibility=hidden \
              -ffunction-sections -fdata-sections -DGNU_EFI_USE_MS_ABI -maccumulate-outgoing-args \
              -I$(EFI_INC) -I$(EFI_INC)/x86_64 -I$(EFI_INC)/protocol -Isrc -Iinclude
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
               --gc-sections --exclude-libs ALL
# gnu-efi's linker script collects only .bss, not the .bss.* that
# -fdata-sections makes, and has no place for .sbat and .sbatlevel: fix
# both in a copy.
EFI_LDS := $(BUILD)/efi/elf_x86_64_efi.lds
EFI_LDS_RULE_DEFINED := 1
EFI_PE_SECTIONS := -j .text -j .sdata -j .data -j .dynamic -j .rodata -j .rel -j .rela \
                   -j '.rel.*' -j '.rela.*' -j .relr -j .reloc -j .sbat -j .sbatlevel

-include lib/crypto/crypto.mk

EFI_OBJS := $(CORE_SRCS:src/%.c=$(BUILD)/efi/%.o) $(EFI_SRCS:src/%.c=$(BUILD)/efi/%.o) \
            $(EFI_ASM:src/%.S=$(BUILD)/efi/%.o)

# .relr: the packed relocations (DT_RELR, CRYPTO_EFI_RELR_LDFLAGS), an
# output section of their own (ld derives the dynamic tags from it).
$(EFI_LDS): $(EFI_LIBDIR)/elf_x86_64_efi.lds Makefile
	@mkdir -p $(@D)
	sed -e 's/\*(\.bss)/*(.bss .bss.*)/' \
	    -e 's/\*(\.reloc)/KEEP(*(.reloc))/' \
	    -e '/^  \.dynsym /i\  .relr : { *(.relr.dyn) }\n  . = ALIGN(4096);' \
	    -e '/^  _data_size = /a\  . = ALIGN(4096);\n  .sbat : { _sbat = .; KEEP(*(.sbat)) _esbat = .; }\n  . = ALIGN(4096);\n  .sbatlevel : { KEEP(*(.sbatlevel)) }' \
	    $< > $@

# EFI_TEST_CFLAGS: test builds only, in their own BUILD directory, e.g.
# -DLOCKSHIM_TEST_CORRUPT_TABLE (a lockdown table with a bad digest).
EFI_TEST_CFLAGS ?=

$(BUILD)/efi/%.o: src/%.c $(CRYPTO_EFI_LIB)
	@mkdir -p $(@D)
	$(CC) $(EFI_CFLAGS) $(EFI_TEST_CFLAGS) $(CRYPTO_EFI_CFLAGS) $(CRYPTO_EFI_INCLUDES) \
	    -DLOCKSHIM_VERSION='"$(VERSION)"' -MMD -c $< -o $@

# efi_main.c prints the version: rebuild it when the version changes.
$(BUILD)/efi/version.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(BUILD)/efi/efi_main.o $(BUILD)/efi/mok_manager.o: $(BUILD)/efi/version.stamp

# Rebuilt when the files or the VENDOR_CERT / VENDOR_DBX settings change.
$(BUILD)/efi/vendor_certs.path: FORCE
	@mkdir -p $(@D)
	@echo '$(abspath $(VENDOR_CERT)) $(abspath $(VENDOR_DBX))' | cmp -s - $@ || \
	    echo '$(abspath $(VENDOR_CERT)) $(abspath $(VENDOR_DBX))' > $@

$(EMPTY_ESL):
	@mkdir -p $(@D)
	: > $@

$(BUILD)/efi/vendor_certs.o: src/vendor_certs.S $(VENDOR_CERT) $(VENDOR_DBX) $(BUILD)/efi/vendor_certs.path
	@openssl x509 -inform DER -in $(VENDOR_CERT) -noout 2>/dev/null || \
	    { echo "VENDOR_CERT=$(VENDOR_CERT) is not a DER certificate" >&2; exit 1; }
	$(CC) -c -DVENDOR_CERT_FILE='"$(abspath $(VENDOR_CERT))"' \
	    -DVENDOR_DBX_FILE='"$(abspath $(VENDOR_DBX))"' $< -o $@

SBAT_ASFLAGS := -DSBAT_CSV_FILE='"$(abspath $(SBAT_CSV))"' \
                -DSBAT_LEVEL_AUTOMATIC_FILE='"$(abspath $(SBAT_LEVEL_AUTOMATIC))"' \
                -DSBAT_LEVEL_LATEST_FILE='"$(abspath $(SBAT_LEVEL_LATEST))"'
$(BUILD)/efi/sbat_data.o $(BUILD)/host/sbat_data.o: src/sbat_data.S $(SBAT_CSV) $(SBAT_LEVEL_AUTOMATIC) $(SBAT_LEVEL_LATEST)
	@mkdir -p $(@D)
	$(CC) -c $(SBAT_ASFLAGS) $< -o $@

$(BUILD)/lockshimx64.so: $(EFI_OBJS) $(EFI_LDS) $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB)
	$(LD) $(EFI_LDFLAGS) $(CRYPTO_EFI_RELR_LDFLAGS) -T $(EFI_LDS) $(EFI_LIBDIR)/crt0-efi-x86_64.o \
	    $(EFI_OBJS) $(CRYPTO_EFI_LIBS) -L$(EFI_LIBDIR) -lefi -lgnuefi \
	    $(shell $(CC) -print-libgcc-file-name) -o $@
	@$(CRYPTO_DIR)/check-pe-sections.sh $@ $(EFI_PE_SECTIONS) && \
	    $(CRYPTO_DIR)/check-efi-relocs.sh $@ || { rm -f $@; exit 1; }

MM_OBJS := $(CORE_SRCS:src/%.c=$(BUILD)/efi/%.o) $(MM_SRCS:src/%.c=$(BUILD)/efi/%.o) \
           $(BUILD)/efi/sbat_data.o

$(BUILD)/mmx64.so: $(MM_OBJS) $(EFI_LDS) $(CRYPTO_EFI_LIB) $(LIBC_EFI_LIB)
	$(LD) $(EFI_LDFLAGS) $(CRYPTO_EFI_RELR_LDFLAGS) -T $(EFI_LDS) $(EFI_LIBDIR)/crt0-efi-x86_64.o \
	    $(MM_OBJS) $(CRYPTO_EFI_LIBS) -L$(EFI_LIBDIR) -lefi -lgnuefi \
	    $(shell $(CC) -print-libgcc-file-name) -o $@
	@$(CRYPTO_DIR)/check-pe-sections.sh $@ $(EFI_PE_SECTIONS) && \
	    $(CRYPTO_DIR)/check-efi-relocs.sh $@ || { rm -f $@; exit 1; }

# --strip-all: no COFF symbol table in the image (the firmware never reads
# it; it was 190 KB of lockshimx64.efi); the .so keeps the symbols for gdb.
$(BUILD)/%.efi: $(BUILD)/%.so
	objcopy $(EFI_PE_SECTIONS) --strip-all --target efi-app-x86_64 --subsystem=10 $< $@

$(TEST_VENDOR_CERT): $(BUILD)/pki/.complete

# ---- host: CLI and unit tests ----------------------------------------------
HOST_OBJS := $(CORE_SRCS:src/%.c=$(BUILD)/host/%.o)
SAN_OBJS  := $(CORE_SRCS:src/%.c=$(BUILD)/host-san/%.o)

$(BUILD)/host/%.o: src/%.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -MMD -c $< -o $@

$(BUILD)/host-san/%.o: src/%.c
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SANITIZE) -MMD -c $< -o $@

# The CLI applies the same embedded SBAT level as the loader: sbat_data.S for both.
# pe_add_section.c is a host tool's (add-sbat), not the loader's.
$(BUILD)/lockshim: $(BUILD)/host/cli.o $(HOST_OBJS) $(BUILD)/host/pe_add_section.o $(BUILD)/host/sbat_data.o
	$(HOST_CC) $(HOST_CFLAGS) $^ $(HOST_LIBS) -o $@

# The CLI with ASan/UBSan, for the CLI tests' hostile inputs.
$(BUILD)/lockshim-san: $(BUILD)/host-san/cli.o $(SAN_OBJS) $(BUILD)/host-san/pe_add_section.o \
                       $(BUILD)/host/sbat_data.o
	$(HOST_CC) $(HOST_CFLAGS) $(SANITIZE) $^ $(HOST_LIBS) -o $@

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c)) \
              $(BUILD)/tests/test_libc_efi
.PHONY: unit-tests
unit-tests: $(UNIT_TESTS)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(SAN_OBJS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(SANITIZE) -Itests/unit $< $(SAN_OBJS) $(HOST_LIBS) -o $@

# lib/crypto/libc checked against glibc on the host (crypto.mk builds it).
$(BUILD)/tests/test_libc_efi: $(LIBC_TEST_DIR)/libc-test
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/pki/.complete: tests/pki.sh
	tests/pki.sh $(BUILD)/pki

# ---- the two commands --------------------------------------------------------
bootstrap:
	scripts/bootstrap.sh

# CHECK_STARTED: the wall time in build/check.json covers the builds too.
check: bootstrap
	@mkdir -p $(BUILD) && date +%s > $(BUILD)/.check-started
	$(MAKE) all fuzz-build kernel
	CHECK_STARTED=$$(cat $(BUILD)/.check-started) tests/run.sh

# The companion kernel (bzImage and test modules), cached by its inputs:
# kernel/build.sh, the series in kernel/patches, kernel/lockshim.config; the
# bzImage carries kernel/sbat.csv as .sbat, added by build/lockshim add-sbat.
.PHONY: kernel
kernel: $(BUILD)/lockshim
	kernel/build.sh

demo: bootstrap
	$(MAKE) $(BUILD)/lockshimx64.efi kernel
	tests/qemu/demo.sh

clean:
	rm -rf $(BUILD)

# libFuzzer targets over the core (make fuzz, make fuzz-build): tests/fuzz/.
include tests/fuzz/fuzz.mk

# Host throughput harness for make bench (bench-verify-tools): tests/bench/bench.mk.
include tests/bench/bench.mk

# Benchmarks: not part of make check, and they never fail the build.
.PHONY: bench
bench: all bench-verify-tools
	tests/bench/bench.sh

.PHONY: FORCE
FORCE:

-include $(wildcard $(BUILD)/host/*.d $(BUILD)/host-san/*.d $(BUILD)/efi/*.d)

# Keep intermediate objects (the sanitizer builds of the core).
.SECONDARY:
