#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate the man pages from gfxstat's own --help text with Debian's help2man, so they stay
# true as commands and options change (mk/install.mk runs this at build time):
# gfxstat(1) from 'gfxstat --help', gfxstat-CMD(1) from 'gfxstat CMD --help' for every
# command that 'gfxstat --help' lists.
# usage: man/gen.sh GFXSTAT OUTDIR VERSION
set -eu
G=$1
OUT=$2
VERSION=$3
command -v help2man > /dev/null 2>&1 ||
	{ echo "gfxstat: error: help2man not found; run scripts/deps.sh" >&2; exit 1; }
case $G in /*) ;; *) G=$(pwd)/$G ;; esac
mkdir -p "$OUT/.bin"
rm -f "$OUT"/*.1

cmds=$("$G" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { n = $1; sub(/^  [^ ]+ +/, ""); print n "\t" $0 }')
[ -n "$cmds" ] || { echo "gen.sh: no commands in '$G --help'" >&2; exit 1; }

# help2man runs a program with --help: one small wrapper per page. "usage:" is capitalised
# so that help2man makes it the SYNOPSIS.
wrapper() { # wrapper NAME ARGS...
	w=$OUT/.bin/$1
	shift
	{
		echo '#!/bin/sh'
		echo "out=\$('$G' $* --help) || exit 1"
		echo "printf '%s\\n' \"\$out\" | sed '1s/^usage:/Usage:/'"
	} > "$w"
	chmod +x "$w"
	echo "$w"
}

page() { # page NAME SUMMARY INCLUDE ARGS...
	name=$1 summary=$2 inc=$3
	shift 3
	help2man -N -s 1 -S "gfxstat $VERSION" -m "gfxstat manual" --version-string="$VERSION" \
		-n "$summary" -i "$inc" -o "$OUT/$name.1" "$(wrapper "$name" "$@")"
}

see_main=$OUT/.bin/see-main.h2m
# the exit-status table of 'gfxstat --help' ("exit status:", then "  N  text" rows) as a list
codes=$("$G" --help | awk '/^exit status:$/ { t = 1; next } t && /^  [0-9] / {
	c = $1; $1 = ""; sub(/^ +/, ""); print ".TP\n.B " c "\n" $0; next } t { t = 0 }')
{
	[ -z "$codes" ] || printf '[EXIT STATUS]\n%s\n' "$codes"
	echo "[SEE ALSO]"
	echo "$cmds" | cut -f1 | awk '{ printf "%s\\fBgfxstat-%s\\fR(1)", (NR > 1 ? ",\n" : ""), $1 }
		END { print "" }'
} > "$see_main"
see_cmd=$OUT/.bin/see-cmd.h2m
printf '[SEE ALSO]\n\\fBgfxstat\\fR(1)\n' > "$see_cmd"

page gfxstat "frame rate and jank of Android apps, from traces and dumps" "$see_main"
echo "$cmds" | while IFS="$(printf '\t')" read -r c s; do
	page "gfxstat-$c" "$s" "$see_cmd" "$c"
done
