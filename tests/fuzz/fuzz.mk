# libFuzzer targets for the verification core (tests/fuzz/), included by the
# root Makefile; built with clang, ASan, UBSan and the system libcrypto.
#
#   make fuzz            build, then run each target FUZZ_SECONDS (60) over a copy of
#                        its corpus, one after another; fails if any crashed
#   make fuzz FUZZ_TARGETS=fuzz_pe FUZZ_SECONDS=600
#   make fuzz-build      only build $(BUILD)/fuzz/<target>
#   make fuzz-regress    run each target once over its committed corpus (ok/not ok)
#   make fuzz-clean      forget the grown corpora, logs and crash files
#
# Committed:  tests/fuzz/fuzz_*.c, fuzz_cert.h and corpus/<target>/ (both from
#             tests/fuzz/make-corpus.sh; corpus/fuzz_sbat/ from make-sbat-corpus.sh)
# Not:        $(BUILD)/fuzz/<target>             the fuzzers
#             $(BUILD)/fuzz/corpus/<target>/     the committed seeds + what fuzzing added
#             $(BUILD)/fuzz/artifacts/<target>/  crash-*, leak-*, timeout-* reproducers
#             $(BUILD)/fuzz/<target>.log         the last run's output
# Reproduce a crash:  $(BUILD)/fuzz/<target> $(BUILD)/fuzz/artifacts/<target>/crash-...

BUILD        ?= build
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 65536
FUZZ_TIMEOUT ?= 10
FUZZ_RSS_MB  ?= 2048
FUZZ_FLAGS   ?=
FUZZ_ALL_TARGETS := fuzz_pe fuzz_esl fuzz_verify fuzz_sbat fuzz_tcg_log fuzz_check fuzz_boot_record fuzz_fallback
FUZZ_TARGETS ?= $(FUZZ_ALL_TARGETS)

FUZZ_DIR      := $(BUILD)/fuzz
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS    = $(HOST_CFLAGS) $(FUZZ_SANITIZE) -fsanitize=fuzzer-no-link
FUZZ_LIBS      = $(HOST_LIBS)

# The core sources each target links.
fuzz_pe_SRCS     := src/core/pe.c src/core/authenticode.c
fuzz_esl_SRCS    := src/core/signature_list.c src/core/buffer.c
fuzz_sbat_SRCS   := src/core/sbat.c src/core/sbat_level.c src/core/reason.c
fuzz_verify_SRCS := $(CORE_SRCS)
fuzz_tcg_log_SRCS := $(CORE_SRCS)
# what `lockshim check` reads of a machine: the core's parsers and the CLI's text readers
fuzz_check_SRCS  := src/core/boot_option.c src/core/device_path.c src/core/variable_data.c \
                    src/core/vendor_cert.c src/core/signature_list.c src/core/buffer.c \
                    src/core/reason.c src/core/loader_interface.c src/core/variable_store.c \
                    src/cli/grub_cfg.c src/cli/bls.c
# the record of the boot `lockshim status` reads, and the record lines' format
fuzz_boot_record_SRCS := src/core/boot_record.c src/core/verdict_reason.c src/core/reason.c
# the fallback's BOOTX64.CSV, the load options it writes read back, its BootOrder
fuzz_fallback_SRCS := src/core/fallback.c src/core/boot_option.c src/core/device_path.c \
                      src/core/signature_list.c src/core/buffer.c src/core/reason.c

FUZZ_BINS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))

.PHONY: fuzz fuzz-build fuzz-regress fuzz-clean
fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@failed=; for t in $(FUZZ_TARGETS); do \
	    FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_MAX_LEN='$(FUZZ_MAX_LEN)' \
	    FUZZ_TIMEOUT='$(FUZZ_TIMEOUT)' FUZZ_RSS_MB='$(FUZZ_RSS_MB)' FUZZ_FLAGS='$(FUZZ_FLAGS)' \
	    tests/fuzz/run-fuzzer.sh $(FUZZ_DIR) $$t || failed="$$failed $$t"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: FAILED:$$failed"; exit 1; fi; \
	echo "fuzz: no crash in $(FUZZ_TARGETS)"

fuzz-regress: $(FUZZ_BINS)
	BUILD=$(BUILD) tests/fuzz/test_fuzz_corpus.sh $(FUZZ_TARGETS)

fuzz-clean:
	rm -rf $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts $(FUZZ_DIR)/*.log

$(FUZZ_DIR)/obj/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CCACHE) $(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/obj/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(@D)
	$(CCACHE) $(FUZZ_CC) $(FUZZ_CFLAGS) -Itests/fuzz -Isrc/cli -MMD -MP -c $< -o $@

define FUZZ_TARGET_RULE
$(FUZZ_DIR)/$(1): $(FUZZ_DIR)/obj/tests/fuzz/$(1).o $(patsubst src/%.c,$(FUZZ_DIR)/obj/src/%.o,$($(1)_SRCS))
	$$(FUZZ_CC) $$(FUZZ_CFLAGS) -fsanitize=fuzzer $$^ $$(FUZZ_LIBS) -o $$@
endef
$(foreach t,$(FUZZ_ALL_TARGETS),$(eval $(call FUZZ_TARGET_RULE,$(t))))

-include $(wildcard $(FUZZ_DIR)/obj/src/*/*.d $(FUZZ_DIR)/obj/tests/fuzz/*.d)
