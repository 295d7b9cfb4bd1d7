# SPDX-License-Identifier: MIT
# gfxstat report (issue 9): the HTML template, style, chart script and the pinned charting
# library (uPlot, installed by scripts/deps.d/report.sh with npm ci) are embedded into a
# generated C file, linked into gfxstat, so the binary writes reports with nothing beside it.

# `all` stays the default goal: this fragment is read before the Makefile's first rule.
all:

REPORT_UPLOT  := report/node_modules/uplot
REPORT_ASSETS := report/template.html report/report.css report/report.js \
	report/report_views.js \
	$(REPORT_UPLOT)/dist/uPlot.iife.min.js $(REPORT_UPLOT)/dist/uPlot.min.css \
	$(REPORT_UPLOT)/LICENSE

# The first screen of the demo report in headless Chromium, as docs/report.png (the README's
# picture): Chromium and playwright-core from scripts/deps.sh.
.PHONY: screenshot
screenshot: all
	sh scripts/screenshot.sh $(BUILD)

$(REPORT_UPLOT)/%:
	@echo "gfxstat: error: $@ missing: run scripts/deps.sh (npm ci in report/)" >&2; exit 1

$(BUILD)/gen/report_assets.c: $(REPORT_ASSETS) report/embed.sh
	@mkdir -p $(dir $@)
	sh report/embed.sh $@ $(REPORT_ASSETS)

$(BUILD)/gen/report_assets.o: $(BUILD)/gen/report_assets.c include/gfxstat/gfxstat_report.h
	$(CC) $(WARN) -Iinclude $(CFLAGS) -c $< -o $@

# The Makefile links CLI_OBJ and the library; the assets object goes in beside them.
$(BUILD)/gfxstat: $(BUILD)/gen/report_assets.o
$(BUILD)/gfxstat: LDLIBS += $(BUILD)/gen/report_assets.o

# The phone builds link every prerequisite ($^). Their directory (the Makefile's default, or
# the one given as ANDROID_BUILD=) and ABIs are named here because this fragment is read
# before the Makefile defines them.
ANDROID_BUILD ?= build-android
REPORT_ANDROID_BUILD := $(ANDROID_BUILD)
define REPORT_ANDROID_RULES
$(REPORT_ANDROID_BUILD)/$(1)/gfxstat: $(REPORT_ANDROID_BUILD)/$(1)/gen/report_assets.o
$(REPORT_ANDROID_BUILD)/$(1)/gen/report_assets.o: $(REPORT_ANDROID_BUILD)/gen/report_assets.c \
		include/gfxstat/gfxstat_report.h | android-tools
	@mkdir -p $$(dir $$@)
	$$(ANDROID_CC_$(1)) $$(WARN) -Iinclude $$(ANDROID_CFLAGS) $$(ANDROID_ARCH_$(1)) -c $$< -o $$@
endef
$(foreach abi,arm64 armv7,$(eval $(call REPORT_ANDROID_RULES,$(abi))))

$(REPORT_ANDROID_BUILD)/gen/report_assets.c: $(REPORT_ASSETS) report/embed.sh
	@mkdir -p $(dir $@)
	sh report/embed.sh $@ $(REPORT_ASSETS)
