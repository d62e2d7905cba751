// SPDX-License-Identifier: MIT
// The spellings of every enum an option takes, each read from its one table
// (common/enumtable.h): the canonical names and the choices --help and the
// pickers list, the other spellings the parsers take (vLLM's --dtype half and
// float, its --quantization awq_marlin, gptq_marlin and bitsandbytes, and
// kvscope's shorthands), every name parsing back to its value, and the whole
// error message for a value that is none of them.
#include "core/common/error.h"
#include "core/precision/dtypes.h"
#include "core/precision/quantizationspec.h"
#include "core/quantization/scheme.h"
#include "core/quantization/synthetic.h"
#include "tests/tensorfiles.h"

#include <initializer_list>

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
        QCOMPARE(kvCacheDtypeChoices(),
                 names({"auto", "float32", "float16", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2"}));
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
                           "float16, bfloat16, fp8, fp8_e4m3, fp8_e5m2; for GGUF models also q8_0, q4_0)"));
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
        QCOMPARE(schemeChoices(),
                 names({"fp16", "bf16", "fp8-e4m3", "fp8-e5m2", "int8", "int4[-sym][-gN|-row]",
                        "int3[-sym][-gN|-row]", "int2[-sym][-gN|-row]", "nf4", "mxfp4"}));
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
                     "int4[-sym][-gN|-row], int3[-sym][-gN|-row], int2[-sym][-gN|-row], nf4, mxfp4)"));
    }
};

QTEST_GUILESS_MAIN(TestSpellings)
#include "tst_spellings.moc"
