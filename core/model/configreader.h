// SPDX-License-Identifier: MIT
#pragma once

#include "core/common/error.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace kvscope {

/// Bounds on config integers: counts stored as int, and layer counts that
/// size per-layer lists (real models have at most a few hundred layers).
constexpr std::int64_t MaxConfigInt = 2'147'483'647;
constexpr std::int64_t MaxConfigLayers = 65'536;
constexpr std::int64_t MaxConfigWidth = std::int64_t(1) << 40;

/// Reads fields that model families spell differently, with messages that
/// name the file, the field (as spelled in the file) and the value.
class ConfigReader
{
public:
    ConfigReader(QJsonObject object, QString origin, QString prefix = {})
        : m_object(std::move(object)), m_origin(std::move(origin)), m_prefix(std::move(prefix))
    {}

    const QJsonObject &object() const { return m_object; }
    const QString &origin() const { return m_origin; }
    const QString &prefix() const { return m_prefix; }

    /// The first key present with a non-null value, or an empty string.
    QString present(std::initializer_list<const char *> keys) const
    {
        for (const char *key : keys) {
            const QJsonValue v = m_object.value(QLatin1String(key));
            if (!v.isUndefined() && !v.isNull())
                return QLatin1String(key);
        }
        return {};
    }

    QJsonValue value(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        return key.isEmpty() ? QJsonValue() : m_object.value(key);
    }

    /// An integer field; values outside [minimum, maximum] are errors, so a
    /// hostile file cannot make the core allocate or loop without bound.
    std::optional<std::int64_t> integer(std::initializer_list<const char *> keys, std::int64_t minimum = 0,
                                        std::int64_t maximum = MaxConfigInt) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || d < double(minimum))
            throw Error(QStringLiteral("%1: field '%2' must be an integer >= %3, got %4")
                            .arg(m_origin, m_prefix + key)
                            .arg(minimum)
                            .arg(render(v)));
        if (d > double(maximum))
            throw Error(QStringLiteral("%1: field '%2' must be an integer <= %3, got %4")
                            .arg(m_origin, m_prefix + key)
                            .arg(maximum)
                            .arg(render(v)));
        return std::int64_t(d);
    }

    std::int64_t requireInteger(std::initializer_list<const char *> keys, std::int64_t minimum = 1,
                                std::int64_t maximum = MaxConfigInt) const
    {
        if (const auto v = integer(keys, minimum, maximum))
            return *v;
        throw Error(QStringLiteral("%1: missing field %2").arg(m_origin, spellings(keys)));
    }

    std::optional<double> number(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            throw Error(QStringLiteral("%1: field '%2' must be a number, got %3")
                            .arg(m_origin, m_prefix + key, render(v)));
        return v.toDouble();
    }

    std::optional<bool> boolean(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isBool())
            throw Error(QStringLiteral("%1: field '%2' must be true or false, got %3")
                            .arg(m_origin, m_prefix + key, render(v)));
        return v.toBool();
    }

    /// A list field; a value that is not a list is an error, not an absent list.
    std::optional<QJsonArray> array(std::initializer_list<const char *> keys) const
    {
        const QString key = present(keys);
        if (key.isEmpty())
            return std::nullopt;
        const QJsonValue v = m_object.value(key);
        if (!v.isArray())
            throw Error(QStringLiteral("%1: field '%2' must be a list, got %3")
                            .arg(m_origin, m_prefix + key, render(v)));
        return v.toArray();
    }

    QString string(std::initializer_list<const char *> keys) const
    {
        const QJsonValue v = value(keys);
        return v.isString() ? v.toString() : QString();
    }

    [[noreturn]] void fail(const QString &field, const QString &problem) const
    {
        throw Error(QStringLiteral("%1: field '%2' %3").arg(m_origin, m_prefix + field, problem));
    }

    static QString render(const QJsonValue &v)
    {
        switch (v.type()) {
        case QJsonValue::String:
            return QLatin1Char('"') + v.toString() + QLatin1Char('"');
        case QJsonValue::Double:
            return QString::number(v.toDouble(), 'g', 17);
        case QJsonValue::Bool:
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        case QJsonValue::Array:
        case QJsonValue::Object: {
            // Short ones as written ("[1]"), long ones by their kind.
            const QByteArray json = v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                                : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
            if (json.size() <= 60)
                return QString::fromUtf8(json);
            return v.isArray() ? QStringLiteral("an array") : QStringLiteral("an object");
        }
        default:
            return QStringLiteral("null");
        }
    }

private:
    /// "'num_hidden_layers' (or 'n_layer', 'num_layers')", the first with the prefix.
    QString spellings(std::initializer_list<const char *> keys) const
    {
        QStringList others;
        for (const char *key : keys)
            others << QLatin1Char('\'') + QLatin1String(key) + QLatin1Char('\'');
        const QString first = QLatin1Char('\'') + m_prefix + others.takeFirst().mid(1);
        return others.isEmpty()
                   ? first
                   : first + QStringLiteral(" (or ") + others.join(QStringLiteral(", ")) + QLatin1Char(')');
    }

    QJsonObject m_object;
    QString m_origin;
    QString m_prefix;
};

} // namespace kvscope
