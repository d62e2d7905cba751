// SPDX-License-Identifier: MIT
#include "core/compare/attentionpicture.h"

#include "core/common/csv.h"
#include "core/common/error.h"
#include "core/common/units.h"
#include "core/compare/accuracy.h"
#include "core/compare/kvhead.h"
#include "core/quantization/quantizers.h"

#include <cmath>

#include <QCoreApplication>
#include <QJsonArray>

namespace kvscope {

namespace {

void checkChoices(const AttentionPictureChoices &c)
{
    switch (c.format) {
    case KvCacheDtype::Fp8:
    case KvCacheDtype::Fp8E4M3:
    case KvCacheDtype::Fp8E5M2:
        break;
    default:
        throw Error(QStringLiteral("attention: the KV cache dtype '%1' is not an FP8 format (choose fp8, "
                                   "fp8_e4m3 or fp8_e5m2)")
                        .arg(dtypeName(c.format)));
    }
    if (c.tokens < 2 || c.tokens > AttentionPictureMaxTokens)
        throw Error(QStringLiteral("attention: context of %1 tokens is outside 2 to %2")
                        .arg(c.tokens)
                        .arg(AttentionPictureMaxTokens));
    if (c.query < 1 || c.query > AttentionQueries)
        throw Error(
            QStringLiteral("attention: query %1 is outside 1 to %2").arg(c.query).arg(AttentionQueries));
}

} // namespace

AttentionPicture attentionPicture(const ModelArch &model, WeightDtype activations,
                                  const AttentionPictureChoices &choices, const quant::RunControl &control)
{
    checkChoices(choices);
    const KvHead head = kvHead(model, activations);
    const quant::Scheme scheme = kvCacheScheme(choices.format, choices.calibratedScale);
    // Compare's cache: the same tensors, quantized over the same tokens.
    const ExtendedCache keys = extendedCache(head.keys, scheme, control.slice(0.0, 0.45));
    const std::optional<ExtendedCache> values =
        head.values
            ? std::optional<ExtendedCache>(extendedCache(*head.values, scheme, control.slice(0.45, 0.9)))
            : std::nullopt;
    const quant::AttentionCache cache =
        attentionCache(keys, values ? *values : keys); // MLA: the latent twice
    // Compare's queries, the same seed: query 1 here is the first of its sixteen.
    const std::vector<float> queries =
        quant::syntheticQueries(head.keys, choices.queries, AttentionQueries, QuerySeed);
    const float *query = queries.data() + std::int64_t(choices.query - 1) * head.keys.cols;

    AttentionPicture picture;
    picture.choices = choices;
    picture.modelName = model.name.isEmpty() ? model.id : model.name;
    picture.keyWidth = head.keys.cols;
    picture.logitScale = head.logitScale;
    picture.fp8Scale = quant::fp8Tensor(scheme, keys.amax).scale;
    picture.weights = quant::attentionWeights(query, cache, choices.tokens, head.logitScale);
    picture.error = quant::attentionErrors({query, 1, head.keys.cols, head.keys.cols}, cache,
                                           {choices.tokens}, head.logitScale, control.slice(0.9, 1.0))
                        .constFirst();
    return picture;
}

QString attentionPictureFigures(const AttentionPicture &p)
{
    const QString output = std::isfinite(p.error.outputSqnrDb)
                               ? QCoreApplication::translate("kvscope::AttentionPicture", "output SQNR %1 dB")
                                     .arg(p.error.outputSqnrDb, 0, 'f', 1)
                               : QCoreApplication::translate("kvscope::AttentionPicture", "output exact");
    return QCoreApplication::translate(
               "kvscope::AttentionPicture",
               "Over %1 tokens: %2 · %3 % of the attention moves to other tokens · "
               "logit error %4 RMS against a logit spread of %5 · stored with scale %6")
        .arg(formatCount(p.error.contextTokens), output)
        .arg(p.error.massMoved * 100.0, 0, 'f', 2)
        .arg(p.error.logitErrorRms, 0, 'g', 3)
        .arg(p.error.logitStd, 0, 'g', 3)
        .arg(p.fp8Scale, 0, 'g', 4);
}

QJsonObject attentionPictureToJson(const AttentionPicture &p)
{
    QJsonObject o = quant::attentionErrorToJson(p.error);
    o.insert(u"model", p.modelName);
    o.insert(u"format", dtypeName(p.choices.format));
    o.insert(u"scale", kvScaleName(p.choices.calibratedScale));
    o.insert(u"queries", quant::queryModelName(p.choices.queries));
    o.insert(u"query", p.choices.query);
    o.insert(u"key_width", qint64(p.keyWidth));
    o.insert(u"logit_scale", p.logitScale);
    o.insert(u"fp8_scale", p.fp8Scale);
    QJsonArray tokens;
    for (size_t t = 0; t < p.weights.logits.size(); ++t)
        tokens << QJsonObject{{QStringLiteral("token"), qint64(t + 1)},
                              {QStringLiteral("logit"), p.weights.logits[t]},
                              {QStringLiteral("quantized_logit"), p.weights.quantizedLogits[t]},
                              {QStringLiteral("weight"), p.weights.weights[t]},
                              {QStringLiteral("quantized_weight"), p.weights.quantizedWeights[t]}};
    o.insert(u"tokens", tokens);
    return o;
}

QByteArray attentionPictureCsv(const AttentionPicture &p)
{
    QByteArray out = "token,logit,quantized_logit,logit_error,weight,quantized_weight\n";
    const quant::AttentionWeights &w = p.weights;
    const std::vector<double> errors = w.logitErrors();
    for (size_t t = 0; t < w.logits.size(); ++t)
        out += csv::row({csv::integer(std::int64_t(t) + 1), csv::decimal(w.logits[t]),
                         csv::decimal(w.quantizedLogits[t]), csv::decimal(errors[t]),
                         csv::decimal(w.weights[t]), csv::decimal(w.quantizedWeights[t])});
    return out;
}

} // namespace kvscope
