#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the .deb with CPack, unpacks it into a scratch root (dpkg -x: no root
# rights, no container) and runs the installed kvscope from there: the CLI
# (calc --json) and the window (--screenshot, offscreen). Also checks what
# `cmake --install` lays out, the package's declared dependencies, and
# validates the desktop entry and AppStream metainfo where the validators exist.
#   check_package.sh BUILD_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

fail() { echo "check_package: $*" >&2; exit 1; }

for tool in cpack dpkg-deb dpkg-shlibdeps; do
    command -v "$tool" >/dev/null || fail "needs $tool (Debian packages cmake, dpkg-dev)"
done

# 1. cmake --install into a prefix: the standard places.
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
for path in bin/kvscope \
            share/applications/io.github.kvscope.desktop \
            share/metainfo/io.github.kvscope.metainfo.xml \
            share/mime/packages/io.github.kvscope.mime.xml \
            share/icons/hicolor/scalable/apps/kvscope.svg \
            share/icons/hicolor/48x48/apps/kvscope.png \
            share/icons/hicolor/256x256/apps/kvscope.png; do
    [[ -e "$scratch/prefix/$path" ]] || fail "cmake --install did not install $path"
done

# 2. The Debian package.
(cd "$scratch" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch/deb" >/dev/null) ||
    fail "cpack -G DEB failed"
deb="$(ls "$scratch"/deb/kvscope_*.deb 2>/dev/null | head -1)"
[[ -n "$deb" ]] || fail "cpack made no kvscope_*.deb"
depends="$(dpkg-deb -f "$deb" Depends)"
for library in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6; do
    [[ "$depends" == *"$library"* ]] || fail "Depends ($depends) lacks $library, which kvscope links"
done

# 3. Unpack into a scratch root and run what it installed.
dpkg -x "$deb" "$scratch/root"
kvscope="$scratch/root/usr/bin/kvscope"
[[ -x "$kvscope" ]] || fail "the package has no usr/bin/kvscope"
json="$("$kvscope" calc --model llama-3.1-8b --gpu h100-sxm --json)"
# Llama-3.1-8B: 32 layers x 2 x 8 KV heads x 128 x 2 B = 131,072 B per token.
[[ "$json" == *'"kv_bytes_per_token": 131072'* ]] || fail "installed calc --json is wrong: ${json:0:200}"
"$kvscope" --version | grep -q '^kvscope [0-9]' || fail "installed --version prints no version"
XDG_CONFIG_HOME="$scratch/config" QT_QPA_PLATFORM=offscreen \
    "$kvscope" --screenshot "$scratch/window.png" --size 1280x720 2>/dev/null ||
    fail "installed --screenshot failed"
[[ "$(head -c 8 "$scratch/window.png" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]] ||
    fail "installed --screenshot wrote no PNG"

# 4. The desktop files, where the validators are installed.
share="$scratch/root/usr/share"
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$share/applications/io.github.kvscope.desktop" || fail "desktop entry invalid"
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$share/metainfo/io.github.kvscope.metainfo.xml" >/dev/null ||
        fail "AppStream metainfo invalid"
fi
echo "check_package: $(basename "$deb") installs and runs; Depends: $depends"
