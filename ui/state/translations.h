// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

namespace kvscope::translations {

/// Languages the UI ships: "en" and "zh_CN".
QStringList available();

/// Installs the translators for `code` ("en", "zh_CN"; empty = the system
/// locale) and removes the previous ones; widgets retranslate on the
/// LanguageChange event this sends. Returns the language in effect.
QString apply(const QString &code);

/// The language apply() put in effect last.
QString current();

/// "English", "简体中文".
QString displayName(const QString &code);

} // namespace kvscope::translations
