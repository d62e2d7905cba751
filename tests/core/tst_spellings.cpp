// SPDX-License-Identifier: MIT
// The spellings of every enum an option takes, each read from its one table
// (common/enumtable.h): the canonical names and the choices --help and the
// pickers list, the other spellings the parsers take (vLLM's --dtype half and
// float, its --quantization awq_marlin, gptq_marlin and bitsandbytes, and
// kvscope's shorthands), every name parsing back to its value, and the whole
// error message for a value that is none of them. And the scenario's fields
// (common/scenariofield.h): every one spelled, each spelling naming one field.
#include "core/common/error.h"
#include "core/common/scenariofield.h"
#include "core/engine/engine.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "core/quantization/scheme.h"
#include "core/quantization/synthetic.h"
#include "core/scenario/scenariovalues.h"
#include "tests/tensorfiles.h"

#include <initializer_list>

#include <QSet>
#include <QTest>

using namespace kvscope;
using namespace kvscope::quant;
using test::errorOf;

namespace {

QStringList names(std::initializer_list<const char *> list)
{
    QStringList result;
    for (const char *name : list)
        result << QLatin1String(name);
    return result;
}

} // namespace

class TestSpellings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void weightDtypes()
    {
        QCOMPARE(weightDtypeChoices(), names({"auto", "float32", "float16", "bfloat16"}));
        for (const WeightDtype d :
             {WeightDtype::Auto, WeightDtype::Float32, WeightDtype::Float16, WeightDtype::BFloat16})
            QCOMPARE(parseWeightDtype(dtypeName(d)), d);
        QCOMPARE(dtypeName(WeightDtype::BFloat16), QStringLiteral("bfloat16"));
        QCOMPARE(parseWeightDtype(QStringLiteral("float")), WeightDtype::Float32);
        QCOMPARE(parseWeightDtype(QStringLiteral("fp32")), WeightDtype::Float32);
        QCOMPARE(parseWeightDtype(QStringLiteral(" Half ")), WeightDtype::Float16);
        QCOMPARE(parseWeightDtype(QStringLiteral("FP16")), WeightDtype::Float16);
        QCOMPARE(parseWeightDtype(QStringLiteral("bf16")), WeightDtype::BFloat16);
        QCOMPARE(
            errorOf([] { parseWeightDtype(QStringLiteral("fp7")); }),
            QStringLiteral("--dtype: unknown dtype 'fp7' (choose one of: auto, float32, float16, bfloat16)"));
    }

    void kvCacheDtypes()
    {
        QCOMPARE(kvCacheDtypeChoices(), names({"auto", "float32", "float16", "bfloat16", "fp8", "fp8_e4m3",
                                               "fp8_e5m2", "nvfp4", "fp4_mx_block16"}));
        QCOMPARE(llamaCppKvCacheDtypeChoices(), names({"q8_0", "q4_0"}));
        for (const QString &name : kvCacheDtypeChoices() + llamaCppKvCacheDtypeChoices())
            QCOMPARE(dtypeName(parseKvCacheDtype(name)), name);
        QCOMPARE(parseKvCacheDtype(QStringLiteral("fp32")), KvCacheDtype::Float32);
        QCOMPARE(parseKvCacheDtype(QStringLiteral("half")), KvCacheDtype::Float16);
        QCOMPARE(parseKvCacheDtype(QStringLiteral(" FP16")), KvCacheDtype::Float16);
        QCOMPARE(parseKvCacheDtype(QStringLiteral("bf16")), KvCacheDtype::BFloat16);
        QCOMPARE(parseKvCacheDtype(QStringLiteral("Q4_0")), KvCacheDtype::Q4_0);
        // --dtype's "float" is no --kv-cache-dtype spelling.
        QCOMPARE(
            errorOf([] { parseKvCacheDtype(QStringLiteral("float")); }),
            QStringLiteral("--kv-cache-dtype: unknown KV cache dtype 'float' (choose one of: auto, float32, "
                           "float16, bfloat16, fp8, fp8_e4m3, fp8_e5m2, nvfp4, fp4_mx_block16; for GGUF "
                           "models also q8_0, "
                           "q4_0)"));
    }

    void quantMethods()
    {
        QCOMPARE(quantMethodChoices(), names({"auto", "none", "fp8", "int8", "awq", "gptq",
                                              "bitsandbytes-nf4", "mxfp4", "compressed-tensors"}));
        for (const QString &name : quantMethodChoices().mid(1))
            QCOMPARE(quantMethodName(parseQuantMethod(name)), name);
        QCOMPARE(parseQuantMethod(QStringLiteral("W8A8")), QuantMethod::Int8);
        QCOMPARE(parseQuantMethod(QStringLiteral("awq_marlin")), QuantMethod::Awq);
        QCOMPARE(parseQuantMethod(QStringLiteral("gptq_marlin ")), QuantMethod::Gptq);
        QCOMPARE(parseQuantMethod(QStringLiteral("bitsandbytes")), QuantMethod::BitsAndBytesNf4);
        QCOMPARE(parseQuantMethod(QStringLiteral("nf4")), QuantMethod::BitsAndBytesNf4);
        QCOMPARE(parseQuantMethod(QStringLiteral("compressed_tensors")), QuantMethod::CompressedTensors);
        // "auto" is a choice of --quantization, not a method.
        QCOMPARE(errorOf([] { parseQuantMethod(QStringLiteral("auto")); }),
                 QStringLiteral(
                     "--quantization: unknown quantization method 'auto' (choose one of: auto, none, fp8, "
                     "int8, awq, gptq, bitsandbytes-nf4, mxfp4, compressed-tensors)"));
    }

    void quantizationChoices()
    {
        // --quantization: "auto" is no spec (the checkpoint's own), a method its defaults.
        for (const QString &choice : quantMethodChoices())
            QCOMPARE(quantizationChoiceName(parseQuantizationChoice(choice)), choice);
        QCOMPARE(quantizationChoiceName(std::nullopt), QStringLiteral("auto"));
        QVERIFY(!parseQuantizationChoice(QStringLiteral(" Auto ")));
        QCOMPARE(parseQuantizationChoice(QStringLiteral("AWQ")), defaultSpecFor(QuantMethod::Awq));
        // A checkpoint quantized with the chosen method keeps its own details; another method does not.
        QuantizationSpec checkpoint = defaultSpecFor(QuantMethod::Awq);
        checkpoint.bits = 8;
        checkpoint.groupSize = 64;
        QCOMPARE(parseQuantizationChoice(QStringLiteral("awq"), checkpoint), checkpoint);
        QCOMPARE(parseQuantizationChoice(QStringLiteral("gptq"), checkpoint),
                 defaultSpecFor(QuantMethod::Gptq));
        QVERIFY(!parseQuantizationChoice(QStringLiteral("auto"), checkpoint));
        QCOMPARE(errorOf([] { parseQuantizationChoice(QStringLiteral("int4"), QStringLiteral("scenario")); }),
                 QStringLiteral(
                     "scenario: unknown quantization method 'int4' (choose one of: auto, none, fp8, int8, "
                     "awq, gptq, bitsandbytes-nf4, mxfp4, compressed-tensors)"));
    }

    void syntheticKinds()
    {
        QCOMPARE(syntheticKindChoices(), names({"gaussian", "laplace", "student-t", "outliers"}));
        for (const QString &name : syntheticKindChoices())
            QCOMPARE(syntheticKindName(parseSyntheticKind(name)), name);
        QCOMPARE(parseSyntheticKind(QStringLiteral("Student-T")), SyntheticKind::StudentT);
        // Case is ignored, blanks are not.
        QCOMPARE(errorOf([] { parseSyntheticKind(QStringLiteral(" gaussian")); }),
                 QStringLiteral("--input: unknown synthetic kind ' gaussian' (choose from gaussian, laplace, "
                                "student-t, outliers)"));
    }

    void schemes()
    {
        QCOMPARE(schemeChoices(), names({"fp16",
                                         "bf16",
                                         "fp8-e4m3",
                                         "fp8-e5m2",
                                         "int8",
                                         "int4[-sym][-gN|-row]",
                                         "int3[-sym][-gN|-row]",
                                         "int2[-sym][-gN|-row]",
                                         "awq-int4[-gN|-row]",
                                         "awq-int3[-gN|-row]",
                                         "awq-int2[-gN|-row]",
                                         "gptq-int4[-gN|-row]",
                                         "gptq-int3[-gN|-row]",
                                         "gptq-int2[-gN|-row]",
                                         "nf4",
                                         "mxfp4",
                                         "nvfp4",
                                         "fp4-mx-block16",
                                         "fp8-e4m3+a-fp8-token",
                                         "fp8-e4m3+a-fp8-g128",
                                         "int8+a-int8-token",
                                         "mxfp4+a-mxfp8"}));
        for (const QString &name : names({"fp16", "bf16", "fp8-e4m3", "fp8-e5m2", "int8", "nf4", "mxfp4"}))
            QCOMPARE(parseScheme(name).id(), name);
        QCOMPARE(parseScheme(QStringLiteral("float16")).kind, SchemeKind::Fp16);
        QCOMPARE(parseScheme(QStringLiteral("BFloat16")).kind, SchemeKind::Bf16);
        QCOMPARE(parseScheme(QStringLiteral("fp8")).kind, SchemeKind::Fp8E4M3);
        QCOMPARE(parseScheme(QStringLiteral(" fp8_e4m3")).kind, SchemeKind::Fp8E4M3);
        QCOMPARE(parseScheme(QStringLiteral("fp8_e5m2")).kind, SchemeKind::Fp8E5M2);
        QCOMPARE(parseScheme(QStringLiteral("int3-sym-row")).id(), QStringLiteral("int3-sym-row"));
        QCOMPARE(errorOf([] { parseScheme(QStringLiteral("int5")); }),
                 QStringLiteral(
                     "--scheme: unknown scheme 'int5' (choose from fp16, bf16, fp8-e4m3, fp8-e5m2, int8, "
                     "int4[-sym][-gN|-row], int3[-sym][-gN|-row], int2[-sym][-gN|-row], awq-int4[-gN|-row], "
                     "awq-int3[-gN|-row], awq-int2[-gN|-row], gptq-int4[-gN|-row], gptq-int3[-gN|-row], "
                     "gptq-int2[-gN|-row], nf4, mxfp4, nvfp4, fp4-mx-block16, fp8-e4m3+a-fp8-token, "
                     "fp8-e4m3+a-fp8-g128, "
                     "int8+a-int8-token, mxfp4+a-mxfp8)"));
    }

    void scenarioFields()
    {
        QSet<QString> keys;
        QSet<QString> flags;
        QSet<QString> labels;
        for (const ScenarioField field : kvscope::scenarioFields()) {
            const QString key = fileKey(field);
            QVERIFY2(!key.isEmpty() && !key.startsWith(QLatin1Char('-')), qPrintable(key));
            QCOMPARE(optionFlag(field), QStringLiteral("--") + key);
            QCOMPARE(optionFlag(field, Engine::Vllm), optionFlag(field));
            QVERIFY2(!fieldLabel(field).isEmpty(), qPrintable(key));
            keys << key;
            flags << optionFlag(field);
            labels << fieldLabel(field);
            // Every spelling reads back as its field.
            QCOMPARE(fieldForKey(key), std::optional(field));
            QCOMPARE(fieldForKey(sglangKey(field)), std::optional(field));
            QCOMPARE(fieldForFlag(optionFlag(field)), std::optional(field));
            QCOMPARE(fieldForFlag(optionFlag(field, Engine::Sglang)), std::optional(field));
            QCOMPARE(fileKey(*fieldForKey(key)), key);
        }
        // One spelling per field, and every field of the enum (the last one) in the table.
        QCOMPARE(keys.size(), kvscope::scenarioFields().size());
        QCOMPARE(flags.size(), kvscope::scenarioFields().size());
        QCOMPARE(labels.size(), kvscope::scenarioFields().size());
        QVERIFY(kvscope::scenarioFields().contains(ScenarioField::ComputeEfficiency));
        QCOMPARE(fieldForKey(QStringLiteral("nonsense")), std::nullopt);
        QCOMPARE(fieldForFlag(QStringLiteral("batch-size")), std::nullopt);
        QCOMPARE(fieldForFlag(QStringLiteral("-batch-size")), std::nullopt);

        // SGLang's server_args names stand for the same fields as vLLM's.
        const std::pair<const char *, ScenarioField> sglang[] = {
            {"--tp-size", ScenarioField::TensorParallelSize},
            {"--context-length", ScenarioField::MaxModelLen},
            {"--max-running-requests", ScenarioField::MaxNumSeqs},
            {"--mem-fraction-static", ScenarioField::MemFractionStatic},
            {"--model-path", ScenarioField::Model},
        };
        for (const auto &[flag, field] : sglang) {
            QCOMPARE(optionFlag(field, Engine::Sglang), QLatin1String(flag));
            QCOMPARE(fieldForFlag(QLatin1String(flag)), std::optional(field));
        }
        QCOMPARE(optionFlag(ScenarioField::MaxModelLen), QStringLiteral("--max-model-len"));
        QCOMPARE(fileKey(ScenarioField::MaxModelLen), QStringLiteral("max-model-len"));
        QCOMPARE(optionFlag(ScenarioField::BatchSize, Engine::Sglang), QStringLiteral("--batch-size"));

        // kvscope calc's options are those spellings: each names its field, and the SGLang ones
        // (the options that stand for a shared one) are spelled SGLang's way.
        for (const ScenarioOption &option : scenarioOptions()) {
            QCOMPARE(fieldForKey(option.name()), std::optional(option.field));
            if (option.isSglangSpelling())
                QCOMPARE(option.name(), sglangKey(option.field));
        }
        for (const char *name : {"tp-size", "context-length", "max-running-requests"}) {
            const ScenarioOption *option = findScenarioOption(QLatin1String(name));
            QVERIFY2(option && option->isSglangSpelling() && option->engine == OptionEngine::Sglang, name);
        }
        // SGLang's model flag belongs to its launch line, not to kvscope calc.
        QVERIFY(!findScenarioOption(QStringLiteral("model-path")));
    }

    void commandOptions()
    {
        QCOMPARE(commandFlag(CommandOption::MaxGpus), QStringLiteral("--max-gpus"));
        QCOMPARE(commandFlag(CommandOption::Scheme), QStringLiteral("--scheme"));
        QCOMPARE(commandFlag(CommandOption::Tensor), QStringLiteral("--tensor"));
        QCOMPARE(commandFlag(CommandOption::List), QStringLiteral("--list"));
        QCOMPARE(commandFlag(CommandOption::Json), QStringLiteral("--json"));
        QCOMPARE(serverFlag(ServerOption::VllmTokenizer), QStringLiteral("--tokenizer"));
        QCOMPARE(serverFlag(ServerOption::LlamaCppCacheTypeK), QStringLiteral("--cache-type-k"));
        QCOMPARE(flagForKey(QStringLiteral("max-running-requests")),
                 QStringLiteral("--max-running-requests"));
    }
};

QTEST_GUILESS_MAIN(TestSpellings)
#include "tst_spellings.moc"
