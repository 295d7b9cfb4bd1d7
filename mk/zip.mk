# SPDX-License-Identifier: MIT
# Systrace .zip files read directly with Debian's libzip (scripts/deps.d/zip.sh installs it).
# Host builds only: the define is set on the host object alone, so the static phone build
# (make android) compiles lib/input/container_zip.c without it and reports that it cannot
# read zip. A host without zip.h builds the same way, with a warning. `make fuzz` compiles
# every source in one clang call: it gets the define and the library too (FUZZ_*).
# libzip is not linked but loaded with dlopen() on the first zip (container_zip.c): every
# other run starts without libzip, libcrypto and libbz2 mapped. The fuzz build links it too,
# which does no harm and keeps its sanitizers' view of it.
ifneq ($(wildcard /usr/include/zip.h),)
ZIP_CPPFLAGS := -DGFXSTAT_HAVE_LIBZIP
$(BUILD)/lib/input/container_zip.o: CPPFLAGS_ALL += $(ZIP_CPPFLAGS)
LDLIBS += -ldl
FUZZ_CPPFLAGS += $(ZIP_CPPFLAGS)
FUZZ_LDLIBS += -lzip -ldl
else
$(warning gfxstat: libzip-dev is missing: this build cannot read .zip; run scripts/deps.sh)
endif
