// SPDX-License-Identifier: MIT
#include "ui/state/setting.h"

#include <QFile>
#include <QFileInfo>
#include <QUtf8StringView>

namespace kvscope::settings {

namespace {

/// Longest value a report shows: a path in full, a geometry blob cut short.
constexpr qsizetype MaxShownCharacters = 160;

QString plainText(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::QByteArray: {
        const QByteArray bytes = value.toByteArray();
        const QString text = QString::fromUtf8(bytes);
        // Binary data (a geometry blob) as hex, text as text.
        return text.toUtf8() == bytes ? text : QString::fromLatin1(bytes.toHex());
    }
    case QMetaType::QStringList:
        return value.toStringList().join(QStringLiteral(", "));
    case QMetaType::QVariantList: {
        QStringList parts;
        for (const QVariant &item : value.toList())
            parts << plainText(item);
        return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    case QMetaType::QVariantMap: {
        QStringList parts;
        const QVariantMap map = value.toMap();
        for (auto it = map.cbegin(); it != map.cend(); ++it)
            parts << it.key() + QStringLiteral(": ") + plainText(it.value());
        return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
    }
    default:
        return value.toString();
    }
}

/// Whether the file holds bytes no settings file does: QSettings writes UTF-8 text and
/// escapes every control character but the line breaks, yet it reads binary junk
/// without an error (as keys nobody knows), which would pass for an empty file.
bool holdsBinaryData(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return false;
    QFile file(path);
    constexpr qint64 MaxCheckedBytes = 1 << 20;
    if (!file.open(QIODevice::ReadOnly))
        return false; // QSettings reports what it cannot read
    const QByteArray bytes = file.read(MaxCheckedBytes);
    for (const char c : bytes)
        if ((uchar(c) < 0x20 && c != '\n' && c != '\r' && c != '\t') || uchar(c) == 0x7f)
            return true;
    return !QUtf8StringView(bytes).isValidUtf8();
}

} // namespace

SettingsReader::SettingsReader()
{
    if (m_settings.status() != QSettings::NoError) {
        m_readable = false;
        reportAll(QStringLiteral("settings file %1 is unreadable; starting with defaults")
                      .arg(m_settings.fileName()));
    } else {
        m_binaryData = holdsBinaryData(m_settings.fileName());
    }
}

QVariant SettingsReader::saved(const char *key) const
{
    QVariant value = m_readable ? m_settings.value(QLatin1String(key)) : QVariant();
    m_foundKey = m_foundKey || value.isValid();
    return value;
}

QStringList SettingsReader::problems() const
{
    // Binary bytes alone may be a damaged line among good ones (each reported by its key);
    // binary bytes and no key kvscope knows is a file that is no settings file at all.
    if (m_binaryData && !m_foundKey)
        return QStringList{QStringLiteral("settings file %1 holds binary data, not a settings file; "
                                          "starting with defaults")
                               .arg(m_settings.fileName())} +
               m_problems;
    return m_problems;
}

int SettingsReader::beginReadArray(const char *key)
{
    return m_settings.beginReadArray(QLatin1String(key));
}

void SettingsReader::setArrayIndex(int index)
{
    m_settings.setArrayIndex(index);
}

void SettingsReader::endArray()
{
    m_settings.endArray();
}

void SettingsReader::report(const char *key, const QVariant &value, const QString &reason)
{
    const QString group = m_settings.group();
    const QString name = group.isEmpty() ? QLatin1String(key) : group + QLatin1Char('/') + QLatin1String(key);
    m_problems << problemLine(name, value, reason);
}

namespace {

/// "key = 'value' <what became of it>: reason".
QString reportLine(const QString &key, const QVariant &value, QLatin1String fate, const QString &reason)
{
    return QStringLiteral("%1 = '%2' %3: %4").arg(key, displayValue(value), fate, reason);
}

} // namespace

QString problemLine(const QString &key, const QVariant &value, const QString &reason)
{
    return reportLine(key, value, QLatin1String("ignored"), reason);
}

QString keptLine(const QString &key, const QVariant &value, const QString &reason)
{
    return reportLine(key, value, QLatin1String("kept"), reason);
}

void SettingsReader::reportAll(const QString &problem)
{
    const QString group = m_settings.group();
    m_problems << (group.isEmpty() ? problem : group + QStringLiteral(": ") + problem);
}

void clearAll()
{
    QSettings settings;
    settings.clear();
    settings.sync();
}

QString SettingsReader::unreadableValueReason()
{
    return QStringLiteral("the stored value cannot be read");
}

QString displayValue(const QVariant &value)
{
    QString text = plainText(value);
    // One line: control characters (a corrupt file's bytes, newlines) become '?'.
    for (QChar &c : text)
        if (c.category() == QChar::Other_Control)
            c = QLatin1Char('?');
    if (text.size() > MaxShownCharacters)
        text = text.left(MaxShownCharacters - 1) + QChar(0x2026);
    return text;
}

} // namespace kvscope::settings
