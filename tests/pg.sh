# SPDX-License-Identifier: MIT
# Sourced by the suites that test the history store on PostgreSQL: a real server of Debian's
# postgresql package, started in its own temporary folder with trust auth on 127.0.0.1 only,
# stopped by pg_stop. As root, postgres runs as the postgres user (it refuses root).
#   pg_start      sets PG_URL and PG_DIR; returns 1 (PG_WHY says why) when there is none
#   pg_stop
pg_start() {
	PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
	if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
		PG_WHY="PostgreSQL server not installed (scripts/deps.d/store.sh)"
		return 1
	fi
	PG_DIR=$(mktemp -d /tmp/gfxstat-pg.XXXXXX)
	[ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
	pg_port=$((20000 + ($$ + ${1:-0}) % 20000))
	if pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U gfxstat --auth=trust \
		> "$PG_DIR/initdb.log" 2>&1 &&
		pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
			-o "-c listen_addresses=127.0.0.1 -p $pg_port -k $PG_DIR" start \
			> /dev/null 2>&1; then
		PG_URL="postgresql://gfxstat@127.0.0.1:$pg_port/postgres"
		return 0
	fi
	PG_WHY="could not start a PostgreSQL server: $(tail -n 3 "$PG_DIR"/*.log | tr '\n' ' ')"
	rm -rf "$PG_DIR"
	return 1
}
pg_as() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_stop() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null 2>&1
	rm -rf "$PG_DIR"
}
