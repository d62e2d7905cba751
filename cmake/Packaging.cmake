# SPDX-License-Identifier: MIT
# `cpack -G DEB` in the build directory makes a Debian package of what
# `cmake --install` installs. Its dependencies come from the libraries the
# binary really links (dpkg-shlibdeps, package dpkg-dev), not from a list.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kvscope)
set(CPACK_PACKAGE_VENDOR "The kvscope authors")
set(CPACK_PACKAGE_CONTACT "The kvscope authors <kvscope@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "LLM serving memory planner: weights, KV cache, capacity, speed and quantization error")
set(CPACK_PACKAGE_DESCRIPTION
    "kvscope answers whether a large language model fits on a GPU at a given weight and KV-cache\n"
    "precision, how many tokens and concurrent requests its KV cache holds, how fast it decodes\n"
    "and what quantization costs, accounting for memory the way vLLM does. A Qt desktop\n"
    "application with a scriptable command line.")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/kvscope/kvscope")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Qt's own words (Close, OK, Cancel) in the interface's language: ui/state/translations.cpp loads qtbase_*.qm.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS qt6-translations-l10n)
include(CPack)
