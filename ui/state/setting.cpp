// SPDX-License-Identifier: MIT
#include "ui/state/setting.h"

#include "core/common/regularfile.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
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

/// Array steps on settings that may be absent (a refused or unreadable file): then nothing.
void setIndexIn(std::optional<QSettings> &settings, int index)
{
    if (settings)
        settings->setArrayIndex(index);
}

void endArrayIn(std::optional<QSettings> &settings)
{
    if (settings)
        settings->endArray();
}

} // namespace

SettingsFile settingsFile()
{
    // Where QSettings() keeps them on Linux; named here so that the file is
    // looked at before any QSettings reads it.
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    SettingsFile file;
    file.path = QStringLiteral("%1/%2/%3.conf")
                    .arg(folder.isEmpty() ? QDir::homePath() : folder, QCoreApplication::organizationName(),
                         QCoreApplication::applicationName());
    const QString kind = notRegularFileDescription(file.path);
    if (!kind.isEmpty()) {
        file.refusal = QStringLiteral("settings file %1 is %2, not a regular file; settings are neither "
                                      "read nor saved (starting with defaults)")
                           .arg(file.path, kind);
        return file;
    }
    // Saving writes a new file (through a link, beside its target) and renames it over the old one.
    const QFileInfo info(file.path);
    if (info.exists()) {
        const QFileInfo target(info.canonicalFilePath());
        file.readOnly = !target.isWritable() || !QFileInfo(target.absolutePath()).isWritable();
    }
    return file;
}

SettingsReader::SettingsReader()
{
    const SettingsFile file = settingsFile();
    m_fileName = file.path;
    if (!file.refusal.isEmpty()) {
        reportAll(file.refusal);
        return;
    }
    m_settings.emplace(file.path, QSettings::IniFormat);
    if (m_settings->status() != QSettings::NoError) {
        m_settings.reset();
        reportAll(QStringLiteral("settings file %1 is unreadable; starting with defaults").arg(file.path));
        return;
    }
    m_binaryData = holdsBinaryData(file.path);
    if (file.readOnly)
        reportAll(QStringLiteral("settings file %1 is read-only; changes are not saved").arg(file.path));
}

QVariant SettingsReader::saved(const char *key) const
{
    QVariant value = m_settings ? m_settings->value(QLatin1String(key)) : QVariant();
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
                               .arg(m_fileName)} +
               m_problems;
    return m_problems;
}

int SettingsReader::beginReadArray(const char *key)
{
    return m_settings ? m_settings->beginReadArray(QLatin1String(key)) : 0;
}

void SettingsReader::setArrayIndex(int index)
{
    setIndexIn(m_settings, index);
}

void SettingsReader::endArray()
{
    endArrayIn(m_settings);
}

QString SettingsReader::group() const
{
    return m_settings ? m_settings->group() : QString();
}

void SettingsReader::report(const char *key, const QVariant &value, const QString &reason)
{
    const QString name =
        group().isEmpty() ? QLatin1String(key) : group() + QLatin1Char('/') + QLatin1String(key);
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
    m_problems << (group().isEmpty() ? problem : group() + QStringLiteral(": ") + problem);
}

