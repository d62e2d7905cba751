# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# Shared set-up for scripts/run and scripts/test: install what is missing,
# configure once, build incrementally. Sourced, not executed.

set -euo pipefail

KVSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
KVSCOPE_BUILD="${KVSCOPE_BUILD_DIR:-$KVSCOPE_ROOT/build}"
KVSCOPE_CONFIGURE_OPTIONS=()

# Debian 12 / Ubuntu packages. qt6-charts-dev's CMake config needs
# libqt6opengl6-dev; xvfb, xauth and the CJK fonts are for screenshots and
# for drawing the Chinese UI in offscreen tests; clang-format (14 on Debian 12)
# for scripts/format; clang for the sanitizer build and the fuzzers, clang-tidy
# for scripts/tidy; lld for fast links (without it CMake links with ld);
# dpkg-dev (dpkg-shlibdeps), appstream and desktop-file-utils for the package
# test; ccache so that a rebuild after switching branches or clones recompiles
# only what changed (CMakeLists.txt sets it up for the precompiled headers);
# qt6-translations-l10n for Qt's own words (Close, OK, Cancel) in Chinese.
KVSCOPE_PACKAGES=(
    build-essential cmake ninja-build pkg-config lld ccache
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libxkbcommon-dev libgl-dev
    xvfb xauth fonts-noto-cjk clang clang-format clang-tidy
    dpkg-dev appstream desktop-file-utils qt6-translations-l10n
    libeigen3-dev
)

kvscope_missing_packages() {
    local pkg missing=()
    for pkg in "${KVSCOPE_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    echo "${missing[@]:-}"
}

kvscope_install_dependencies() {
    local missing
    missing="$(kvscope_missing_packages)"
    [[ -z "${missing// /}" ]] && return 0

    if ! command -v apt-get >/dev/null; then
        echo "kvscope: missing packages ($missing) and no apt-get to install them" >&2
        exit 1
    fi
    local sudo=()
    if [[ "$(id -u)" -ne 0 ]]; then
        if ! command -v sudo >/dev/null; then
            echo "kvscope: missing packages ($missing); run as root or install sudo" >&2
            exit 1
        fi
        sudo=(sudo)
    fi
    echo "kvscope: installing $missing"
    # shellcheck disable=SC2086
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # shellcheck disable=SC2086
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

# Configures once; KVSCOPE_WERROR=ON (set by CI) makes warnings errors.
# ccache is used when it is installed. KVSCOPE_UNITY=ON compiles each
# library's sources as a few large files (a clean build in about half the
# time; CI uses it), KVSCOPE_BENCHMARKS=OFF leaves out tests/benchmarks.
kvscope_build() {
    local options=(-DKVSCOPE_WERROR="${KVSCOPE_WERROR:-OFF}")
    if [[ ! -f "$KVSCOPE_BUILD/build.ninja" ]]; then
        options+=(-G Ninja -DCMAKE_BUILD_TYPE="${KVSCOPE_BUILD_TYPE:-RelWithDebInfo}"
            -DCMAKE_UNITY_BUILD="${KVSCOPE_UNITY:-OFF}")
        if [[ -n "${KVSCOPE_BENCHMARKS:-}" ]]; then
            options+=(-DKVSCOPE_BUILD_BENCHMARKS="$KVSCOPE_BENCHMARKS")
        fi
        if command -v ccache >/dev/null; then
            options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
        fi
        # Further -D options, space-separated (CI: .ci/run).
        local extra=()
        read -ra extra <<<"${KVSCOPE_CMAKE_OPTIONS:-}"
        options+=("${extra[@]}")
        cmake -S "$KVSCOPE_ROOT" -B "$KVSCOPE_BUILD" "${options[@]}" "${KVSCOPE_CONFIGURE_OPTIONS[@]}" >/dev/null
    elif [[ -n "${KVSCOPE_WERROR:-}" ]]; then
        cmake "$KVSCOPE_BUILD" "${options[@]}" >/dev/null
    fi
    cmake --build "$KVSCOPE_BUILD" -j "${KVSCOPE_JOBS:-2}" "$@"
}
