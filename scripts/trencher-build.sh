#!/bin/sh
# trencher-build.sh [DIR] — build the reference TSO robustness tool
# (Trencher) into DIR (default $HOME/.cache/pgasrob/trencher), to run the
# speed comparisons of docs/tso.md against it. Idempotent: an existing
# DIR/bin/trencher is kept. Prints the binary's path on success; exits 1
# with a message when something is missing and cannot be installed.
#
# The source comes from TRENCHER_SRC (a source tree), else from the git
# directory TRENCHER_GIT (default: the machine's mirror of yegord/trencher).
# cmake and the Boost headers are installed with apt-get when absent and we
# are root. Use with PGASROB_TRENCHER=DIR/bin/trencher (tso benchmarks).
set -eu

die() { echo "trencher-build: $*" >&2; exit 1; }

dir=${1:-${HOME:-/tmp}/.cache/pgasrob/trencher}
bin=$dir/bin/trencher
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

need_pkgs=""
command -v cmake >/dev/null 2>&1 || need_pkgs="$need_pkgs cmake"
command -v make >/dev/null 2>&1 || need_pkgs="$need_pkgs make"
command -v g++ >/dev/null 2>&1 || command -v c++ >/dev/null 2>&1 || need_pkgs="$need_pkgs g++"
[ -f /usr/include/boost/version.hpp ] || need_pkgs="$need_pkgs libboost-dev"
if [ -n "$need_pkgs" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq >&2 || die "apt-get update failed"
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need_pkgs >&2 ||
			die "cannot install$need_pkgs"
	else
		die "missing$need_pkgs (install them, or run as root on a Debian-like system)"
	fi
fi

mkdir -p "$dir" || die "cannot create $dir"
src=${TRENCHER_SRC:-}
if [ -z "$src" ]; then
	git=${TRENCHER_GIT:-/work/.mirror/yegord+trencher/repo}
	[ -d "$git" ] || die "no source: set TRENCHER_SRC to a source tree or TRENCHER_GIT to a git directory ($git does not exist)"
	src=$dir/src
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$git" archive HEAD | tar -x -C "$src" || die "cannot extract the source from $git"
fi
[ -f "$src/src/CMakeLists.txt" ] || die "$src does not look like Trencher's source (no src/CMakeLists.txt)"

build=$dir/build
mkdir -p "$build"
(cd "$build" && cmake -DCMAKE_BUILD_TYPE=Release "$src/src" >&2) || die "cmake failed (see above)"
make -C "$build" -j"$(nproc 2>/dev/null || echo 1)" >&2 || die "compilation failed (see above)"
[ -x "$build/trencher/trencher" ] || die "the build produced no trencher binary"
mkdir -p "$dir/bin"
cp "$build/trencher/trencher" "$bin"
echo "$bin"
