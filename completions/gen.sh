#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate bash and zsh completion for gfxstat from its own --help text, so the completions
# stay true as commands and options change (mk/install.mk runs this at build time).
# usage: completions/gen.sh GFXSTAT OUTDIR   -> OUTDIR/gfxstat (bash), OUTDIR/_gfxstat (zsh)
set -eu
G=$1
OUT=$2
mkdir -p "$OUT"
TAB=$(printf '\t')
US=$(printf '\037') # separates an option's fields: unlike a tab, never merged when empty

# "name<TAB>summary" per command, from the command table in 'gfxstat --help'
cmds=$("$G" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { n = $1; sub(/^  [^ ]+ +/, ""); print n "\t" $0 }')
[ -n "$cmds" ] || { echo "gen.sh: no commands in '$G --help'" >&2; exit 1; }

# "short US long US arg US help" per option of a command: every line of its --help that
# starts with an option, as cli_help() lays them out ("  -o, --output FILE   help")
opts_of() {
	"$G" "$1" --help | awk '
	/^ +(-[A-Za-z0-9], +)?--[A-Za-z0-9][A-Za-z0-9-]*/ {
		line = $0; sub(/^ +/, "", line); s = ""
		if (line ~ /^-[A-Za-z0-9], /) { s = substr(line, 2, 1); sub(/^-., +/, "", line) }
		l = line; sub(/ .*/, "", l); sub(/^--/, "", l); rest = substr(line, length(l) + 3)
		a = ""
		if (rest ~ /^ [^ ]/) {
			a = substr(rest, 2); sub(/ .*/, "", a); rest = substr(rest, length(a) + 2)
		}
		sub(/^ +/, "", rest)
		if (!(l in seen)) { seen[l] = 1; print s "\037" l "\037" a "\037" rest }
	}'
}

# --- bash ---------------------------------------------------------------------------------
{
	echo "# bash completion for gfxstat: generated from 'gfxstat --help' by completions/gen.sh"
	echo "_gfxstat()"
	echo "{"
	echo "	local cur prev cmd i opts= args= vals="
	echo "	cur=\${COMP_WORDS[COMP_CWORD]}"
	echo "	prev=\${COMP_WORDS[COMP_CWORD-1]}"
	echo "	cmd="
	echo "	for ((i = 1; i < COMP_CWORD; i++)); do"
	echo "		case \${COMP_WORDS[i]} in -*) ;; *) cmd=\${COMP_WORDS[i]}; break ;; esac"
	echo "	done"
	printf '	local cmds="%s"\n' "$(echo "$cmds" | cut -f1 | tr '\n' ' ' | sed 's/ $//')"
	echo "	if [[ -z \$cmd || \$cmd == help && \$COMP_CWORD -eq \$((i + 1)) ]]; then"
	echo "		[[ \$cur == -* && -z \$cmd ]] && cmds=\"--help --version\""
	echo "		COMPREPLY=(\$(compgen -W \"\$cmds\" -- \"\$cur\"))"
	echo "		return"
	echo "	fi"
	echo "	case \$cmd in"
	echo "$cmds" | cut -f1 | while read -r c; do
		o=$(opts_of "$c")
		flags=$(echo "$o" | awk -F"$US" 'NF { printf "%s--%s", (n++ ? " " : ""), $2;
			if ($1 != "") printf " -%s", $1 }')
		withargs=$(echo "$o" | awk -F"$US" '$3 != "" { printf "%s--%s", (n++ ? " " : ""), $2;
			if ($1 != "") printf " -%s", $1 }')
		printf '	%s)\n		opts="%s --help"\n		args="%s"\n' "$c" "$flags" "$withargs"
		# an argument written "a|b|c" in --help is a choice of those words
		echo "$o" | awk -F"$US" '$3 ~ /^[a-z0-9]+(\|[a-z0-9]+)+$/ {
			v = $3; gsub(/\|/, " ", v); p = "--" $2; if ($1 != "") p = p "|-" $1
			printf "\t\tcase $prev in %s) vals=\"%s\" ;; esac\n", p, v }'
		echo "		;;"
	done
	echo "	esac"
	echo "	if [[ -n \$vals ]]; then"
	echo "		COMPREPLY=(\$(compgen -W \"\$vals\" -- \"\$cur\"))"
	echo "	elif [[ \" \$args \" == *\" \$prev \"* ]]; then"
	echo "		COMPREPLY=() # an option's value: files, by bash's default completion"
	echo "	elif [[ \$cur == -* ]]; then"
	echo "		COMPREPLY=(\$(compgen -W \"\$opts\" -- \"\$cur\"))"
	echo "	fi"
	echo "}"
	echo "complete -o default -F _gfxstat gfxstat"
} > "$OUT/gfxstat.tmp"
mv "$OUT/gfxstat.tmp" "$OUT/gfxstat"

# --- zsh ----------------------------------------------------------------------------------
# quote for a single-quoted _arguments spec: brackets and colons escaped, ' closed and reopened
zq() {
	printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/\[/\\[/g' -e 's/\]/\\]/g' -e 's/:/\\:/g' \
		-e "s/'/'\\\\''/g"
}
{
	echo "#compdef gfxstat"
	echo "# zsh completion for gfxstat: generated from 'gfxstat --help' by completions/gen.sh"
	echo "local -a cmds"
	echo "cmds=("
	echo "$cmds" | while IFS="$TAB" read -r c s; do
		printf "\t'%s:%s'\n" "$c" "$(zq "$s")"
	done
	echo ")"
	echo "if (( CURRENT == 2 )); then"
	echo "	_describe -t commands 'gfxstat command' cmds"
	echo "	return"
	echo "fi"
	echo "case \$words[2] in"
	echo "help) _describe -t commands 'gfxstat command' cmds ;;"
	echo "$cmds" | cut -f1 | while read -r c; do
		printf '%s)\n\t_arguments -S \\\n' "$c"
		opts_of "$c" | while IFS="$US" read -r s l a h; do
			[ -n "$l" ] || continue
			h=$(zq "$h")
			act=""
			if [ -n "$a" ]; then
				case $a in
				*'|'*) act=":$(zq "$a"):($(echo "$a" | tr '|' ' '))" ;;
				*FILE* | *PATH*) act=":$(zq "$a"):_files" ;;
				*DIR*) act=":$(zq "$a"):_files -/" ;;
				*) act=":$(zq "$a"): " ;; # a value to type: the name only

				esac
			fi
			if [ -n "$s" ]; then
				printf "\t\t'(-%s --%s)'{-%s,--%s}'[%s]%s' \\\\\n" "$s" "$l" "$s" "$l" "$h" "$act"
			else
				printf "\t\t'--%s[%s]%s' \\\\\n" "$l" "$h" "$act"
			fi
		done
		printf "\t\t'(- *)--help[describe the command]' \\\\\n\t\t'*:input:_files'\n\t;;\n"
	done
	echo "esac"
} > "$OUT/_gfxstat.tmp"
mv "$OUT/_gfxstat.tmp" "$OUT/_gfxstat"
