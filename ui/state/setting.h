// SPDX-License-Identifier: MIT
// One value kept in QSettings between runs, and the one policy for reading
// it back: a value that cannot be restored gives the setting's default and
// one line naming the key and the value ("scenario/batchSize = '-4'
// ignored: ..."), which the window shows in its status bar.
#pragma once

#include "core/common/error.h"

#include <functional>
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
        if (m_readable && m_settings.contains(QLatin1String(setting.key))) {
            m_foundKey = true;
            const QVariant saved = m_settings.value(QLatin1String(setting.key));
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
    QSettings m_settings;
    bool m_readable = true;
    bool m_binaryData = false;       ///< the file holds bytes no settings file does
    mutable bool m_foundKey = false; ///< a key kvscope reads was in the file
    QStringList m_problems;
};

/// Writes settings; values reach the disk when it is destroyed or synced.
class SettingsWriter
{
public:
    template <class T> void write(const Setting<T> &setting, const T &value)
    {
        m_settings.setValue(QLatin1String(setting.key), setting.toVariant(value));
    }
    void sync() { m_settings.sync(); }

    /// Writes a list of groups (QSettings array `key`), replacing what it held.
    void beginWriteArray(const char *key)
    {
        m_settings.remove(QLatin1String(key));
        m_settings.beginWriteArray(QLatin1String(key));
    }
    void setArrayIndex(int index) { m_settings.setArrayIndex(index); }
    void endArray() { m_settings.endArray(); }

private:
    QSettings m_settings;
};

/// Forgets every saved setting (--reset-settings).
void clearAll();

/// A saved value as one short line of text, for a problem report.
QString displayValue(const QVariant &value);

/// The line that reports a value not restored: "key = 'value' ignored: reason".
QString problemLine(const QString &key, const QVariant &value, const QString &reason);

/// The line that reports a value kept though not restored yet: "key = 'value' kept: reason".
QString keptLine(const QString &key, const QVariant &value, const QString &reason);

} // namespace kvscope::settings
