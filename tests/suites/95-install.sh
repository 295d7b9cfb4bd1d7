# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: make install into a staging folder (binary, a man page for every
# command, bash and zsh completion), make uninstall, --version; and systrace .zip files read
# directly (the real samples against their unzipped HTML, archives made here).

section "install: make install, man pages, completions"
i95=$TMP/i95
mkdir -p "$i95"
i95_root=$i95/root
i95_make() { # the build's own make, on this build folder
	${MAKE:-make} -s -C "$ROOT" BUILD="$BUILD" DESTDIR="$i95_root" PREFIX=/usr "$@"
}
# the long options of a command's --help ("  -o, --output FILE" / "      --json")
i95_opts() {
	"$GFXSTAT" "$1" --help |
		sed -n 's/^  *\(-[A-Za-z0-9], *\)\{0,1\}\(--[A-Za-z0-9][A-Za-z0-9-]*\).*/\2/p' | sort -u
}
i95_cmds=$("$GFXSTAT" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { print $1 }')
[ -n "$i95_cmds" ] && pass || fail "gfxstat --help lists no commands"

# --version: the version and the commit, a real commit of this checkout (or "unknown")
i95_v=$("$GFXSTAT" --version)
i95_c=$(echo "$i95_v" | sed -n 's/^gfxstat [0-9][0-9.]* (commit \([0-9a-f]\{7,\}\|unknown\))$/\1/p')
if [ -z "$i95_c" ]; then
	fail "--version: '$i95_v' is not 'gfxstat X.Y.Z (commit HASH)'"
elif [ "$i95_c" = unknown ]; then
	[ -d "$ROOT/.git" ] && fail "--version says commit unknown in a git checkout" || pass
else
	git -C "$ROOT" rev-parse -q --verify "$i95_c^{commit}" > /dev/null 2>&1 && pass ||
		fail "--version names commit $i95_c, which this checkout does not have"
fi

if ! command -v help2man > /dev/null 2>&1; then
	skip "install: help2man is missing (scripts/deps.sh installs it)"
elif ! i95_make install > "$i95/install.log" 2>&1; then
	fail "make install DESTDIR=$i95_root failed"
	tail -5 "$i95/install.log"
else
	pass
	i95_bin=$i95_root/usr/bin/gfxstat
	i95_man=$i95_root/usr/share/man/man1
	# a working binary: it runs a command on the bundled example
	if "$i95_bin" inspect "$ROOT/examples/launcher-60hz.trace" 2> /dev/null |
		grep -q 'format: ftrace-text'; then pass; else fail "installed gfxstat inspect"; fi
	# a page for gfxstat and for every command of --help, rendered without a warning, that
	# holds every long option of the command's --help
	for i95_p in gfxstat $(echo "$i95_cmds" | sed 's/^/gfxstat-/'); do
		i95_f=$i95_man/$i95_p.1
		if [ ! -s "$i95_f" ]; then
			fail "no man page $i95_p(1)"
			continue
		fi
		i95_w=$(groff -mandoc -Tutf8 -ww -z "$i95_f" 2>&1)
		if command -v man > /dev/null 2>&1; then
			i95_w="$i95_w$(MANWIDTH=100 man -l "$i95_f" 2>&1 > /dev/null)"
		fi
		[ -z "$i95_w" ] && pass || fail "$i95_p(1) renders with warnings: $i95_w"
		case $i95_p in gfxstat) continue ;; esac
		i95_txt=$(MANWIDTH=400 man -l "$i95_f" 2> /dev/null | sed 's/‐/-/g')
		i95_miss=""
		for i95_o in $(i95_opts "${i95_p#gfxstat-}"); do
			echo "$i95_txt" | grep -q -e "$i95_o" || i95_miss="$i95_miss $i95_o"
		done
		[ -z "$i95_miss" ] && pass || fail "$i95_p(1) lacks$i95_miss"
	done
	# bash: the completion loads, and completes commands, options and option values
	i95_bc=$i95_root/usr/share/bash-completion/completions/gfxstat
	i95_got=$(bash -c '. "$1" || exit 1; complete -p gfxstat
		t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _gfxstat
			echo "${COMPREPLY[*]}"; }
		t gfxstat ana; t gfxstat analyze x.html --js; t gfxstat frames --format js
		t gfxstat help unw' _ "$i95_bc" 2>&1)
	i95_want="complete -o default -F _gfxstat gfxstat
