# SPDX-License-Identifier: MIT
# The history store (src/cli_store.c): SQLite and libpq, host build only. The phone build
# (make android) compiles cli_store.c without GFXSTAT_STORE, so every store call there fails
# with "not in this build" and nothing links against either library.
$(BUILD)/src/cli_store.o: override CFLAGS += -DGFXSTAT_STORE -I/usr/include/postgresql
LDLIBS += -lsqlite3 -lpq
