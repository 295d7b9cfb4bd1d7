# SPDX-License-Identifier: MIT
# make install / uninstall: the binary, a man page per command and bash and zsh completion,
# the pages and completions generated from gfxstat's own --help text (man/gen.sh,
# completions/gen.sh), so they follow every command and option added. `gfxstat --version`
# names the git commit the binary was built from.
# the fragments are read before the Makefile's `all`: keep it the default goal
.DEFAULT_GOAL := all

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
INSTALL    ?= install

GFXSTAT_VER := $(shell sed -n 's/^\#define GFXSTAT_VERSION "\(.*\)"/\1/p' include/gfxstat/gfxstat.h)
# the commit, only when this tree is itself a git checkout (not a tarball inside another repo)
GFXSTAT_GIT := $(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && \
	git rev-parse --short=12 HEAD 2>/dev/null)
GFXSTAT_GIT := $(if $(GFXSTAT_GIT),$(GFXSTAT_GIT),unknown)

# On every compile line (the phone rules expand the flags when they are defined, so a
# target-specific value would not reach them); only src/main.c uses it. main.o, host and
# phone, is rebuilt when the commit changes: the stamp is rewritten only then.
CPPFLAGS_ALL += -DGFXSTAT_COMMIT='"$(GFXSTAT_GIT)"'
$(BUILD)/src/main.o: $(BUILD)/gen/commit
$(foreach abi,arm64 armv7,$(eval build-android/$(abi)/src/main.o: $(BUILD)/gen/commit))
$(BUILD)/gen/commit: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GFXSTAT_GIT)' | cmp -s - $@ || echo '$(GFXSTAT_GIT)' > $@
.PHONY: FORCE install uninstall man completions
FORCE:

man: $(BUILD)/man/gfxstat.1
completions: $(BUILD)/completions/gfxstat

# (the Makefile sets $(GFXSTAT) after reading this: prerequisites name the binary itself)
$(BUILD)/man/gfxstat.1: $(BUILD)/gfxstat man/gen.sh
	sh man/gen.sh $(BUILD)/gfxstat $(BUILD)/man $(GFXSTAT_VER)

$(BUILD)/completions/gfxstat: $(BUILD)/gfxstat completions/gen.sh
	sh completions/gen.sh $(BUILD)/gfxstat $(BUILD)/completions

install: $(BUILD)/gfxstat man completions
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 $(BUILD)/gfxstat $(DESTDIR)$(BINDIR)/gfxstat
	$(INSTALL) -m 644 $(BUILD)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(BUILD)/completions/gfxstat $(DESTDIR)$(BASHCOMPDIR)/gfxstat
	$(INSTALL) -m 644 $(BUILD)/completions/_gfxstat $(DESTDIR)$(ZSHCOMPDIR)/_gfxstat

# the pages of commands since removed go too: every gfxstat-*.1 is ours
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gfxstat $(DESTDIR)$(MANDIR)/man1/gfxstat.1 \
		$(DESTDIR)$(MANDIR)/man1/gfxstat-*.1 $(DESTDIR)$(BASHCOMPDIR)/gfxstat \
		$(DESTDIR)$(ZSHCOMPDIR)/_gfxstat