namespace {

/// A settings file kvscope may write, or nullopt.
std::optional<QString> writablePath()
{
    const SettingsFile file = settingsFile();
    if (!file.refusal.isEmpty() || file.readOnly)
        return std::nullopt;
    return file.path;
}

bool isEmptyList(const QVariant &value)
{
    return (value.typeId() == QMetaType::QVariantList || value.typeId() == QMetaType::QStringList) &&
           value.toList().isEmpty();
}

/// Sets `key`. QSettings writes an empty list as "@Invalid()", which reads back as
/// no value at all (reported as unreadable): when the default is empty too, no key says the same.
void storeValue(QSettings &settings, const char *key, const QVariant &value, const QVariant &defaultValue)
{
    if (isEmptyList(value) && isEmptyList(defaultValue))
        settings.remove(QLatin1String(key));
    else
        settings.setValue(QLatin1String(key), value);
}

/// When `path` was last modified, in milliseconds since the epoch (0 when it is not there).
qint64 modifiedMs(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() ? info.lastModified().toMSecsSinceEpoch() : 0;
}

/// Sets the modification time of `path` to `ms`.
void setModifiedMs(const QString &path, qint64 ms)
{
    QFile file(path);
    if (file.open(QIODevice::ReadWrite))
        file.setFileTime(QDateTime::fromMSecsSinceEpoch(ms), QFileDevice::FileModificationTime);
}

/// QSettings (Qt 6.4) reads a file again only when its size or modification time (to
/// the millisecond) differs from what it kept with its last read, and a process can
/// keep older content with the newer size and time (seen: a change under the lock
/// read a custom-GPU list one entry shorter than the file it found, and undid another
/// process's save). So before a change reads the file under the lock, the file gets a
/// modification time later than any it has had, which no process can have kept, and
/// the change reads what is there. Returns that time (0 when there is no file yet).
qint64 giveUnseenTime(const QString &path)
{
    const qint64 lastChangeMs = modifiedMs(path);
    if (lastChangeMs == 0)
        return 0; // nothing kept can be stale
    const qint64 unseenMs = std::max(lastChangeMs + 1, QDateTime::currentMSecsSinceEpoch());
    setModifiedMs(path, unseenMs);
    return unseenMs;
}

/// The save's time can be earlier than the one given before it (the kernel stamps files
/// with a coarse clock): it is moved past it, so that the file's times only increase.
void keepTimesIncreasing(const QString &path, qint64 timeBeforeSaveMs)
{
    if (modifiedMs(path) <= timeBeforeSaveMs)
        setModifiedMs(path, timeBeforeSaveMs + 1);
}

/// Runs `save` on the settings file `path` under the change lock, the file's
/// times unseen before it and increasing after it. Not QSettings' own
/// "<file>.lock", which its sync() takes and a second QLockFile of this process
/// would wait on.
void saveUnderChangeLock(const QString &path, const std::function<void()> &save)
{
    QLockFile lock(path + QStringLiteral(".change.lock"));
    // Waited for however long the others take (eight processes under the sanitizers took
    // over 10 s, and a change saved without the lock undid another's): QLockFile takes
    // over the lock of a process that is gone, or one older than its stale time (30 s), so
    // no wait is endless. Should locking fail outright, the change is saved all the same.
    lock.lock();
    const qint64 timeBeforeSaveMs = giveUnseenTime(path);
    save();
    keepTimesIncreasing(path, timeBeforeSaveMs);
}

} // namespace

SettingsWriter::SettingsWriter()
{
    if (const std::optional<QString> path = writablePath())
        m_settings.emplace(*path, QSettings::IniFormat);
}

void SettingsWriter::store(const char *key, const QVariant &value, const QVariant &defaultValue)
{
    if (m_settings)
        storeValue(*m_settings, key, value, defaultValue);
}

SettingsWriter::~SettingsWriter()
{
    sync(); // not left to QSettings' destructor, which saves without the change lock
}

void SettingsWriter::sync()
{
    if (m_settings)
        saveUnderChangeLock(m_settings->fileName(), [this] { m_settings->sync(); });
}

void SettingsWriter::clear()
{
    if (m_settings)
        m_settings->clear();
}

void SettingsWriter::beginWriteArray(const char *key)
{
    if (!m_settings)
        return;
    m_settings->remove(QLatin1String(key));
    m_settings->beginWriteArray(QLatin1String(key));
}

void SettingsWriter::setArrayIndex(int index)
{
    setIndexIn(m_settings, index);
}

void SettingsWriter::endArray()
{
    endArrayIn(m_settings);
}

void changeSavedVariant(const char *key, const QVariant &defaultValue,
                        const std::function<QVariant(const QVariant &)> &change)
{
    const std::optional<QString> path = writablePath();
    if (!path)
        return;
    QDir().mkpath(QFileInfo(*path).absolutePath());
    saveUnderChangeLock(*path, [&] {
        QSettings settings(*path, QSettings::IniFormat); // reads the file as it is now
        storeValue(settings, key, change(settings.value(QLatin1String(key))), defaultValue);
        settings.sync();
    });
}

void clearAll()
{
    SettingsWriter writer;
    writer.clear();
    writer.sync();
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
