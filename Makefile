# lockshim: a UEFI Secure Boot first-stage loader.
#
#   make                 build/lockshimx64.efi, build/lockshim (host CLI), unit tests
#   make check           every test (unit and QEMU), closing with "N passed, N failed"
#   make demo            boot firmware -> lockshim -> kernel in QEMU, console visible
#   make fuzz            run each libFuzzer target for FUZZ_SECONDS (60)
#   make format          clang-format src/ and include/ (.clang-format)
#   make faults          every injected fault of a normal and an enrollment
#                        boot, and power cuts during a MokList write
#                        (tests/qemu/faults.sh; long: not part of make check,
#                        which runs a sample of it, tests/qemu/test_faults.sh)
#   make firmware-matrix OVMF's own verdict on images signed by an old CA, a new
#                        one, both, nested, against db/dbx holding either, beside
#                        `lockshim verify --as-firmware` (tests/qemu/firmware-matrix-run;
#                        a sample is in make check)
#   make signed-variants SIGN_CAS="old:K:C new:K:C"  the first stage signed per CA
#                        and combined, for lockshim install to choose from
#   make bench           figures: throughput, boot overhead and sizes beside
#                        rhboot/shim 16.1 (build/bench.json); never a test
#   make VENDOR_CERT=f   embed f (DER) as the vendor certificate instead of the test one
#   make variant VARIANT=dir VARIANT_CERT=f   the same, linked into dir from
#                        build/'s objects (two compiled again; see "variants")
#   make WERROR=1        warnings are errors (make check and CI; off by default,
#                        so a distribution's newer compiler still builds)
#   make DEFAULT_LOADER=grubx64.efi   the image started when no load option names one
#   make install DESTDIR=d PREFIX=/usr   the CLI, pages, completion, EFI images, hooks
#   make package         the Debian packages from a clean clone, then lintian
#                        (tests/package.sh; minutes: not part of make check)
#   make distro-test     those packages installed with dpkg in a Debian 12 guest
#                        booted through lockshim (tests/distro/; minutes, three
#                        QEMU boots: not part of make check; docs/distro-test.md)
#
# Where each artifact comes from:
#   build/pki/             tests/pki.sh                 (test keys; never committed)
#   build/crypto/          lib/crypto/crypto.mk         (OpenSSL for UEFI, cached)
#   build/lib-efi/         lib/efi/efi.mk               (libc subset, relocator, CPU detection)
#   build/efi/<dir>/*.o    src/{core,efi,mm}/*.c compiled for UEFI
#   build/host/<dir>/*.o   src/{core,cli}/*.c compiled for the host (system libcrypto)
#   build/flags/           the compile command of each kind of object (efi-core,
#                          efi-shell, efi-mm, efi-asm, lib-efi, host, host-san),
#                          rewritten only when it changes: then they rebuild
#   build/lockshimx64.efi  src/core + src/efi + crypto, objcopy to PE32+;
#                          it carries the Authenticode digest of build/mmx64.efi
#                          (build/efi/mmx64.sha256), the only MOK manager it starts
#   build/mmx64.efi        the MOK manager: src/core + src/mm + the console,
#                          variable and file helpers of src/efi
#                          (either link fails, the image removed, if it
#                          carries the fault code: scripts/check-no-fault-code.sh)
#   build/lockshim         the host CLI: src/core + src/cli
#   build/faults/{lockshimx64,mmx64}.efi  the same two programs built with
#                          -DLOCKSHIM_FAULT_INJECTION (src/efi/efi_fault.c) for
#                          make faults and its sample, by make faults-build
#                          (BUILD=build/faults EFI_TEST_CFLAGS=...); never
#                          released: test-only flags stop make with BUILD=build
#   kernel (cache)         kernel/build.sh: linux-source-6.12 + kernel/patches
#   build/tests/           tests/unit/*.c with ASan/UBSan
#   man/*.[17]             the manual pages: plain roff, installed as written
#   completions/lockshim   bash completion, as written
#   hooks/                 the update hooks (lockshim-hooks(7)), as written
#   debian/                the Debian source package: debian/rules calls
#                          make install; make package builds and lintians it

BUILD     ?= build
# The fault build (make faults-build): a BUILD directory of its own.
FAULTS_BUILD := $(BUILD)/faults
CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/lockshim
# ccache (scripts/bootstrap.sh installs it) in front of every C compile, its
# cache beside the others: a clean clone, as CI's is, gets what was compiled
# before from it. Not the .S files: what they .incbin (certificates, SBAT
# data, the MOK manager's digest) is not part of what ccache hashes.
# CCACHE= turns it off.
CCACHE ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_DIR ?= $(CACHE_DIR)/ccache
# The release: git describe in a clone, else the VERSION file (git archive
# fills it through export-subst), so every build says which release it is.
VERSION   := $(shell scripts/version.sh)

