// SPDX-License-Identifier: MIT
// AWQ and GPTQ on a 4096 x 4096 layer with 2,048 calibration rows of
// synthetic outlier activations (the default of kvscope quant), for
// docs/benchmarks.md: each method whole, GPTQ's Gram matrix and Cholesky
// factorization alone, and the output error of one scheme on the 256
// held-out rows. Prints the output SQNR of round-to-nearest, AWQ and GPTQ.
// Run: build/tests/benchmarks/bench_fitting -iterations 3
#include "core/quantization/activations.h"
#include "core/quantization/awq.h"
#include "core/quantization/denselinalg.h"
#include "core/quantization/gptq.h"
#include "core/quantization/outputerror.h"
#include "core/quantization/synthetic.h"

#include <QTest>

using namespace kvscope::quant;

class BenchFitting : public QObject
{
    Q_OBJECT

    static constexpr std::int64_t Size = 4096;
    std::vector<float> m_weights;
    Activations m_activations;
    double m_energy = 0;

    dense::ConstMatrixRef weights() const { return {m_weights.data(), Size, Size, Size}; }

    double outputSqnr(const std::vector<float> &dequantized) const
    {
        return outputSqnrDb(m_activations.heldOut(), weights(), dequantized.data(), m_energy);
    }

private Q_SLOTS:
    void initTestCase()
    {
        SyntheticSpec spec;
        spec.rows = Size;
        spec.cols = Size;
        spec.seed = 1;
        const TensorData data = generateSynthetic(spec);
        const float *values = data.floats(0, data.elements(), nullptr);
        m_weights.assign(values, values + data.elements());
        m_activations = loadActivations(SyntheticActivations{}, Size);
        m_energy = outputEnergy(m_activations.heldOut(), weights());
        std::vector<float> rtn(m_weights.size());
        awqFoldBack(weights(), std::vector<float>(size_t(Size), 1.0f),
                    parseScheme(QStringLiteral("int4-g128")), {rtn.data(), Size, Size, Size});
        const FittedWeights awq =
            awqQuantize(weights(), m_activations.calibration(), parseScheme(QStringLiteral("awq-int4-g128")));
        const FittedWeights gptq = gptqQuantize(weights(), m_activations.calibration(),
                                                parseScheme(QStringLiteral("gptq-int4-g128")));
        std::vector<float> rtnSymmetric(m_weights.size());
        awqFoldBack(weights(), std::vector<float>(size_t(Size), 1.0f),
                    parseScheme(QStringLiteral("int4-sym-g128")), {rtnSymmetric.data(), Size, Size, Size});
        qInfo("kernels %s, threads %d; output SQNR on %lld held-out rows: int4-g128 %.2f dB, int4-sym-g128 "
              "%.2f dB, awq-int4-g128 %.2f dB (alpha %.2f), gptq-int4-g128 %.2f dB",
              dense::denseKernels().isa, workerCount(1 << 20), qlonglong(m_activations.heldOutRows),
              outputSqnr(rtn), outputSqnr(rtnSymmetric), outputSqnr(awq.values), awq.awqAlpha,
              outputSqnr(gptq.values));
    }

    void awq()
    {
        const Scheme scheme = parseScheme(QStringLiteral("awq-int4-g128"));
        double sink = 0;
        QBENCHMARK
        {
            sink += awqQuantize(weights(), m_activations.calibration(), scheme).awqAlpha;
        }
        QVERIFY(sink >= 0);
    }

    void gptq()
    {
        const Scheme scheme = parseScheme(QStringLiteral("gptq-int4-g128"));
        double sink = 0;
        QBENCHMARK
        {
            sink += gptqQuantize(weights(), m_activations.calibration(), scheme).values.front();
        }
        QVERIFY(sink == sink);
    }

    void gram()
    {
        std::vector<float> h(size_t(Size * Size));
        QBENCHMARK
        {
            dense::gram(m_activations.calibration(), {h.data(), Size, Size, Size}, 1.0f);
        }
    }

    void cholesky()
    {
        std::vector<float> h(size_t(Size * Size));
        dense::gram(m_activations.calibration(), {h.data(), Size, Size, Size}, 1.0f);
        for (std::int64_t i = 0; i < Size; ++i)
            h[size_t(i * Size + i)] += 1.0f;
        std::vector<float> a(h.size());
        QBENCHMARK
        {
            a = h;
            QVERIFY(dense::choleskyLower({a.data(), Size, Size, Size}));
        }
    }

    void outputError()
    {
        double sink = 0;
        QBENCHMARK
        {
            sink += outputSqnrDb(m_activations.heldOut(), weights(), m_weights.data(), m_energy);
        }
        QVERIFY(sink > 0);
    }
};

QTEST_GUILESS_MAIN(BenchFitting)
#include "bench_fitting.moc"
