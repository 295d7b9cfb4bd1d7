# SPDX-License-Identifier: MIT
# gfxstat build. `make` builds the CLI; see README.md for the rest.

BUILD   ?= build
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -std=c11 -Wall -Wextra -Wstrict-prototypes -Wshadow -Wformat=2 -Wvla
CPPFLAGS_ALL := -Iinclude -D_POSIX_C_SOURCE=200809L $(CPPFLAGS)
LDLIBS  += -lz -lm -pthread

# Each feature's own build rules and link flags (report assets, history store, install):
# one fragment per feature in mk/, so features do not edit each other's lines.
-include $(sort $(wildcard mk/*.mk))
.DEFAULT_GOAL := all

LIB_SRC := $(wildcard lib/*/*.c)
CLI_SRC := $(wildcard src/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)

GFXSTAT := $(BUILD)/gfxstat
LIBA    := $(BUILD)/libgfxstat.a

.PHONY: all check asan tsan ci demo bench fuzz clean style
all: $(GFXSTAT) $(BUILD)/gfxsim

$(BUILD)/%.o: %.c $(wildcard include/gfxstat/*.h lib/*.h lib/*/*.h src/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS_ALL) $(CFLAGS) -c $< -o $@

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(GFXSTAT): $(CLI_OBJ) $(LIBA)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS)

$(BUILD)/gfxsim: tools/gfxsim.c
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

$(BUILD)/test_unit: $(UNIT_SRC:%.c=$(BUILD)/%.o) $(LIBA)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# One replay driver per fuzz target, so CI replays the corpora without libFuzzer.
$(BUILD)/replay_%: $(BUILD)/fuzz/fuzz_%.o $(BUILD)/fuzz/replay.o $(LIBA)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

REPLAYS := $(FUZZ_SRC:fuzz/fuzz_%.c=$(BUILD)/replay_%)

# the output invariants, checked apart from the library (tests/suites/90-plausible.sh)
$(BUILD)/plausible: tests/plausible.c
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

# a long Perfetto capture with the app's sections, for make bench and a test of held frames
$(BUILD)/perfetto_sim: bench/perfetto_sim.c bench/pb_out.h
	@mkdir -p $(BUILD)
	$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

check: all $(BUILD)/test_unit $(REPLAYS) $(BUILD)/plausible $(BUILD)/perfetto_sim
	BUILD=$(BUILD) sh tests/run.sh

# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer, in its own tree.
asan:
	$(MAKE) check BUILD=build-asan OPT=-O1 \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"

# The code on two threads (a Perfetto trace's bundles decoded ahead) under ThreadSanitizer.
TSAN_FLAGS := -O1 -g -fsanitize=thread
tsan:
	$(MAKE) BUILD=build-tsan OPT=-O1 CFLAGS="$(TSAN_FLAGS)" LDFLAGS="-fsanitize=thread" \
		build-tsan/gfxstat build-tsan/test_unit build-tsan/replay_perfetto \
		build-tsan/replay_perfetto_sched build-tsan/replay_trace_ahead build-tsan/gfxsim
	sh scripts/tsan.sh build-tsan

# What CI runs: the suite, the suite under sanitizers, the phone builds under qemu, with one
# closing summary line.
ci:
	@MAKE="$(MAKE)" sh scripts/ci.sh

demo: all
	sh scripts/demo.sh $(BUILD)

# bench/bench.sh, docs/bench.md: make bench (full: ~12 GB of inputs made in $(BUILD)/bench, some
# minutes), make bench BENCH_ARGS=--smoke (small inputs, one run: checks the harness)
bench: all
	sh bench/bench.sh $(BUILD) $(BENCH_ARGS)

# libFuzzer builds (clang): make fuzz, then build-fuzz/fuzz_<name> fuzz/corpus/<name>.
# The features' flags are the normal build's (FUZZ_CPPFLAGS, FUZZ_LDLIBS from mk/*.mk), so
# fuzz_zip fuzzes libzip's reading, not the "cannot read zip" stub. Undefined behaviour stops
# the run (as in make asan), so libFuzzer keeps the input that caused it.
FUZZ_BUILD ?= build-fuzz
fuzz:
	@mkdir -p $(FUZZ_BUILD)
	for f in $(FUZZ_SRC); do \
		n=$$(basename $$f .c); \
		clang $(WARN) $(CPPFLAGS_ALL) $(FUZZ_CPPFLAGS) -O1 -g \
			-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
			-o $(FUZZ_BUILD)/$$n $$f $(LIB_SRC) \
			$(FUZZ_LDLIBS) -lz -lm -pthread || exit 1; \
	done

# house style, and the library's layering read from its objects (scripts/check-layers.sh)
style: $(LIB_OBJ)
	sh scripts/check-style.sh
	sh scripts/check-layers.sh $(BUILD)

clean:
	rm -rf build build-asan build-tsan build-fuzz build-android
.SECONDARY:

# --- Android (issue: make android) ------------------------------------------------------------
# Static ARM binaries built with Debian's cross compilers (scripts/deps-android.sh installs
# them): no NDK, and a static glibc binary needs nothing on the phone (gfxstat uses no NSS and
# no dlopen). Objects go to build-android/<abi>/ from the same LIB_SRC and CLI_SRC.
# make android-check runs them under qemu-user against the host build (tests/android.sh).
ANDROID_BUILD ?= build-android
ANDROID_ABIS  := arm64 armv7
ANDROID_CC_arm64 := aarch64-linux-gnu-gcc
ANDROID_CC_armv7 := arm-linux-gnueabihf-gcc
ANDROID_ARCH_arm64 :=
ANDROID_ARCH_armv7 := -march=armv7-a -mfpu=neon -mfloat-abi=hard
ANDROID_CFLAGS := -O2
ANDROID_BINS := $(ANDROID_ABIS:%=$(ANDROID_BUILD)/%/gfxstat)

.PHONY: android android-check android-clean android-tools bench-cost
android: $(ANDROID_BINS)

# say what to run instead of "command not found" (order-only: never forces a rebuild)
android-tools:
	@for t in $(foreach abi,$(ANDROID_ABIS),$(ANDROID_CC_$(abi))); do \
		command -v $$t > /dev/null || { \
			echo "gfxstat: error: $$t not found; run scripts/deps-android.sh" >&2; exit 1; }; \
	done

define ANDROID_RULES
$(ANDROID_BUILD)/$(1)/%.o: %.c $(wildcard include/gfxstat/*.h lib/*.h lib/*/*.h src/*.h) | android-tools
	@mkdir -p $$(dir $$@)
	$(ANDROID_CC_$(1)) $(WARN) $(CPPFLAGS_ALL) $(ANDROID_CFLAGS) $(ANDROID_ARCH_$(1)) -c $$< -o $$@

$(ANDROID_BUILD)/$(1)/gfxstat: $(patsubst %.c,$(ANDROID_BUILD)/$(1)/%.o,$(LIB_SRC) $(CLI_SRC))
	$(ANDROID_CC_$(1)) $(ANDROID_CFLAGS) $(ANDROID_ARCH_$(1)) -static -o $$@ $$^ -lz -lm -pthread
endef
$(foreach abi,$(ANDROID_ABIS),$(eval $(call ANDROID_RULES,$(abi))))

# the host build is the reference the ARM outputs are compared with
android-check: all android
	BUILD=$(BUILD) ANDROID_BUILD=$(ANDROID_BUILD) sh tests/android.sh

bench-cost: all android
	sh bench/cost.sh $(BUILD) $(ANDROID_BUILD)

android-clean:
	rm -rf $(ANDROID_BUILD)
