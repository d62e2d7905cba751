// SPDX-License-Identifier: MIT
#include "core/model/quantizationconfig.h"

#include "core/model/configreader.h"

#include <QRegularExpression>

namespace kvscope {

namespace {

/// A list of module names a checkpoint leaves unquantized; "re:" entries are regular
/// expressions (compressed-tensors), checked here so a bad one is named, not ignored.
QStringList moduleList(const ConfigReader &r, const char *key)
{
    QStringList list;
    const QJsonArray entries = r.object().value(QLatin1String(key)).toArray();
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const QJsonValue v = entries.at(i);
        const QString field = QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i);
        if (!v.isString())
            r.fail(field, QStringLiteral("must be a module name, got %1").arg(ConfigReader::render(v)));
        const QString name = v.toString();
        if (name.startsWith(QLatin1String("re:"))) {
            const QRegularExpression pattern(name.mid(3));
            if (!pattern.isValid())
                r.fail(field, QStringLiteral("is %1, not a valid regular expression (%2)")
                                  .arg(ConfigReader::render(v), pattern.errorString()));
        }
        list << name;
    }
    return list;
}

QuantizationSpec readFp8(const ConfigReader &r)
{
    QuantizationSpec spec = defaultSpecFor(QuantMethod::Fp8);
    const QJsonValue given = r.object().value(QLatin1String("weight_block_size"));
    if (!given.isUndefined() && !given.isNull()) { // absent or null: one scale per tensor
        const QJsonArray block = given.toArray();
        const auto positive = [](const QJsonValue &v) {
            return v.isDouble() && v.toInt(0) > 0 && v.toDouble() == v.toInt();
        };
        if (!given.isArray() || block.size() != 2 || !positive(block.at(0)) || !positive(block.at(1)))
            r.fail(
                QStringLiteral("weight_block_size"),
                QStringLiteral("must hold two positive integers, got %1").arg(ConfigReader::render(given)));
        spec.blockRows = block.at(0).toInt();
        spec.blockCols = block.at(1).toInt();
    }
    spec.modulesNotConverted = moduleList(r, "modules_to_not_convert") + moduleList(r, "ignored_layers");
    return spec;
}

QuantizationSpec readBitsAndBytes(const ConfigReader &r)
{
    QuantizationSpec spec;
    if (r.boolean({"load_in_4bit"}).value_or(false)) {
        const QString type = r.string({"bnb_4bit_quant_type"}).toLower();
        if (!type.isEmpty() && type != QLatin1String("nf4") && type != QLatin1String("fp4"))
            r.fail(QStringLiteral("bnb_4bit_quant_type"),
                   QStringLiteral("is '%1'; expected nf4 or fp4").arg(type));
        spec = defaultSpecFor(QuantMethod::BitsAndBytesNf4); // fp4 stores the same codes and absmax
        spec.doubleQuant = r.boolean({"bnb_4bit_use_double_quant"}).value_or(false);
    } else if (r.boolean({"load_in_8bit"}).value_or(false)) {
        // LLM.int8(): int8 weights plus one fp32 scale (SCB) per output row.
        spec = defaultSpecFor(QuantMethod::Int8);
    } else {
        r.fail(QStringLiteral("load_in_4bit"),
               QStringLiteral("and load_in_8bit are both unset; nothing to size"));
    }
    spec.modulesNotConverted = moduleList(r, "llm_int8_skip_modules");
    return spec;
}