analyze
--json
jsonl json
unwrap"
	[ "$i95_got" = "$i95_want" ] && pass || fail "bash completion: got '$i95_got'"
	# every command, and each one's options
	i95_bad=""
	for i95_cmd in $i95_cmds; do
		i95_got=$(bash -c '. "$1"; COMP_WORDS=(gfxstat "$2" -); COMP_CWORD=2; _gfxstat
			echo " ${COMPREPLY[*]} "' _ "$i95_bc" "$i95_cmd")
		for i95_o in $(i95_opts "$i95_cmd"); do
			case $i95_got in *" $i95_o "*) ;; *) i95_bad="$i95_bad $i95_cmd:$i95_o" ;; esac
		done
	done
	[ -z "$i95_bad" ] && pass || fail "bash completion lacks$i95_bad"
	# zsh: the function parses and compinit binds it to gfxstat
	if command -v zsh > /dev/null 2>&1; then
		i95_zd=$i95_root/usr/share/zsh/site-functions
		i95_got=$(zsh -fc 'fpath=("$1" $fpath); autoload -Uz compinit;
			compinit -u -d "$2/zcompdump"; print -r -- $_comps[gfxstat]' _ "$i95_zd" "$i95")
		zsh -n "$i95_zd/_gfxstat" && [ "$i95_got" = _gfxstat ] && pass ||
			fail "zsh completion: compinit gives '$i95_got' for gfxstat"
	else
		skip "zsh is not installed: zsh completion not loaded"
	fi
	# uninstall leaves nothing behind
	i95_make uninstall > /dev/null 2>&1
	i95_left=$(find "$i95_root" -type f)
	[ -z "$i95_left" ] && pass || fail "make uninstall left: $i95_left"
fi

section "zip: systrace .zip read directly"
i95_ex=$ROOT/examples/launcher-60hz.trace
i95_z=$i95/zip
mkdir -p "$i95_z"
if ! command -v zip > /dev/null 2>&1; then
	skip "zip: the zip command is missing (scripts/deps.sh installs it)"
else
	cp "$i95_ex" "$i95_z/t.trace"
	cp "$i95_ex" "$i95_z/t2.trace"
	echo "the trace is t.trace" > "$i95_z/README"
	(cd "$i95_z" && zip -q one.zip t.trace README && zip -q two.zip t.trace t2.trace)
	"$GFXSTAT" frames "$i95_z/one.zip" > "$i95_z/one.csv" 2> "$i95_z/err"
	i95_rc=$?
	if grep -q 'cannot read zip' "$i95_z/err"; then
		skip "zip: this build has no libzip ($(head -1 "$i95_z/err"))"
	else
		# a trace and a README: the trace is read, the same frames as the trace itself
		"$GFXSTAT" frames "$i95_ex" > "$i95_z/ex.csv" 2> /dev/null
		[ $i95_rc -eq 0 ] && [ -s "$i95_z/one.csv" ] && cmp -s "$i95_z/one.csv" "$i95_z/ex.csv" &&
			pass || fail "zip with a trace and a README: exit $i95_rc, frames differ"
		# two traces: none read, exit 3, the archive's members named by unwrap
		"$GFXSTAT" analyze "$i95_z/two.zip" > /dev/null 2> "$i95_z/err"
		i95_rc=$?
		[ $i95_rc -eq 3 ] && grep -q 'several traces' "$i95_z/err" && pass ||
			fail "zip with two traces: exit $i95_rc, $(cat "$i95_z/err")"
		"$GFXSTAT" unwrap "$i95_z/two.zip" > /dev/null 2> "$i95_z/err"
		grep -q 'zip members: t.trace, t2.trace' "$i95_z/err" && pass ||
			fail "unwrap of a zip with two traces names no members: $(cat "$i95_z/err")"
		# damaged: cut before its central directory, from a file and from a pipe
		head -c 4000 "$i95_z/one.zip" > "$i95_z/cut.zip"
		"$GFXSTAT" frames "$i95_z/cut.zip" > /dev/null 2> "$i95_z/err"
		i95_rc=$?
		[ $i95_rc -eq 3 ] && grep -q 'damaged zip' "$i95_z/err" && pass ||
			fail "damaged zip: exit $i95_rc, $(cat "$i95_z/err")"
		cat "$i95_z/cut.zip" | "$GFXSTAT" inspect - > /dev/null 2> "$i95_z/err"
		i95_rc=$?
		[ $i95_rc -eq 3 ] && grep -q 'damaged zip' "$i95_z/err" && pass ||
			fail "damaged zip on a pipe: exit $i95_rc, $(cat "$i95_z/err")"
		# the real samples: the same frames as their unzipped HTML, from the file and a pipe
		i95_s=$SAMPLES/systrace_html/Gracker-SystraceForBlog
		if [ ! -d "$i95_s" ] || ! command -v unzip > /dev/null 2>&1; then
			skip "zip samples: $i95_s (or unzip) is absent"
		else
			for i95_f in "$i95_s"/*.zip; do
				i95_n=$(basename "$i95_f")
				unzip -p "$i95_f" > "$i95_z/s.html"
				"$GFXSTAT" frames "$i95_z/s.html" > "$i95_z/html.csv" 2> /dev/null
				"$GFXSTAT" frames "$i95_f" > "$i95_z/zip.csv" 2> /dev/null
				i95_rc=$?
				[ $i95_rc -eq 0 ] && [ "$(wc -l < "$i95_z/zip.csv")" -gt 50 ] &&
					cmp -s "$i95_z/html.csv" "$i95_z/zip.csv" && pass ||
					fail "$i95_n: exit $i95_rc, frames differ from the unzipped HTML"
			done
			cat "$i95_f" | "$GFXSTAT" frames - > "$i95_z/pipe.csv" 2> /dev/null
			cmp -s "$i95_z/pipe.csv" "$i95_z/zip.csv" && pass ||
				fail "$i95_n on a pipe: frames differ from the file's"
		fi
	fi
fi
