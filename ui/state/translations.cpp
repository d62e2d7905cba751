// SPDX-License-Identifier: MIT
#include "ui/state/translations.h"

#include <memory>

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace kvscope::translations {

namespace {
std::unique_ptr<QTranslator> appTranslator;
std::unique_ptr<QTranslator> qtTranslator;
QString currentCode = QStringLiteral("en");
} // namespace

QString current()
{
    return currentCode;
}

QStringList available()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString displayName(const QString &code)
{
    if (code == QLatin1String("zh_CN"))
        return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString apply(const QString &requested)
{
    QString code = requested;
    if (code.isEmpty())
        code = QLocale::system().name().startsWith(QLatin1String("zh")) ? QStringLiteral("zh_CN")
                                                                        : QStringLiteral("en");
    if (!available().contains(code))
        code = QStringLiteral("en");

    for (auto *translator : {&appTranslator, &qtTranslator}) {
        if (*translator) {
            QCoreApplication::removeTranslator(translator->get());
            translator->reset();
        }
    }
    if (code != QLatin1String("en")) {
        appTranslator = std::make_unique<QTranslator>();
        if (appTranslator->load(QStringLiteral(":/i18n/kvscope_") + code))
            QCoreApplication::installTranslator(appTranslator.get());
        // Qt's own strings (standard dialogs, context menus), when the system has them.
        qtTranslator = std::make_unique<QTranslator>();
        if (qtTranslator->load(QStringLiteral("qtbase_") + code,
                               QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qtTranslator.get());
    }
    // Figures on screen group their digits as the language does; the system's own
    // conventions where it speaks that language (en_GB under English, say).
    const QLocale language(code == QLatin1String("en") ? QStringLiteral("en_US") : code);
    QLocale::setDefault(QLocale::system().language() == language.language() ? QLocale::system() : language);
    currentCode = code;
    return code;
}

} // namespace kvscope::translations
