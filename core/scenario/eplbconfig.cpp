// SPDX-License-Identifier: MIT
#include "core/scenario/eplbconfig.h"

#include "core/common/error.h"
#include "core/common/jsonoption.h"

#include <QStringList>

namespace kvscope {

namespace {

constexpr char RedundantKey[] = "num_redundant_experts";
constexpr char WindowKey[] = "window_size";

/// Keys of vLLM's EPLBConfig that change nothing kvscope plans: when and how the experts move.
const char *const ignoredKeys[] = {
    "step_interval", "log_balancedness", "log_balancedness_interval", "use_async", "policy", "communicator",
};

bool isIgnoredKey(const QString &key)
{
    for (const char *ignored : ignoredKeys)
        if (key == QLatin1String(ignored))
            return true;
    return false;
}

/// A whole number from `least` to `most`, or the default when the key is absent.
std::int64_t wholeNumber(const QJsonObject &object, const char *key, std::int64_t least, std::int64_t most,
                         std::int64_t fallback, const QString &option)
{
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined())
        return fallback;
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number < double(least) || number > double(most) ||
        number != double(std::int64_t(number)))
        throw Error(QStringLiteral("%1: \"%2\" must be a whole number from %3 to %4, got %5")
                        .arg(option, QLatin1String(key))
                        .arg(least)
                        .arg(most)
                        .arg(jsonText(value)));
    return std::int64_t(number);
}

} // namespace

EplbConfig parseEplbConfig(const QString &text, const QString &option)
{
    if (text.trimmed().isEmpty())
        return {};
    const QJsonObject object = parseJsonObjectOption(text, option);
    for (auto it = object.begin(); it != object.end(); ++it)
        if (it.key() != QLatin1String(RedundantKey) && it.key() != QLatin1String(WindowKey) &&
            !isIgnoredKey(it.key()))
            throw Error(
                QStringLiteral("%1: key '%2' is not one of vLLM's EPLB settings kvscope reads (%3, %4)")
                    .arg(option, it.key(), QLatin1String(RedundantKey), QLatin1String(WindowKey)));
    EplbConfig config;
    // EPLBConfig: num_redundant_experts >= 0 (at most MAX_EXPERT_REDUNDANCY), window_size > 0.
    config.numRedundantExperts = wholeNumber(object, RedundantKey, 0, MaxRedundantExperts, 0, option);
    config.windowSize = wholeNumber(object, WindowKey, 1, MaxEplbWindowSize, DefaultEplbWindowSize, option);
    return config;
}

QString eplbConfigText(const EplbConfig &config)
{
    QStringList pairs;
    if (config.windowSize != DefaultEplbWindowSize)
        pairs << QStringLiteral("\"%1\": %2").arg(QLatin1String(WindowKey)).arg(config.windowSize);
    if (config.numRedundantExperts != 0)
        pairs
            << QStringLiteral("\"%1\": %2").arg(QLatin1String(RedundantKey)).arg(config.numRedundantExperts);
    return pairs.isEmpty() ? QString() : QStringLiteral("{%1}").arg(pairs.join(QStringLiteral(", ")));
}

} // namespace kvscope
