// SPDX-License-Identifier: MIT
// One value kept in QSettings between runs, and the one policy for reading
// it back: a value that cannot be restored gives the setting's default and
// one line naming the key and the value ("scenario/batchSize = '-4'
// ignored: ..."), which the window shows in its status bar.
#pragma once

#include "core/common/error.h"

#include <functional>
#include <optional>
#include <type_traits>

#include <QSettings>
#include <QStringList>
#include <QVariant>

namespace kvscope::settings {

/// A key, its default, and how its value is written and read back. The
/// spellings written are kept stable so older settings files still load.
template <class T> struct Setting
{
    const char *key;
    T defaultValue;
    std::function<QVariant(const T &)> toVariant;
    /// The value a saved QVariant holds; throws kvscope::Error saying why it is unusable.
    std::function<T(const QVariant &)> fromVariant;
};

/// The settings file ($XDG_CONFIG_HOME/<organization>/<application>.conf) and
/// whether kvscope may use it. Looked at before QSettings opens it: QSettings
/// would wait forever on a FIFO, and its save renames a new file over a
/// device node (or over what a symbolic link leads to).
struct SettingsFile
{
    QString path;
    /// Why it is neither read nor written ("settings file <path> is a FIFO,
    /// not a regular file; ..."); empty when it is a regular file, a symbolic
    /// link to one, or not there yet.
    QString refusal;
    /// A regular file kvscope may read but not replace (changes are not saved).
    bool readOnly = false;
};

/// The settings file as it is now.
SettingsFile settingsFile();

/// Reads settings with the policy above and collects the problems.
class SettingsReader
{
public:
    SettingsReader();

    /// The saved value, or the default when none is saved or it is unusable (reported).
    template <class T> T read(const Setting<T> &setting)
    {
        return read(setting, [](const T &value) { return value; });
    }

    /// As read(), then `use(value)`, which may refuse the value by throwing
    /// kvscope::Error (a model the library does not know, a geometry Qt
    /// cannot restore); then `use(default)` runs instead. Returns what `use` returns.
    template <class T, class Use> auto read(const Setting<T> &setting, Use &&use)
    {
        if (m_settings && m_settings->contains(QLatin1String(setting.key))) {
            m_foundKey = true;
            const QVariant saved = m_settings->value(QLatin1String(setting.key));
            // Present but invalid: QSettings could not decode a stored @Variant (a corrupt file).
            if (!saved.isValid()) {
                report(setting.key, saved, unreadableValueReason());
                return use(setting.defaultValue);
            }
            try {
                return use(setting.fromVariant(saved));
            } catch (const Error &error) {
                report(setting.key, saved, error.message());
            }
        }
        return use(setting.defaultValue);
    }

    /// The raw saved value (invalid when none), for lists read entry by entry.
    QVariant saved(const char *key) const;

    /// Reads a list of groups (QSettings array `key`): returns its size; between
    /// setArrayIndex() and endArray() keys are read within one entry, and problems
    /// name the entry ("explorer/scenarioStrip/2/scenario/model = ...").
    int beginReadArray(const char *key);
    void setArrayIndex(int index);
    void endArray();

    /// Reports one value that was not restored: "key = 'value' ignored: reason".
    void report(const char *key, const QVariant &value, const QString &reason);
    /// Reports a problem that is no single key's (the saved values together).
    void reportAll(const QString &problem);

    /// What was not restored, one line each.
    QStringList problems() const;

    /// Why a key that is present read back as no value at all.
    static QString unreadableValueReason();

private:
    QString group() const;

    std::optional<QSettings> m_settings; ///< none when the settings file is refused or unreadable
    QString m_fileName;
    bool m_binaryData = false;       ///< the file holds bytes no settings file does
    mutable bool m_foundKey = false; ///< a key kvscope reads was in the file
    QStringList m_problems;
};

/// Writes settings; values reach the disk when it is destroyed or synced.
/// Writes nothing when the settings file is refused or read-only (the
/// SettingsReader at start said so, once).
class SettingsWriter
{
public:
    SettingsWriter();
    ~SettingsWriter();
    SettingsWriter(const SettingsWriter &) = delete;
    SettingsWriter &operator=(const SettingsWriter &) = delete;

    template <class T> void write(const Setting<T> &setting, const T &value)
    {
        store(setting.key, setting.toVariant(value), setting.toVariant(setting.defaultValue));
    }
    /// Saves under the lock changeSaved() takes, so that it reads what other processes saved.
    void sync();
    /// Forgets every saved value.
    void clear();

    /// Writes a list of groups (QSettings array `key`), replacing what it held.
    void beginWriteArray(const char *key);
    void setArrayIndex(int index);
    void endArray();

private:
    void store(const char *key, const QVariant &value, const QVariant &defaultValue);

    std::optional<QSettings> m_settings; ///< none when nothing may be written
};

/// Changes one saved value as it is saved now, not as this process last read
/// it, so that windows saving at once keep each other's changes: under a lock
/// file beside the settings file the value is read afresh (the default when
/// none is saved or it is unusable), `change` edits it, and it is written.
/// Does nothing when the settings file is refused or read-only.
template <class T> void changeSaved(const Setting<T> &setting, const std::function<void(T &)> &change);

/// changeSaved() on the saved QVariant of `key`; `defaultValue` as Setting::toVariant writes it.
void changeSavedVariant(const char *key, const QVariant &defaultValue,
                        const std::function<QVariant(const QVariant &)> &change);

template <class T> void changeSaved(const Setting<T> &setting, const std::function<void(T &)> &change)
{
    changeSavedVariant(setting.key, setting.toVariant(setting.defaultValue), [&](const QVariant &saved) {
        T value = setting.defaultValue;
        try {
            if (saved.isValid())
                value = setting.fromVariant(saved);
        } catch (const Error &) {
            // Unusable as saved (reported at start): the change applies to the default.
        }
        change(value);
        return setting.toVariant(value);
    });
}

/// Forgets every saved setting (--reset-settings).
void clearAll();

/// A saved value as one short line of text, for a problem report.
QString displayValue(const QVariant &value);

/// The line that reports a value not restored: "key = 'value' ignored: reason".
QString problemLine(const QString &key, const QVariant &value, const QString &reason);

/// The line that reports a value kept though not restored yet: "key = 'value' kept: reason".
QString keptLine(const QString &key, const QVariant &value, const QString &reason);

} // namespace kvscope::settings
