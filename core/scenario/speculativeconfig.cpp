// SPDX-License-Identifier: MIT
#include "core/scenario/speculativeconfig.h"

#include "core/common/enumtable.h"
#include "core/common/error.h"
#include "core/common/jsonoption.h"

namespace kvscope {

namespace {

// vLLM's method names (SpeculativeConfig.method, vllm/config/speculative.py). vLLM reads the
// per-model MTP names as "mtp" ("method `deepseek_mtp` is deprecated and replaced with mtp").
const EnumSpelling<SpeculativeMethod> methods[] = {
    {SpeculativeMethod::Eagle, "eagle"},
    {SpeculativeMethod::Eagle3, "eagle3"},
    {SpeculativeMethod::Mtp, "mtp", {"deepseek_mtp", "qwen3_next_mtp", "glm4_moe_mtp"}},
    {SpeculativeMethod::Ngram, "ngram"},
    {SpeculativeMethod::DraftModel, "draft_model"},
};

// SGLang's --speculative-algorithm names (python/sglang/srt/server_args.py): NEXTN is its name for
// the checkpoint's MTP layers, STANDALONE for a draft model.
const EnumSpelling<SpeculativeMethod> sglangAlgorithms[] = {
    {SpeculativeMethod::Eagle, "EAGLE"},
    {SpeculativeMethod::Eagle3, "EAGLE3"},
    {SpeculativeMethod::Mtp, "NEXTN"},
    {SpeculativeMethod::Ngram, "NGRAM"},
    {SpeculativeMethod::DraftModel, "STANDALONE"},
};

constexpr char MethodKey[] = "method";
constexpr char ModelKey[] = "model";
constexpr char TokensKey[] = "num_speculative_tokens";

/// Keys of vLLM's SpeculativeConfig that change nothing kvscope plans: read, then left alone.
const char *const ignoredKeys[] = {
    "prompt_lookup_max",
    "prompt_lookup_min",
    "disable_by_batch_size",
    "disable_padded_drafter_batch",
    "draft_tensor_parallel_size",
    "revision",
    "code_revision",
    "enforce_eager",
    "disable_logprobs",
    "disable_log_stats",
    "acceptance_method",
};

bool isIgnoredKey(const QString &key)
{
    for (const char *ignored : ignoredKeys)
        if (key == QLatin1String(ignored))
            return true;
    return false;
}

} // namespace

QString speculativeMethodName(SpeculativeMethod method)
{
    return method == SpeculativeMethod::None ? QStringLiteral("none") : enumName(methods, method);
}

QStringList speculativeMethodChoices()
{
    return enumChoices(methods);
}

SpeculativeConfig parseSpeculativeConfig(const QString &text, const QString &option,
                                         const std::function<ModelArch(const QString &)> &resolveDraft)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || trimmed.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return {};
    const QJsonObject object = parseJsonObjectOption(text, option);
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key();
        if (key != QLatin1String(MethodKey) && key != QLatin1String(ModelKey) &&
            key != QLatin1String(TokensKey) && !isIgnoredKey(key))
            throw Error(QStringLiteral("%1: key '%2' is not one kvscope plans (it reads %3, %4, %5)")
                            .arg(option, key, QLatin1String(MethodKey), QLatin1String(ModelKey),
                                 QLatin1String(TokensKey)));
    }

    SpeculativeConfig config;
    const QJsonValue method = object.value(QLatin1String(MethodKey));
    const std::optional<SpeculativeMethod> parsed =
        method.isString() ? enumValue(methods, method.toString().trimmed().toLower()) : std::nullopt;
    if (!parsed)
        throw Error(QStringLiteral("%1: \"%2\" must be %3, got %4")
                        .arg(option, QLatin1String(MethodKey),
                             speculativeMethodChoices().join(QStringLiteral(", ")), jsonText(method)));
    config.method = *parsed;

    const QJsonValue tokens = object.value(QLatin1String(TokensKey));
    const double count = tokens.toDouble(-1);
    if (!tokens.isDouble() || count != double(std::int64_t(count)) || count < 1 ||
        count > double(MaxSpeculativeTokens))
        throw Error(QStringLiteral("%1: \"%2\" must be a whole number from 1 to %3, got %4")
                        .arg(option, QLatin1String(TokensKey))
                        .arg(MaxSpeculativeTokens)
                        .arg(jsonText(tokens)));
    config.numSpeculativeTokens = std::int64_t(count);

    const QJsonValue model = object.value(QLatin1String(ModelKey));
    if (!model.isUndefined() && !model.isString())
        throw Error(QStringLiteral("%1: \"%2\" must be a text (a draft's repo id or config path)")
                        .arg(option, QLatin1String(ModelKey)));
    config.model = model.toString().trimmed();
    const bool needsDraft = config.method == SpeculativeMethod::Eagle ||
                            config.method == SpeculativeMethod::Eagle3 ||
                            config.method == SpeculativeMethod::DraftModel;
    if (needsDraft && config.model.isEmpty())
        throw Error(
            QStringLiteral("%1: method %2 needs \"%3\": the draft's repo id or the path of its config.json")
                .arg(option, speculativeMethodName(config.method), QLatin1String(ModelKey)));
    if (needsDraft)
        config.draft = resolveDraft(config.model);
    return config;
}

QString sglangSpeculativeAlgorithm(SpeculativeMethod method)
{
    return method == SpeculativeMethod::None ? QString() : enumName(sglangAlgorithms, method);
}

std::optional<SpeculativeMethod> sglangSpeculativeMethod(const QString &algorithm)
{
    return enumValue(sglangAlgorithms, algorithm.trimmed().toUpper());
}

QString speculativeConfigText(const SpeculativeConfig &config)
{
    if (!config.enabled())
        return {};
    // QJsonObject sorts its keys; vLLM's examples write the method first.
    QString text =
        QStringLiteral("{\"%1\": \"%2\"").arg(QLatin1String(MethodKey), speculativeMethodName(config.method));
    if (!config.model.isEmpty())
        text += QStringLiteral(", \"%1\": %2").arg(QLatin1String(ModelKey), jsonText(config.model));
    return text +
           QStringLiteral(", \"%1\": %2}").arg(QLatin1String(TokensKey)).arg(config.numSpeculativeTokens);
}

} // namespace kvscope
