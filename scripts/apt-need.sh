# SPDX-License-Identifier: MIT
# Sourced by scripts/deps.sh and scripts/deps.d/*.sh: install the Debian packages a part
# needs, only what is missing, quietly, as root.
#   apt_need "what for" PKG[=VERSION]...
# A pinned version that the archive no longer has falls back to the package's current build.
# Returns 0 when installed (or nothing to do); prints what to run and returns 1 otherwise.
apt_need() {
	an_for=$1
	shift
	[ $# -eq 0 ] && return 0
	an_list=" $*"
	echo "gfxstat: installing ($an_for):$an_list" >&2
	if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null 2>&1; then
		echo "gfxstat: error: missing packages:$an_list; install them with:" \
			"apt-get install$an_list" >&2
		return 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	apt-get install -y -q "$@" > /dev/null 2>&1 ||
		{ apt-get update -q > /dev/null 2>&1 && apt-get install -y -q "$@" > /dev/null 2>&1; } ||
		apt-get install -y -q $(echo "$an_list" | sed 's/=[^ ]*//g') > /dev/null || {
		echo "gfxstat: error: apt-get could not install:$an_list" >&2
		return 1
	}
}