/// The one weight scheme of a compressed-tensors config: every config group
/// must agree, since kvscope sizes one scheme per checkpoint.
QuantizationSpec readCompressedTensors(const ConfigReader &r)
{
    QuantizationSpec spec = defaultSpecFor(QuantMethod::CompressedTensors);
    const QJsonObject groups = r.object().value(QLatin1String("config_groups")).toObject();
    if (groups.isEmpty())
        r.fail(QStringLiteral("config_groups"), QStringLiteral("is missing or empty"));
    bool first = true;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        const QString field = QStringLiteral("config_groups.%1.weights").arg(it.key());
        const QJsonObject weights = it.value().toObject().value(QLatin1String("weights")).toObject();
        if (weights.isEmpty())
            r.fail(field, QStringLiteral("is missing"));
        const ConfigReader w(weights, r.origin(),
                             QStringLiteral("quantization_config.") + field + QLatin1Char('.'));
        QuantizationSpec g = spec;
        g.bits = int(w.requireInteger({"num_bits"}, 1, 16));
        const QString type = w.string({"type"}).toLower();
        if (type != QLatin1String("int") && type != QLatin1String("float"))
            w.fail(QStringLiteral("type"), QStringLiteral("is '%1'; expected int or float").arg(type));
        g.floatWeights = type == QLatin1String("float");
        g.symmetric = w.boolean({"symmetric"}).value_or(true);
        const QString strategy = w.string({"strategy"}).toLower();
        if (strategy == QLatin1String("group") || strategy == QLatin1String("tensor_group"))
            g.groupSize = int(w.requireInteger({"group_size"}, 1));
        else if (strategy == QLatin1String("channel"))
            g.groupSize = -1;
        else if (strategy == QLatin1String("tensor"))
            g.groupSize = 0;
        else
            w.fail(QStringLiteral("strategy"),
                   QStringLiteral("is '%1'; expected group, tensor_group, channel or tensor").arg(strategy));
        // FP4 schemes: NVFP4 keeps fp8 scales per 16 plus an fp32 global scale,
        // MXFP4 an E8M0 byte per 32 (compressed_tensors nvfp4/mxfp4 compressors).
        if (g.floatWeights && g.bits == 4) {
            g.scaleBytes = 1;
            g.globalScaleBytes = strategy == QLatin1String("tensor_group") ? 4 : 0;
        }
        if (!first && (g.bits != spec.bits || g.floatWeights != spec.floatWeights ||
                       g.groupSize != spec.groupSize || g.symmetric != spec.symmetric))
            r.fail(QStringLiteral("config_groups"),
                   QStringLiteral("mix different weight schemes; kvscope sizes one scheme per checkpoint"));
        spec = g;
        first = false;
    }
    const QJsonObject activations =
        groups.begin().value().toObject().value(QLatin1String("input_activations")).toObject();
    const QString prefix = spec.floatWeights ? QStringLiteral("FP") : QStringLiteral("W");
    if (spec.floatWeights && spec.bits == 4)
        spec.scheme = spec.globalScaleBytes > 0 ? QStringLiteral("NVFP4") : QStringLiteral("MXFP4");
    else if (activations.isEmpty())
        spec.scheme =
            prefix + QString::number(spec.bits) + (spec.floatWeights ? QString() : QStringLiteral("A16"));
    else
        spec.scheme =
            prefix + QString::number(spec.bits) +
            (spec.floatWeights
                 ? (activations.value(QLatin1String("dynamic")).toBool() ? QStringLiteral("_DYNAMIC")
                                                                         : QString())
                 : QStringLiteral("A%1").arg(activations.value(QLatin1String("num_bits")).toInt(8)));
    spec.modulesNotConverted = moduleList(r, "ignore");
    return spec;
}

} // namespace

QuantizationSpec parseQuantizationConfig(const QJsonObject &q, const QString &origin)
{
    if (q.isEmpty())
        return {};
    const ConfigReader r(q, origin, QStringLiteral("quantization_config."));
    const QString method = r.string({"quant_method"}).toLower();
    if (method == QLatin1String("fp8"))
        return readFp8(r);
    if (method == QLatin1String("fbgemm_fp8")) {
        QuantizationSpec spec = defaultSpecFor(QuantMethod::Fp8);
        spec.perChannelScales = true;
        spec.modulesNotConverted = moduleList(r, "modules_to_not_convert");
        return spec;
    }
    if (method == QLatin1String("awq") || method == QLatin1String("gptq")) {
        QuantizationSpec spec =
            defaultSpecFor(method == QLatin1String("awq") ? QuantMethod::Awq : QuantMethod::Gptq);
        spec.bits = int(r.integer({"bits", "w_bit"}, 2, 8).value_or(4));
        spec.groupSize = int(r.integer({"group_size", "q_group_size"}, -1).value_or(128));
        if (spec.groupSize == 0)
            r.fail(QStringLiteral("group_size"), QStringLiteral("is 0; expected a positive size or -1"));
        spec.modulesNotConverted = moduleList(r, "modules_to_not_convert");
        return spec;
    }
    if (method == QLatin1String("bitsandbytes"))
        return readBitsAndBytes(r);
    if (method == QLatin1String("mxfp4")) {
        QuantizationSpec spec = defaultSpecFor(QuantMethod::Mxfp4);
        spec.modulesNotConverted = moduleList(r, "modules_to_not_convert");
        return spec;
    }
    if (method == QLatin1String("compressed-tensors") || method == QLatin1String("compressed_tensors"))
        return readCompressedTensors(r);
    if (!method.isEmpty())
        r.fail(QStringLiteral("quant_method"),
               QStringLiteral("is '%1', which kvscope does not size").arg(method));
    return {};
}

} // namespace kvscope
