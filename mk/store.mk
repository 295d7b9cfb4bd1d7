# SPDX-License-Identifier: MIT
# The history store (src/cli_store.c): SQLite and libpq, host build only. The phone build
# (make android) compiles cli_store.c without GFXSTAT_STORE, so every store call there fails
# with "not in this build" and nothing links against either library.
# libpq is loaded with dlopen() when a postgresql:// store is opened (src/cli_pq.c): every other
# command starts without it and the dozens of libraries it pulls in.
$(BUILD)/src/cli_store.o $(BUILD)/src/cli_pq.o: override CFLAGS += -DGFXSTAT_STORE \
	-I/usr/include/postgresql
LDLIBS += -lsqlite3 -ldl
