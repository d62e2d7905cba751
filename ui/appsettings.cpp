// SPDX-License-Identifier: MIT
#include "appsettings.h"

#include "common/error.h"
#include "library/library.h"
#include "library/userlibrary.h"
#include "plan/planner.h"

#include <functional>

#include <QSettings>

namespace kvscope::appsettings {

namespace {

const QString Model = QStringLiteral("scenario/model");
const QString Gpu = QStringLiteral("scenario/gpu");
const QString TensorParallel = QStringLiteral("scenario/tensorParallelSize");
const QString Dtype = QStringLiteral("scenario/dtype");
const QString Quantization = QStringLiteral("scenario/quantization");
const QString GroupSize = QStringLiteral("scenario/groupSize");
const QString KvCacheDtypeKey = QStringLiteral("scenario/kvCacheDtype");
const QString Utilization = QStringLiteral("scenario/gpuMemoryUtilization");
const QString BlockSize = QStringLiteral("scenario/blockSize");
const QString MaxModelLen = QStringLiteral("scenario/maxModelLen");
const QString BatchSize = QStringLiteral("scenario/batchSize");
const QString SeqLen = QStringLiteral("scenario/seqLen");
const QString Axis = QStringLiteral("explorer/growthAxis");
const QString Language = QStringLiteral("ui/language");

/// Reads one key with `apply`; a value it rejects is reported, not used.
void readKey(const QSettings &settings, const QString &key, QStringList &problems,
             const std::function<void(const QString &)> &apply)
{
    if (!settings.contains(key))
        return;
    const QString text = settings.value(key).toString();
    try {
        apply(text);
    } catch (const Error &error) {
        problems << QStringLiteral("%1 = '%2' ignored: %3").arg(key, text, error.message());
    }
}

std::int64_t positive(const QString &text, const QString &key)
{
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || value < 0)
        throw Error(QStringLiteral("%1: not a non-negative integer").arg(key));
    return value;
}

} // namespace

void reset()
{
    QSettings settings;
    settings.clear();
    settings.sync();
}

void saveScenario(const Scenario &s, GrowthAxis growthAxis)
{
    QSettings settings;
    settings.setValue(Model, s.model.id);
    settings.setValue(Gpu, s.gpu.id);
    settings.setValue(TensorParallel, s.tensorParallelSize);
    settings.setValue(Dtype, dtypeName(s.dtype));
    settings.setValue(Quantization, quantizationChoiceName(s.quantization));
    settings.setValue(GroupSize, s.quantization ? s.quantization->groupSize : 128);
    settings.setValue(KvCacheDtypeKey, dtypeName(s.kvCacheDtype));
    settings.setValue(Utilization, formatUtilization(s.gpuMemoryUtilizationPpm));
    settings.setValue(BlockSize, s.blockSize);
    settings.setValue(MaxModelLen, qlonglong(s.maxModelLen));
    settings.setValue(BatchSize, qlonglong(s.batchSize));
    settings.setValue(SeqLen, qlonglong(s.seqLen));
    settings.setValue(Axis, growthAxis == GrowthAxis::BatchSize ? QStringLiteral("batch")
                                                                : QStringLiteral("sequence"));
}

RestoredState loadScenario(const Scenario &defaults, const UserLibrary &library)
{
    RestoredState state;
    state.scenario = defaults;
    QSettings settings;
    if (settings.status() != QSettings::NoError) {
        state.problems << QStringLiteral("settings file %1 is unreadable; starting with defaults")
                              .arg(settings.fileName());
        return state;
    }
    Scenario &s = state.scenario;
    QStringList &problems = state.problems;
    readKey(settings, Model, problems, [&](const QString &t) {
        const ModelArch *model = library.findModel(t);
        if (!model)
            throw Error(QStringLiteral("no such model preset or imported model"));
        s.model = *model;
    });
    readKey(settings, Gpu, problems, [&](const QString &t) {
        const GpuSpec *gpu = library.findGpu(t);
        if (!gpu)
            throw Error(QStringLiteral("no such GPU preset or custom GPU"));
        s.gpu = *gpu;
    });
    readKey(settings, TensorParallel, problems,
            [&](const QString &t) { s.tensorParallelSize = int(positive(t, TensorParallel)); });
    readKey(settings, Dtype, problems, [&](const QString &t) { s.dtype = parseWeightDtype(t); });
    readKey(settings, Quantization, problems,
            [&](const QString &t) { s.quantization = parseQuantizationChoice(t); });
    readKey(settings, GroupSize, problems, [&](const QString &t) {
        bool ok = false;
        const int group = t.toInt(&ok);
        if (!ok || (group <= 0 && group != -1))
            throw Error(QStringLiteral("not a group size"));
        if (s.quantization)
            s.quantization->groupSize = group;
    });
    readKey(settings, KvCacheDtypeKey, problems,
            [&](const QString &t) { s.kvCacheDtype = parseKvCacheDtype(t); });
    readKey(settings, Utilization, problems,
            [&](const QString &t) { s.gpuMemoryUtilizationPpm = parseUtilization(t); });
    readKey(settings, BlockSize, problems,
            [&](const QString &t) { s.blockSize = int(positive(t, BlockSize)); });
    readKey(settings, MaxModelLen, problems,
            [&](const QString &t) { s.maxModelLen = positive(t, MaxModelLen); });
    readKey(settings, BatchSize, problems, [&](const QString &t) { s.batchSize = positive(t, BatchSize); });
    readKey(settings, SeqLen, problems, [&](const QString &t) { s.seqLen = positive(t, SeqLen); });
    readKey(settings, Axis, problems, [&](const QString &t) {
        if (t == QLatin1String("batch"))
            state.growthAxis = GrowthAxis::BatchSize;
        else if (t != QLatin1String("sequence"))
            throw Error(QStringLiteral("expected 'sequence' or 'batch'"));
    });

    // Each value may be fine alone and the combination still invalid.
    try {
        planMemory(s);
    } catch (const Error &error) {
        problems << QStringLiteral("saved scenario ignored: %1").arg(error.message());
        state.scenario = defaults;
    }
    return state;
}

QString language()
{
    return QSettings().value(Language).toString();
}

void setLanguage(const QString &code)
{
    QSettings().setValue(Language, code);
}

} // namespace kvscope::appsettings
