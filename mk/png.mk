# SPDX-License-Identifier: MIT
# Screenshot thumbnails in the HTML report read and written with Debian's libpng 1.6 (its
# simplified API; scripts/deps.d/png.sh installs libpng-dev). Host builds only: the define is
# set on the host object alone, so the static phone build (make android) compiles
# lib/report/png_thumb.c without it and its reports say thumbnails need libpng. A host
# without png.h builds the same way, with a warning. libpng is not linked but loaded with
# dlopen() on the first screenshot (png_thumb.c), so no other run maps it. The unit test
# links it to read the thumbnails back; `make fuzz` gets the define and the library too.
ifneq ($(wildcard /usr/include/png.h),)
PNG_CPPFLAGS := -DGFXSTAT_HAVE_LIBPNG
$(BUILD)/lib/report/png_thumb.o: CPPFLAGS_ALL += $(PNG_CPPFLAGS)
$(BUILD)/tests/unit/test_png_thumb.o: CPPFLAGS_ALL += $(PNG_CPPFLAGS)
$(BUILD)/test_unit: LDLIBS += -lpng16
LDLIBS += -ldl
FUZZ_CPPFLAGS += $(PNG_CPPFLAGS)
FUZZ_LDLIBS += -lpng16 -ldl
else
$(warning gfxstat: libpng-dev is missing: this build makes no screenshot thumbnails; run scripts/deps.sh)
endif