# The layers (README, "Layout"): src/core decides and never calls the
# firmware; src/efi is lockshim's firmware shell; src/mm the MOK manager;
# src/cli the host CLI.
CORE_SRCS := $(sort $(wildcard src/core/*.c))
CORE_ASM  := src/core/sbat_data.S
EFI_SRCS  := $(sort $(wildcard src/efi/*.c))
EFI_ASM   := src/efi/vendor_certs.S src/efi/mok_manager_digest.S
# The MOK manager: its own files, the core and the firmware helpers it shares.
MM_SRCS   := $(sort $(wildcard src/mm/*.c)) src/efi/efi_console.c src/efi/efi_vars.c \
             src/efi/efi_file.c src/efi/efi_log.c src/efi/efi_guid.c src/efi/efi_fault.c
CLI_SRCS  := $(sort $(wildcard src/cli/*.c))

# Embedded vendor certificate: the test one unless the builder names theirs;
# embedded vendor dbx (an EFI signature list): empty unless named.
TEST_VENDOR_CERT := $(BUILD)/pki/vendor.der
VENDOR_CERT ?= $(TEST_VENDOR_CERT)
EMPTY_ESL   := $(BUILD)/efi/empty.esl
VENDOR_DBX  ?= $(EMPTY_ESL)
# The image lockshim starts when its load options name none (shim's setting
# of the same name): beside lockshim, or absolute from the root of its
# device (/EFI/debian/grubx64.efi; '/' separators).
DEFAULT_LOADER ?= vmlinuz.efi
ifneq ($(findstring \,$(DEFAULT_LOADER))$(findstring ",$(DEFAULT_LOADER))$(findstring ',$(DEFAULT_LOADER)),)
$(error DEFAULT_LOADER: write '/' for '\', and no quotes)
endif
# lockshim's own SBAT components and the revocation levels it applies.
SBAT_CSV             := certs/sbat.csv
SBAT_LEVEL_AUTOMATIC := certs/sbat-level-automatic.csv
SBAT_LEVEL_LATEST    := certs/sbat-level-latest.csv

# The core sees only itself, the table ABI, libc and OpenSSL: a firmware
# include in it fails to build (tests/cli/test_layout.sh checks it too).
CORE_INCLUDES := -Isrc/core -Iinclude
# WERROR=1: warnings are errors. make check (and so CI) sets it; off by
# default, so a distribution's newer compiler, with warnings this tree has
# not met, still builds it.
WERROR ?= 0
COMMON_CFLAGS := -std=gnu11 -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) -DOPENSSL_NO_DEPRECATED

HOST_CC      ?= cc
HOST_CFLAGS  := $(COMMON_CFLAGS) -O2 -g $(CORE_INCLUDES)
SANITIZE     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
HOST_LIBS    := -lcrypto

# Flags files: each kind of object depends on a file in $(BUILD)/flags/ that
# records the command it is compiled with (compiler and flags, the test-only
# EFI_TEST_CFLAGS included), so a change of it rebuilds them. make reads the
# file as it starts and rewrites it only when the command differs (FORCE
# then), so an unchanged build rebuilds nothing and make -n and -q stay
# true. The per-object settings have their own stamps: the version,
# DEFAULT_LOADER, VENDOR_CERT.
# $(call FLAGS_FILE,name,VARIABLE): $(BUILD)/flags/name records $(VARIABLE);
# evaluate it once VARIABLE's every part is defined.
FLAGS_DIR := $(BUILD)/flags
escape_sq = $(subst ','\'',$(1))
define FLAGS_FILE
ifneq ($$(strip $$(file < $$(FLAGS_DIR)/$(1))),$$(strip $$($(2))))
$$(FLAGS_DIR)/$(1): FORCE
endif
$$(FLAGS_DIR)/$(1):
	@mkdir -p $$(@D)
	@printf '%s\n' '$$(call escape_sq,$$($(2)))' > $$@
endef

.PHONY: all check demo bootstrap clean
all: $(BUILD)/lockshimx64.efi $(BUILD)/mmx64.efi $(BUILD)/lockshim $(BUILD)/lockshim-san unit-tests

# ---- UEFI: lockshimx64.efi and mmx64.efi -------------------------------------
GNUEFI_INCLUDES := -I/usr/include/efi -I/usr/include/efi/x86_64 -I/usr/include/efi/protocol
GNUEFI_LIBDIR   := /usr/lib
# EFI_CFLAGS: every object of a firmware program, lib/efi's included.
# The stack protector: a canary in each function with an array or a local
# whose address is taken; the guard is the global __stack_chk_guard (no TLS
# under UEFI), set from the firmware's RNG first thing by efi_main
# (lib/efi/stack_guard.h). OpenSSL keeps its own flags (lib/crypto/build.sh).
# make bench builds with STACK_PROTECTOR=-fno-stack-protector for its cost.
STACK_PROTECTOR ?= -fstack-protector-strong -mstack-protector-guard=global
EFI_CFLAGS := $(COMMON_CFLAGS) -O2 -fpic -fshort-wchar -mno-red-zone -ffreestanding \
              $(STACK_PROTECTOR) \
              -fno-strict-aliasing -fvisibility=hidden \
              -ffunction-sections -fdata-sections -DGNU_EFI_USE_MS_ABI -maccumulate-outgoing-args
EFI_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined \
               --gc-sections --exclude-libs ALL
# The project's linker script (lib/efi/elf_x86_64_efi.lds): gnu-efi's
# layout, with -fdata-sections' .bss.* in .data, crt0's .reloc kept through
# --gc-sections, and .relr (packed relocations, lib/efi/efi.mk), .sbat and
# .sbatlevel, .vendor_cert and .ldrname (what `lockshim check` reads of a
# lockshim on an ESP: shim's layout), each on a 4 KiB page.
EFI_LDS := lib/efi/elf_x86_64_efi.lds
EFI_PE_SECTIONS := -j .text -j .sdata -j .data -j .dynamic -j .rodata -j .rel -j .rela \
                   -j '.rel.*' -j '.rela.*' -j .relr -j .reloc -j .sbat -j .sbatlevel \
                   -j .vendor_cert -j .ldrname

include lib/crypto/crypto.mk
include lib/efi/efi.mk

# The core compiled for UEFI: its own include path and OpenSSL's, no gnu-efi.
EFI_CORE_CFLAGS := $(EFI_CFLAGS) $(CRYPTO_EFI_CFLAGS) $(CORE_INCLUDES) $(CRYPTO_EFI_INCLUDES)
# The firmware shells: the core's headers, their own, gnu-efi and lib/efi.
EFI_SHELL_CFLAGS := $(EFI_CORE_CFLAGS) -Isrc/efi $(GNUEFI_INCLUDES) $(LIBEFI_INCLUDES)

EFI_CORE_OBJS := $(CORE_SRCS:src/%.c=$(BUILD)/efi/%.o) $(CORE_ASM:src/%.S=$(BUILD)/efi/%.o)
LOCKSHIM_OBJS := $(EFI_CORE_OBJS) $(EFI_SRCS:src/%.c=$(BUILD)/efi/%.o) $(EFI_ASM:src/%.S=$(BUILD)/efi/%.o)
MM_OBJS       := $(EFI_CORE_OBJS) $(MM_SRCS:src/%.c=$(BUILD)/efi/%.o)

# EFI_TEST_CFLAGS: test builds only, each in a BUILD directory of its own:
# -DLOCKSHIM_FAULT_INJECTION (src/efi/efi_fault.c; make faults-build, into
# $(FAULTS_BUILD)) or -DLOCKSHIM_TEST_CORRUPT_TABLE (src/efi/efi_handoff.c:
# a lockdown table with a bad digest). When BUILD is the release directory,
# EFI_TEST_CFLAGS, from the command line or the environment, or a test-only
# define reaching the EFI compile commands another way (CC, EFI_CFLAGS)
# stops make here. Every image but a fault build's is checked for the fault
# code after objcopy (scripts/check-no-fault-code.sh).
EFI_TEST_CFLAGS ?=
RELEASE_BUILD     := build
TEST_ONLY_DEFINES := LOCKSHIM_FAULT_INJECTION LOCKSHIM_TEST_CORRUPT_TABLE

# The compile commands of the firmware programs' objects, as their flags
# files record them.
EFI_CORE_COMPILE  = $(CCACHE) $(CC) $(EFI_CORE_CFLAGS) $(EFI_TEST_CFLAGS)
EFI_SHELL_COMPILE = $(CCACHE) $(CC) $(EFI_SHELL_CFLAGS) $(EFI_TEST_CFLAGS)
EFI_MM_COMPILE    = $(CCACHE) $(CC) $(EFI_SHELL_CFLAGS) -Isrc/mm $(EFI_TEST_CFLAGS)
EFI_ASM_COMPILE   = $(CC) $(SBAT_ASFLAGS)

ifeq ($(abspath $(BUILD)),$(abspath $(RELEASE_BUILD)))
RELEASE_TEST_FLAGS := $(strip $(if $(strip $(EFI_TEST_CFLAGS)),EFI_TEST_CFLAGS=$(strip \
    $(EFI_TEST_CFLAGS)) from the $(origin EFI_TEST_CFLAGS)) $(foreach d,$(TEST_ONLY_DEFINES),$(if \
    $(findstring $(d),$(CC) $(EFI_CORE_CFLAGS) $(EFI_SHELL_CFLAGS) $(LIBEFI_COMPILE)),$(d) in CC or CFLAGS)))
ifneq ($(RELEASE_TEST_FLAGS),)
$(error test-only flags with the release BUILD directory $(BUILD) ($(RELEASE_TEST_FLAGS)): build them into a BUILD directory of their own; make faults-build builds the fault build into $(FAULTS_BUILD))
endif
endif
# A fault build: its images carry the fault code, any other's must not.
FAULT_BUILD := $(filter -DLOCKSHIM_FAULT_INJECTION -DLOCKSHIM_FAULT_INJECTION=%,$(EFI_TEST_CFLAGS))

$(eval $(call FLAGS_FILE,efi-core,EFI_CORE_COMPILE))
$(eval $(call FLAGS_FILE,efi-shell,EFI_SHELL_COMPILE))
$(eval $(call FLAGS_FILE,efi-mm,EFI_MM_COMPILE))

$(BUILD)/efi/core/%.o: src/core/%.c $(CRYPTO_EFI_LIB) $(FLAGS_DIR)/efi-core
	@mkdir -p $(@D)
	$(EFI_CORE_COMPILE) -MMD -MP -c $< -o $@

$(BUILD)/efi/efi/%.o: src/efi/%.c $(CRYPTO_EFI_LIB) $(FLAGS_DIR)/efi-shell
	@mkdir -p $(@D)
	$(EFI_SHELL_COMPILE) $(EFI_SETTINGS) -MMD -MP -c $< -o $@

$(BUILD)/efi/mm/%.o: src/mm/%.c $(CRYPTO_EFI_LIB) $(FLAGS_DIR)/efi-mm
	@mkdir -p $(@D)
	$(EFI_MM_COMPILE) $(EFI_SETTINGS) -MMD -MP -c $< -o $@

# The entry points print the version: rebuild them when it changes, and
# lockshim's when DEFAULT_LOADER does. Only they get it: the version names
# the commit, and on every other file it would make each commit's build
# miss ccache.
$(BUILD)/efi/version.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
$(BUILD)/efi/default_loader.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(DEFAULT_LOADER)' | cmp -s - $@ || echo '$(DEFAULT_LOADER)' > $@
$(BUILD)/efi/efi/efi_main.o $(BUILD)/efi/mm/mm_main.o: $(BUILD)/efi/version.stamp
$(BUILD)/efi/efi/efi_main.o: $(BUILD)/efi/default_loader.stamp
$(BUILD)/efi/efi/efi_main.o: EFI_SETTINGS := -DLOCKSHIM_VERSION='"$(VERSION)"' \
                                              -DDEFAULT_LOADER='L"$(DEFAULT_LOADER)"'
$(BUILD)/efi/mm/mm_main.o: EFI_SETTINGS := -DLOCKSHIM_VERSION='"$(VERSION)"'

# Rebuilt when the files or the VENDOR_CERT / VENDOR_DBX settings change.
$(BUILD)/efi/vendor_certs.path: FORCE
	@mkdir -p $(@D)
	@echo '$(abspath $(VENDOR_CERT)) $(abspath $(VENDOR_DBX))' | cmp -s - $@ || \
	    echo '$(abspath $(VENDOR_CERT)) $(abspath $(VENDOR_DBX))' > $@

$(EMPTY_ESL):
	@mkdir -p $(@D)
	: > $@

$(BUILD)/efi/efi/vendor_certs.o: src/efi/vendor_certs.S $(VENDOR_CERT) $(VENDOR_DBX) $(BUILD)/efi/vendor_certs.path \
		$(BUILD)/efi/default_loader.stamp $(FLAGS_DIR)/efi-asm
	@openssl x509 -inform DER -in $(VENDOR_CERT) -noout 2>/dev/null || \
	    { echo "VENDOR_CERT=$(VENDOR_CERT) is not a DER certificate" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) -c -DVENDOR_CERT_FILE='"$(abspath $(VENDOR_CERT))"' \
	    -DVENDOR_DBX_FILE='"$(abspath $(VENDOR_DBX))"' -DDEFAULT_LOADER_TEXT='"$(DEFAULT_LOADER)"' $< -o $@

# The MOK manager lockshim may start: the Authenticode digest of the one
# built beside it (efi_policy.c pins it; signing does not change it).
$(BUILD)/efi/mmx64.sha256: $(BUILD)/mmx64.efi $(BUILD)/lockshim
	$(BUILD)/lockshim hash $< | perl -ne 'chomp; print pack("H*", $$_)' > $@.tmp
	@test "$$(stat -c %s $@.tmp)" = 32 || { echo "cannot hash $<" >&2; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@
$(BUILD)/efi/efi/mok_manager_digest.o: src/efi/mok_manager_digest.S $(BUILD)/efi/mmx64.sha256 \
		$(FLAGS_DIR)/efi-asm
	@mkdir -p $(@D)
	$(CC) -c -DMOK_MANAGER_DIGEST_FILE='"$(abspath $(BUILD)/efi/mmx64.sha256)"' $< -o $@

# $(call sbat_asflags,CSV,LATEST): the SBAT data with CSV as .sbat and
# LATEST as the latest level
sbat_asflags = -DSBAT_CSV_FILE='"$(abspath $(1))"' \
               -DSBAT_LEVEL_AUTOMATIC_FILE='"$(abspath $(SBAT_LEVEL_AUTOMATIC))"' \
               -DSBAT_LEVEL_LATEST_FILE='"$(abspath $(2))"'
SBAT_ASFLAGS := $(call sbat_asflags,$(SBAT_CSV),$(SBAT_LEVEL_LATEST))
$(eval $(call FLAGS_FILE,efi-asm,EFI_ASM_COMPILE))
$(BUILD)/efi/core/sbat_data.o $(BUILD)/host/core/sbat_data.o: src/core/sbat_data.S $(SBAT_CSV) \
		$(SBAT_LEVEL_AUTOMATIC) $(SBAT_LEVEL_LATEST) $(FLAGS_DIR)/efi-asm
	@mkdir -p $(@D)
	$(EFI_ASM_COMPILE) -c $< -o $@

# What Windows writes to SbatLevel (certs/README.md), for the CLI's --sbat-level windows.
SBAT_LEVEL_WINDOWS := certs/sbat-level-windows.csv
$(BUILD)/host/cli/sbat_level_windows.o: src/cli/sbat_level_windows.S $(SBAT_LEVEL_WINDOWS)
	@mkdir -p $(@D)
	$(HOST_CC) -c -DSBAT_LEVEL_WINDOWS_FILE='"$(abspath $(SBAT_LEVEL_WINDOWS))"' $< -o $@

# The dbx updates that revoke a CA (certs/README.md), for check's warnings.
DBX_REVOCATIONS := certs/dbx-revocations.csv
$(BUILD)/host/cli/dbx_revocations.o: src/cli/dbx_revocations.S $(DBX_REVOCATIONS)
	@mkdir -p $(@D)
	$(HOST_CC) -c -DDBX_REVOCATIONS_FILE='"$(abspath $(DBX_REVOCATIONS))"' $< -o $@

# One link for every firmware program: $(1) is the .so, $(2) the variable
# holding its objects.
# Linked beside and renamed: a reader (the build tests, a variant's make
# running beside them) sees the old .so or the new one, never half of one.
define EFI_PROGRAM
$(1): $$($(2)) $$(EFI_LDS) $$(CRYPTO_EFI_LIB) $$(LIBC_EFI_LIB)
	$$(LD) $$(EFI_LDFLAGS) $$(LIBEFI_RELR_LDFLAGS) -T $$(EFI_LDS) $$(GNUEFI_LIBDIR)/crt0-efi-x86_64.o \
	    $$($(2)) $$(CRYPTO_EFI_LIBS) -L$$(GNUEFI_LIBDIR) -lefi -lgnuefi \
	    $$(shell $$(CC) -print-libgcc-file-name) -o $$@.tmp
	@$$(LIBEFI_DIR)/check-pe-sections.sh $$@.tmp $$(EFI_PE_SECTIONS) && \
	    $$(LIBEFI_DIR)/check-efi-relocs.sh $$@.tmp || { rm -f $$@.tmp; exit 1; }
	mv $$@.tmp $$@
endef
$(eval $(call EFI_PROGRAM,$(BUILD)/lockshimx64.so,LOCKSHIM_OBJS))
$(eval $(call EFI_PROGRAM,$(BUILD)/mmx64.so,MM_OBJS))

# ---- variants: lockshim with another vendor certificate ---------------------
#   make variant VARIANT=DIR VARIANT_CERT=F.der [VARIANT_DBX=F.esl]
#                [VARIANT_DEFAULT_LOADER=NAME] [VARIANT_SBAT_LEVEL_LATEST=F.csv]
#                [VARIANT_SBAT_CSV=F.csv]
# DIR/lockshimx64.efi: $(BUILD)'s objects but the three that embed these
# settings (vendor_certs.o, efi_main.o, sbat_data.o), compiled again into
# DIR, then one link. The QEMU tests' lockshims with an outside vendor
# certificate, with Debian's, the update that raises the latest SBAT
# level and the release before the last SBAT generation
# (tests/sbat-previous.sh) are variants: seconds, where a BUILD of their
# own compiled everything again.
ifneq ($(VARIANT),)
VARIANT_DBX               ?= $(EMPTY_ESL)
VARIANT_DEFAULT_LOADER    ?= $(DEFAULT_LOADER)
VARIANT_SBAT_LEVEL_LATEST ?= $(SBAT_LEVEL_LATEST)
VARIANT_SBAT_CSV          ?= $(SBAT_CSV)
VARIANT_SETTINGS := $(abspath $(VARIANT_CERT)) $(abspath $(VARIANT_DBX)) $(VARIANT_DEFAULT_LOADER) \
                    $(abspath $(VARIANT_SBAT_LEVEL_LATEST)) $(abspath $(VARIANT_SBAT_CSV)) $(VERSION)
# in $(BUILD)'s order: the same image as a BUILD of its own would link
VARIANT_OBJS := $(patsubst $(BUILD)/efi/efi/efi_main.o,$(VARIANT)/efi_main.o,$(patsubst \
                $(BUILD)/efi/efi/vendor_certs.o,$(VARIANT)/vendor_certs.o,$(patsubst \
                $(BUILD)/efi/core/sbat_data.o,$(VARIANT)/sbat_data.o,$(LOCKSHIM_OBJS))))
.PHONY: variant
# $(BUILD)'s own lockshim too: bringing the shared objects up to date (a new
# version, a rebuilt mmx64.efi whose digest efi_main.o embeds) must not
# leave it older than the MOK manager beside it.
variant: $(VARIANT)/lockshimx64.efi $(BUILD)/lockshimx64.efi
$(VARIANT)/settings: FORCE
	@mkdir -p $(@D)
	@echo '$(VARIANT_SETTINGS)' | cmp -s - $@ || echo '$(VARIANT_SETTINGS)' > $@
$(VARIANT)/vendor_certs.o: src/efi/vendor_certs.S $(VARIANT_CERT) $(VARIANT_DBX) $(VARIANT)/settings \
		$(FLAGS_DIR)/efi-asm
	@openssl x509 -inform DER -in $(VARIANT_CERT) -noout 2>/dev/null || \
	    { echo "VARIANT_CERT=$(VARIANT_CERT) is not a DER certificate" >&2; exit 1; }
	$(CC) -c -DVENDOR_CERT_FILE='"$(abspath $(VARIANT_CERT))"' \
	    -DVENDOR_DBX_FILE='"$(abspath $(VARIANT_DBX))"' \
	    -DDEFAULT_LOADER_TEXT='"$(VARIANT_DEFAULT_LOADER)"' $< -o $@
$(VARIANT)/efi_main.o: src/efi/efi_main.c $(BUILD)/efi/efi/efi_main.o $(VARIANT)/settings
	$(EFI_SHELL_COMPILE) -DLOCKSHIM_VERSION='"$(VERSION)"' \
	    -DDEFAULT_LOADER='L"$(VARIANT_DEFAULT_LOADER)"' -c $< -o $@
$(VARIANT)/sbat_data.o: src/core/sbat_data.S $(VARIANT_SBAT_CSV) $(SBAT_LEVEL_AUTOMATIC) \
		$(VARIANT_SBAT_LEVEL_LATEST) $(VARIANT)/settings $(FLAGS_DIR)/efi-asm
	$(CC) $(call sbat_asflags,$(VARIANT_SBAT_CSV),$(VARIANT_SBAT_LEVEL_LATEST)) -c $< -o $@
$(eval $(call EFI_PROGRAM,$(VARIANT)/lockshimx64.so,VARIANT_OBJS))
$(VARIANT)/%.efi: $(VARIANT)/%.so
	$(EFI_IMAGE)
endif

# --strip-all: no COFF symbol table in the image (the firmware never reads
# it; it was 190 KB of lockshimx64.efi); the .so keeps the symbols for gdb.
# The size rounded up to 8 bytes, as signing tools pad it before the
# signature: the Authenticode digest is then the same signed or not. An
# image that is not a fault build's and carries the fault code is removed:
# that link fails; so is one that cannot be marked NX_COMPAT (a section
# both writable and executable, or not on a page of its own).
EFI_IMAGE_CHECK := $(if $(FAULT_BUILD),true,scripts/check-no-fault-code.sh)
define EFI_IMAGE
objcopy $(EFI_PE_SECTIONS) --strip-all --target efi-app-x86_64 --subsystem=10 $< $@.tmp
truncate -s %8 $@.tmp
@$(EFI_IMAGE_CHECK) $@.tmp || { rm -f $@.tmp; echo "$@: removed" >&2; exit 1; }
$(LIBEFI_DIR)/pe-nx-compat.py $@.tmp || { rm -f $@.tmp; echo "$@: removed" >&2; exit 1; }
mv $@.tmp $@
endef
$(BUILD)/%.efi: $(BUILD)/%.so
	$(EFI_IMAGE)

# Order-only: .complete's time moves whenever make runs tests/pki.sh; the
# certificate's own time says when it changed.
$(TEST_VENDOR_CERT): | $(BUILD)/pki/.complete

# ---- host: CLI and unit tests ----------------------------------------------
HOST_OBJS := $(CORE_SRCS:src/%.c=$(BUILD)/host/%.o)
SAN_OBJS  := $(CORE_SRCS:src/%.c=$(BUILD)/host-san/%.o)
CLI_OBJS  := $(CLI_SRCS:src/%.c=$(BUILD)/host/%.o) $(BUILD)/host/cli/sbat_level_windows.o \
             $(BUILD)/host/cli/dbx_revocations.o

HOST_COMPILE = $(CCACHE) $(HOST_CC) $(HOST_CFLAGS)
SAN_COMPILE  = $(CCACHE) $(HOST_CC) $(HOST_CFLAGS) $(SANITIZE)
$(eval $(call FLAGS_FILE,host,HOST_COMPILE))
$(eval $(call FLAGS_FILE,host-san,SAN_COMPILE))

$(BUILD)/host/%.o: src/%.c $(FLAGS_DIR)/host
	@mkdir -p $(@D)
	$(HOST_COMPILE) $(if $(filter src/cli/%,$<),-Isrc/cli) $(CLI_SETTINGS) -MMD -MP -c $< -o $@

$(BUILD)/host-san/%.o: src/%.c $(FLAGS_DIR)/host-san
	@mkdir -p $(@D)
	$(SAN_COMPILE) $(if $(filter src/cli/%,$<),-Isrc/cli) $(CLI_SETTINGS) -MMD -MP -c $< -o $@

# `lockshim --version` says the release, as the loader's banner does.
# Its JSON documents say it too ("lockshim_version", json.c).
VERSIONED_CLI_OBJS := $(foreach d,host host-san,$(BUILD)/$(d)/cli/cli.o $(BUILD)/$(d)/cli/json.o)
$(VERSIONED_CLI_OBJS): $(BUILD)/efi/version.stamp
$(VERSIONED_CLI_OBJS): CLI_SETTINGS := -DLOCKSHIM_VERSION='"$(VERSION)"'

# The CLI applies the same embedded SBAT level as the loader: sbat_data.S for both.
$(BUILD)/lockshim: $(CLI_OBJS) $(HOST_OBJS) $(BUILD)/host/core/sbat_data.o
	$(HOST_CC) $(HOST_CFLAGS) $^ $(HOST_LIBS) -o $@

# The CLI with ASan/UBSan, for the CLI tests' hostile inputs.
$(BUILD)/lockshim-san: $(CLI_SRCS:src/%.c=$(BUILD)/host-san/%.o) $(SAN_OBJS) $(BUILD)/host/core/sbat_data.o \
		$(BUILD)/host/cli/sbat_level_windows.o $(BUILD)/host/cli/dbx_revocations.o
	$(HOST_CC) $(HOST_CFLAGS) $(SANITIZE) $^ $(HOST_LIBS) -o $@

UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/test_*.c)) \
              $(BUILD)/tests/test_libc_efi
.PHONY: unit-tests
unit-tests: $(UNIT_TESTS)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(SAN_OBJS) $(FLAGS_DIR)/host-san
	@mkdir -p $(@D)
	$(SAN_COMPILE) -Itests/unit $< $(SAN_OBJS) $(HOST_LIBS) -o $@

# lib/efi/libc checked against glibc on the host (efi.mk builds it).
$(BUILD)/tests/test_libc_efi: $(LIBC_TEST_DIR)/libc-test
	@mkdir -p $(@D)
	cp $< $@

# touch: a PKI copied from the cache keeps the cache's times, older than a
# fresh clone's tests/pki.sh, and make would run it at every call.
$(BUILD)/pki/.complete: tests/pki.sh
	tests/pki.sh $(BUILD)/pki
	touch $@

# ---- install ----------------------------------------------------------------
#   make install [DESTDIR=DIR] [PREFIX=/usr] [SYSCONFDIR=/etc]
# The CLI, the manual pages, bash completion, the unsigned EFI images to be
# signed (under $(PREFIX)/lib/lockshim/, as shim-unsigned's are under
# /usr/lib/shim/) and the update hooks with the one script they share.
# The kernel's postinst.d and apt read /etc only; kernel-install reads
# /usr/lib/kernel/install.d (and /etc/kernel/install.d).
PREFIX     ?= /usr
SYSCONFDIR ?= /etc
BINDIR     := $(PREFIX)/bin
PKGLIBDIR  := $(PREFIX)/lib/lockshim
MANDIR     := $(PREFIX)/share/man
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
KERNELINSTALLDIR := $(PREFIX)/lib/kernel/install.d
MAN_PAGES  := $(sort $(wildcard man/*.1 man/*.7))
# The hooks name check-update's directory: /usr/lib/lockshim in the tree.
HOOK_LIBDIR_SED := s|/usr/lib/lockshim|$(PKGLIBDIR)|g
.PHONY: install
install: $(BUILD)/lockshim $(BUILD)/lockshimx64.efi $(BUILD)/mmx64.efi
	install -D -m 0755 $(BUILD)/lockshim $(DESTDIR)$(BINDIR)/lockshim
	install -D -m 0644 -t $(DESTDIR)$(PKGLIBDIR) $(BUILD)/lockshimx64.efi $(BUILD)/mmx64.efi
	install -D -m 0755 -t $(DESTDIR)$(PKGLIBDIR) hooks/check-update hooks/apt-hook
	install -D -m 0644 -t $(DESTDIR)$(MANDIR)/man1 $(filter %.1,$(MAN_PAGES))
	install -D -m 0644 -t $(DESTDIR)$(MANDIR)/man7 $(filter %.7,$(MAN_PAGES))
	install -D -m 0644 completions/lockshim $(DESTDIR)$(BASHCOMPDIR)/lockshim
	install -D -m 0755 hooks/zz-lockshim $(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d/zz-lockshim
	install -D -m 0755 hooks/88-lockshim.install $(DESTDIR)$(KERNELINSTALLDIR)/88-lockshim.install
	install -D -m 0644 hooks/60lockshim $(DESTDIR)$(SYSCONFDIR)/apt/apt.conf.d/60lockshim
	sed -i '$(HOOK_LIBDIR_SED)' $(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d/zz-lockshim \
	    $(DESTDIR)$(KERNELINSTALLDIR)/88-lockshim.install $(DESTDIR)$(SYSCONFDIR)/apt/apt.conf.d/60lockshim \
	    $(DESTDIR)$(PKGLIBDIR)/apt-hook

# The Debian packages, built with dpkg-buildpackage in a clean clone of
# HEAD and checked by lintian (tests/package.sh): minutes, and debhelper
# and lintian, which the rest does not need; so not part of make check.
.PHONY: package
package:
	tests/package.sh

# The packages make package built, end to end in a Debian 12 guest booted
# through lockshim, Debian's GRUB and kernel (tests/distro/distro-test.sh).
.PHONY: distro-test
distro-test: package
	tests/distro/distro-test.sh build/package

# The first stage signed once per CA and combined, for `lockshim install`
# to choose from per machine: SIGN_CAS="NAME:KEY:CERT ..." (the oldest CA
# first, as Debian combines them), SIGN_NEST=1 to nest the later
# signatures (osslsigncode -nest) instead of appending them:
# $(BUILD)/signed/lockshimx64.efi.signed.NAME and lockshimx64.efi.signed.
.PHONY: signed-variants
signed-variants: $(BUILD)/lockshimx64.efi $(BUILD)/lockshim
	@test -n "$(SIGN_CAS)" || { echo 'signed-variants: set SIGN_CAS="NAME:KEY:CERT ..."' >&2; exit 1; }
	LOCKSHIM_CLI=$(BUILD)/lockshim scripts/sign-variants.sh $(if $(SIGN_NEST),--nest) \
	    $(foreach c,$(SIGN_CAS),--ca $(subst :, ,$(c))) --output-dir $(BUILD)/signed $(BUILD)/lockshimx64.efi

# The firmware's verdict against lockshim's prediction in every cell of the
# old/new CA matrix (a sample runs in make check: test_firmware_verdict.sh).
.PHONY: firmware-matrix
firmware-matrix: $(BUILD)/lockshim
	tests/qemu/firmware-matrix-run

# ---- the two commands --------------------------------------------------------
bootstrap:
	scripts/bootstrap.sh

# CHECK_STARTED: the wall time in build/check.json covers the builds too.
# WERROR=1 for the builds and for the tests' own make runs (the fault
# build, lib/efi's host tests), so they rebuild nothing of make check's.
check: bootstrap
	@mkdir -p $(BUILD) && date +%s > $(BUILD)/.check-started
	$(MAKE) -j$$(nproc) WERROR=1 all fuzz-build kernel faults-build
	WERROR=1 CHECK_STARTED=$$(cat $(BUILD)/.check-started) tests/run.sh

# The companion kernel (bzImage and test modules), cached by its inputs:
# kernel/build.sh, the series in kernel/patches, kernel/lockshim.config; the
# bzImage carries kernel/sbat.csv as .sbat, added by build/lockshim add-sbat.
.PHONY: kernel
kernel: $(BUILD)/lockshim
	kernel/build.sh

demo: bootstrap
	$(MAKE) $(BUILD)/lockshimx64.efi kernel
	tests/qemu/demo.sh

# The whole differential kexec corpus (make check runs its sample): one
# locked boot kexec_file_load()s every image, compared with lockshim verify
# (what lockshim would start: the table carries its .sbat rule). KEXEC_CORPUS_ARGS=--write-differences rewrites
# tests/qemu/kexec-corpus.differences from the run.
.PHONY: kexec-corpus
kexec-corpus: all kernel
	tests/qemu/kexec-corpus.sh $(KEXEC_CORPUS_ARGS)

# The differential test of `lockshim check` (make check runs its sample,
# tests/qemu/test_differential.sh): N machine states generated from SEED
# (random unless given; the run prints it), each booted in QEMU through
# lockshim, Debian's GRUB and systemd-boot and compared with check --json;
# a state that differs is written out to build/qemu/differential/regressions/,
# which REPLAY="FILE..." boots and compares again instead.
.PHONY: differential
differential: all kernel
	tests/differential/run $(if $(REPLAY),--replay $(REPLAY),$(or $(N),20) $(SEED))

clean:
	rm -rf $(BUILD)

# The C format (.clang-format); make check fails on a file it would change.
.PHONY: format
format:
	git ls-files 'src/*.[ch]' 'include/*.[ch]' | xargs clang-format -i

# Fault injection: the fault build of both firmware programs, in its own
# BUILD directory, with the test vendor certificate; then the whole walk.
.PHONY: faults faults-build
faults-build: $(TEST_VENDOR_CERT)
	$(MAKE) BUILD=$(FAULTS_BUILD) VENDOR_CERT=$(abspath $(TEST_VENDOR_CERT)) \
	    EFI_TEST_CFLAGS=-DLOCKSHIM_FAULT_INJECTION $(FAULTS_BUILD)/lockshimx64.efi $(FAULTS_BUILD)/mmx64.efi
faults: bootstrap
	$(MAKE) all faults-build
	tests/qemu/faults.sh

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

-include $(wildcard $(BUILD)/host/*/*.d $(BUILD)/host-san/*/*.d $(BUILD)/efi/*/*.d)

# Keep intermediate objects (the sanitizer builds of the core).
.SECONDARY:
