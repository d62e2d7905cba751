// SPDX-License-Identifier: MIT
#include "core/analysis/startuplog.h"

#include "core/common/regularfile.h"
#include "core/common/scenariofield.h"

#include <algorithm>

#include <QHash>
#include <QRegularExpression>

namespace kvscope {

namespace {

// The lines are vLLM's own (V1 engine, 0.10 on): vllm/entrypoints/utils.py
// ("non-default args"), vllm/v1/engine/core.py and vllm/engine/llm_engine.py
// ("Initializing a V1 LLM engine (v...) with config: ..."), vllm/config/scheduler.py
// ("Chunked prefill is enabled with max_num_batched_tokens=..."), vllm/engine/arg_utils.py
// ("Defaulting max_num_seqs to ..."), vllm/v1/worker/gpu_worker.py (the memory
// snapshot, "Memory profiling takes", "Available KV cache memory"),
// vllm/v1/worker/gpu_model_runner.py ("Model loading took", "Estimated CUDA graph
// memory") and vllm/v1/core/kv_cache_utils.py ("GPU KV cache size", "Maximum
// concurrency", the ValueError when one request does not fit).
//
// SGLang's (0.4 on): python/sglang/srt/server_args.py ("server_args=ServerArgs(...)"),
// python/sglang/srt/model_executor/model_runner.py ("Load weight begin/end. ... avail mem=X GB,
// mem usage=Y GB", "Memory pool end"), python/sglang/srt/mem_cache/memory_pool.py ("KV Cache is
// allocated. #tokens: N, K size: X GB, V size: Y GB", MLA's "KV size"),
// python/sglang/srt/model_executor/cuda_graph_runner.py ("Capture cuda graph end. ... mem
// usage") and python/sglang/srt/managers/scheduler.py ("max_total_num_tokens=N, ...,
// max_running_requests=R, context_len=C"). SGLang's "GB" is 2^30 B
// (get_available_gpu_memory divides by 1 << 30; memory_pool.py's GB is 1024^3).

QRegularExpression pattern(const char *text)
{
    return QRegularExpression(QLatin1String(text));
}

/// Splits "a=1, b='x, y', c=[1, 2]" at the commas outside quotes and brackets.
QStringList splitTopLevel(const QString &text, QChar separator)
{
    QStringList parts;
    int depth = 0;
    QChar quote;
    qsizetype start = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!quote.isNull()) {
            if (c == QLatin1Char('\\'))
                ++i;
            else if (c == quote)
                quote = QChar();
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
        } else if (c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char('{')) {
            ++depth;
        } else if (c == QLatin1Char(')') || c == QLatin1Char(']') || c == QLatin1Char('}')) {
            --depth;
        } else if (c == separator && depth == 0) {
            parts << text.mid(start, i - start).trimmed();
            start = i + 1;
        }
    }
    parts << text.mid(start).trimmed();
    parts.removeAll(QString());
    return parts;
}

/// A command line's words as a shell splits them: at blanks outside quotes, the quotes taken off
/// ('{"num_redundant_experts": 32}' is one word).
QStringList shellWords(const QString &line)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (const QChar c : line) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

/// A Python literal as vLLM prints it: 'text' -> text; None -> empty.
QString pythonValue(QString value)
{
    value = value.trimmed();
    if (value.size() >= 2 && (value.front() == QLatin1Char('\'') || value.front() == QLatin1Char('"')) &&
        value.back() == value.front())
        value = value.mid(1, value.size() - 2);
    if (value == QLatin1String("None"))
        return {};
    if (value.startsWith(QLatin1String("torch.")))
        value = value.mid(6); // dtype=torch.bfloat16
    return value;
}

/// vLLM's argument names: --max-model-len and max_model_len are one key; the engine
/// config line calls the context max_seq_len.
QString argumentKey(QString key)
{
    key = key.trimmed();
    while (key.startsWith(QLatin1Char('.')) || key.startsWith(QLatin1Char(' '))) // "... dtype" in an excerpt
        key.remove(0, 1);
    while (key.startsWith(QLatin1Char('-')))
        key.remove(0, 1);
    key.replace(QLatin1Char('-'), QLatin1Char('_'));
    if (key == QLatin1String("max_seq_len"))
        return QStringLiteral("max_model_len");
    return key;
}

class LogReader
{
public:
    explicit LogReader(StartupLog &log) : m_log(log) {}

    void read(const QString &text)
    {
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            m_line = int(i) + 1;
            // A shell command continued with a backslash is one line, numbered where it starts.
            QString line = lines.at(i);
            while (line.endsWith(QLatin1Char('\\')) && i + 1 < lines.size()) {
                line.chop(1);
                line += QLatin1Char(' ') + lines.at(++i).trimmed();
            }
            readLine(line);
        }
        nonTorchFromConsumed();
    }

private:
    void argument(const QString &key, const QString &value)
    {
        QString name = argumentKey(key);
        if (m_log.engine == Engine::Sglang)
            name = sglangArgumentKey(name);
        if (value.isEmpty() || value == QLatin1String("...") || m_log.hasArgument(name))
            return;
        m_log.arguments.append({name, value, m_line});
        const bool names = name == QLatin1String(m_log.engine == Engine::Sglang ? "model_path" : "model");
        if (names && m_log.model.isEmpty())
            m_log.model = value;
    }

    /// SGLang's short spellings read as its server_args names (python/sglang/srt/server_args.py:
    /// --tp for --tp-size, --dp for --dp-size, --ep and --expert-parallel-size for --ep-size,
    /// --model for --model-path, --tensor-parallel-size for --tp-size).
    static QString sglangArgumentKey(const QString &name)
    {
        static const QHash<QString, QString> aliases{
            {QStringLiteral("tp"), QStringLiteral("tp_size")},
            {QStringLiteral("tensor_parallel_size"), QStringLiteral("tp_size")},
            {QStringLiteral("dp"), QStringLiteral("dp_size")},
            {QStringLiteral("ep"), QStringLiteral("ep_size")},
            {QStringLiteral("expert_parallel_size"), QStringLiteral("ep_size")},
            {QStringLiteral("pp"), QStringLiteral("pp_size")},
            {QStringLiteral("model"), QStringLiteral("model_path")},
        };
        return aliases.value(name, name);
    }

    void becomeSglang()
    {
        if (m_log.engine == Engine::Sglang)
            return;
        m_log.engine = Engine::Sglang;
        // Arguments read before the first SGLang line took vLLM's spelling: respell them.
        for (LogReading &reading : m_log.arguments)
            reading.key = sglangArgumentKey(reading.key);
    }

    void version(const QString &text)
    {
        m_log.vllmVersion = text;
        m_log.vllmVersionLine = m_line;
    }

    /// A per-GPU figure: the first rank's, and under pipeline parallelism the first stage's.
    void stageFigureGiB(std::optional<double> &field, const char *key, const QString &written)
    {
        if (!m_laterStage)
            figureGiB(field, key, written);
    }

    template <typename T>
    void figure(std::optional<T> &field, const char *key, const QString &written, T value)
    {
        if (field)
            return; // the first rank's
        field = value;
        m_log.figures.append({QLatin1String(key), written, m_line});
    }

    void figureGiB(std::optional<double> &field, const char *key, const QString &written)
    {
        bool ok = false;
        const double value = written.toDouble(&ok);
        if (ok)
            figure(field, key, written + QStringLiteral(" GiB"), value);
    }

    void readLine(const QString &line)
    {
        readSglangLine(line);
        // vLLM's Worker_TP<rank> (Worker_TP<rank>_EP<rank> under expert parallelism,
        // Worker_PP<stage>_TP<rank> in a pipeline), SGLang's [... TP<rank> EP<rank>].
        static const QRegularExpression rank = pattern(R"((?:Worker_TP|_TP|[\[ ]TP)(\d+)[\]_ ])");
        if (const QRegularExpressionMatch m = rank.match(line); m.hasMatch())
            m_log.ranksSeen = std::max(m_log.ranksSeen, m.captured(1).toInt() + 1);
        // vLLM names a pipeline's workers Worker_PP<stage> (or Worker_PP<stage>_TP<rank>).
        static const QRegularExpression stage = pattern(R"(Worker_PP(\d+)[_ ])");
        const QRegularExpressionMatch stageMatch = stage.match(line);
        if (stageMatch.hasMatch())
            m_log.stagesSeen = std::max(m_log.stagesSeen, stageMatch.captured(1).toInt() + 1);
        // A later stage's own figures are not the first stage's, which the explanation compares.
        m_laterStage = stageMatch.hasMatch() && stageMatch.captured(1).toInt() > 0;

        static const QRegularExpression apiVersion = pattern("vLLM API server version (\\S+)");
        static const QRegularExpression engineConfig =
            pattern("Initializing a V1 LLM engine \\(v([^)]+)\\) with config: (.*)$");
        static const QRegularExpression nonDefault = pattern(R"(non-default args: \{(.*)\}\s*$)");
        // `vllm serve ...`, or a docker run of vLLM's image, whose entrypoint is `vllm serve`.
        static const QRegularExpression serve =
            pattern(R"((?:(?:^|\s|\$ )vllm serve|\svllm/vllm-openai(?::\S+)?)\s+(.*)$)");
        static const QRegularExpression chunked =
            pattern("Chunked prefill is enabled with max_num_batched_tokens=(\\d+)");
        static const QRegularExpression defaulting =
            pattern("Defaulting (max_num_seqs|max_num_batched_tokens) to (\\d+)");
        static const QRegularExpression snapshot = pattern("memory snapshot:.*total_memory=([\\d.]+)GiB");
        static const QRegularExpression profilingTotal = pattern("total_gpu_memory=([\\d.]+)GiB");
        static const QRegularExpression loading =
            pattern("(?:Model loading took|Loading model weights took) ([\\d.]+) ?Gi?B");
        static const QRegularExpression peak =
            pattern("(?:torch peak memory increase: |PyTorch activation peak memory takes )([\\d.]+)GiB");
        static const QRegularExpression nonTorch =
            pattern("(?:non-torch forward increase memory: |non_torch_memory takes )([\\d.]+)GiB");
        static const QRegularExpression graphs = pattern("Estimated CUDA graph memory: ([\\d.]+) GiB total");
        // vLLM 0.10.2's worker memory line (vllm-project/vllm#21489, vllm/v1/worker/gpu_worker.py; INFO until
        // later releases made it DEBUG): the GPU's total, then the profiling's components.
        static const QRegularExpression freeOnDevice = pattern(
            R"(Free memory on device \(([\d.]+)/([\d.]+) GiB\) on startup\..*Actual usage is ([\d.]+) )"
            R"(GiB for weight, ([\d.]+) GiB for peak activation, ([\d.]+) GiB for non-torch memory)");
        // Later releases' form of that line (vLLM 0.27.1's gpu_worker.py:789, at INFO): weights and non-torch
        // memory as one figure, the graphs as captured.
        static const QRegularExpression consumedOnDevice = pattern(
            R"(Free memory on device \(([\d.]+)/([\d.]+) GiB\) on startup\..*Actual usage is ([\d.]+) )"
            R"(GiB for consumed memory \(weights \+ non-torch\), ([\d.]+) GiB for peak activation)");
        // The API server's banner (vLLM 0.2x, api_utils.py): the release beside the block-letter logo.
        static const QRegularExpression bannerVersion =
            pattern(R"(\x{2588}\s+version\s+(\d+\.\d+\S*))"); // U+2588, the full block
        static const QRegularExpression graphProfiling = pattern("CUDA graph memory profiling is enabled");
        static const QRegularExpression available = pattern("Available KV cache memory: (-?[\\d.]+) GiB");
        static const QRegularExpression cacheSize = pattern("GPU KV cache size: ([\\d,]+) tokens");
        static const QRegularExpression concurrency =
            pattern("Maximum concurrency for ([\\d,]+) tokens per request: ([\\d.]+)x");
        static const QRegularExpression encoder = pattern(
            R"(Encoder cache will be initialized with a budget of ([\d,]+) tokens, and profiled with )"
            R"((\d+) image items)");
        // vLLM's refusals when the KV cache cannot hold a request, or has no memory at all
        // (_check_enough_kv_cache_memory, vllm/v1/core/kv_cache_utils.py).
        static const QRegularExpression refused =
            pattern("ValueError: ((?:The model's max seq len|To serve at least one request).*(?:KV "
                    "cache|max_model_len).*|No available memory for the cache blocks.*)$");

        QRegularExpressionMatch m;
        if (((m = apiVersion.match(line)).hasMatch() || (m = bannerVersion.match(line)).hasMatch()) &&
            m_log.vllmVersion.isEmpty())
            version(m.captured(1));
        // `vllm --version` pasted with its answer: the first bare release number after it.
        static const QRegularExpression bareVersion =
            pattern(R"(^\s*v?(\d+\.\d+(?:\.\d+)*(?:[.+][\w.]+)?)\s*$)");
        static const QRegularExpression versionCommand = pattern(R"(\bvllm\s+-{2}version\b)");
        // The package itself: a `pip list` row ("vllm 0.27.1"), or `pip show vllm` ("Name: vllm", then
        // "Version: 0.27.1").
        static const QRegularExpression pipRow =
            pattern(R"(^\s*vllm\s+v?(\d+\.\d+(?:\.\d+)*(?:[.+][\w.]+)?)\s*$)");
        static const QRegularExpression pipShowName = pattern(R"(^\s*Name:\s*vllm\s*$)");
        static const QRegularExpression pipShowVersion = pattern(R"(^\s*Version:\s*(\S+)\s*$)");
        if (versionCommand.match(line).hasMatch())
            m_versionAsked = true;
        else if (m_versionAsked && m_log.vllmVersion.isEmpty() && (m = bareVersion.match(line)).hasMatch())
            version(m.captured(1));
        if (m_log.vllmVersion.isEmpty() && (m = pipRow.match(line)).hasMatch())
            version(m.captured(1));
        if (pipShowName.match(line).hasMatch())
            m_pipShowsVllm = true;
        else if (m_pipShowsVllm && m_log.vllmVersion.isEmpty() && (m = pipShowVersion.match(line)).hasMatch())
            version(m.captured(1));
        else if (line.trimmed().startsWith(QLatin1String("Name:")))
            m_pipShowsVllm = false;
        if ((m = engineConfig.match(line)).hasMatch()) {
            if (m_log.vllmVersion.isEmpty())
                version(m.captured(1));
            for (const QString &pair : splitTopLevel(m.captured(2), QLatin1Char(','))) {
                const qsizetype equals = pair.indexOf(QLatin1Char('='));
                if (equals > 0)
                    argument(pair.left(equals), pythonValue(pair.mid(equals + 1)));
            }
        }
        if ((m = nonDefault.match(line)).hasMatch()) {
            for (const QString &pair : splitTopLevel(m.captured(1), QLatin1Char(','))) {
                const QStringList keyValue = splitTopLevel(pair, QLatin1Char(':'));
                if (keyValue.size() == 2 && keyValue.first() != QLatin1String("'model_tag'"))
                    argument(pythonValue(keyValue.first()), pythonValue(keyValue.last()));
            }
        }
        if ((m = serve.match(line)).hasMatch())
            readServeLine(m.captured(1));
        if ((m = chunked.match(line)).hasMatch())
            argument(QStringLiteral("max_num_batched_tokens"), m.captured(1));
        if ((m = defaulting.match(line)).hasMatch())
            argument(m.captured(1), m.captured(2));
        if ((m = snapshot.match(line)).hasMatch() || (m = profilingTotal.match(line)).hasMatch())
            figureGiB(m_log.totalGpuMemoryGiB, "total_memory", m.captured(1));
        static const QRegularExpression snapshotFree = pattern("memory snapshot:.*free_memory=([\\d.]+)GiB");
        if ((m = snapshotFree.match(line)).hasMatch())
            figureGiB(m_log.freeAtStartupGiB, "free_memory", m.captured(1));
        if ((m = loading.match(line)).hasMatch())
            stageFigureGiB(m_log.weightsGiB, "model_loading", m.captured(1));
        if ((m = freeOnDevice.match(line)).hasMatch()) {
            figureGiB(m_log.freeAtStartupGiB, "free_memory", m.captured(1));
            figureGiB(m_log.totalGpuMemoryGiB, "total_memory", m.captured(2));
            stageFigureGiB(m_log.activationPeakGiB, "torch_peak_memory_increase", m.captured(4));
            stageFigureGiB(m_log.nonTorchGiB, "non_torch_memory", m.captured(5));
        }
        if ((m = consumedOnDevice.match(line)).hasMatch()) {
            figureGiB(m_log.freeAtStartupGiB, "free_memory", m.captured(1));
            figureGiB(m_log.totalGpuMemoryGiB, "total_memory", m.captured(2));
            stageFigureGiB(m_log.activationPeakGiB, "torch_peak_memory_increase", m.captured(4));
            if (!m_laterStage && !m_consumed) {
                m_consumed = m.captured(3).toDouble();
                m_consumedLine = m_line;
            }
        }
        if ((m = peak.match(line)).hasMatch())
            stageFigureGiB(m_log.activationPeakGiB, "torch_peak_memory_increase", m.captured(1));
        if ((m = nonTorch.match(line)).hasMatch())
            stageFigureGiB(m_log.nonTorchGiB, "non_torch_memory", m.captured(1));
        if ((m = graphs.match(line)).hasMatch())
            stageFigureGiB(m_log.cudaGraphEstimateGiB, "estimated_cuda_graph_memory", m.captured(1));
        static const QRegularExpression captured =
            pattern("Graph capturing finished in [\\d.]+ secs?, took ([\\d.]+) GiB");
        if ((m = captured.match(line)).hasMatch())
            stageFigureGiB(m_log.cudaGraphCapturedGiB, "cuda_graph_capture", m.captured(1));
        readGraphCounts(line);
        if (graphProfiling.match(line).hasMatch() && m_log.cudaGraphProfilingLine == 0)
            m_log.cudaGraphProfilingLine = m_line;
        readGraphUtilizationAdvice(line);
        if (line.contains(QLatin1String("Using V2 Model Runner")) && m_log.modelRunnerV2Line == 0)
            m_log.modelRunnerV2Line = m_line;
        static const QRegularExpression rayWorker =
            pattern(R"(\(RayWorkerWrapper pid=\d+, ip=([0-9A-Fa-f.:]+)\))");
        if ((m = rayWorker.match(line)).hasMatch() && !m_log.workerHosts.contains(m.captured(1)))
            m_log.workerHosts << m.captured(1);
        static const QRegularExpression fillGpu =
            pattern(R"(`-{2}kv-cache-memory=(\d+)`[^`]*to fully utilize gpu memory)");
        if (!m_laterStage && !m_log.kvCacheMemoryToFillGpu && (m = fillGpu.match(line)).hasMatch()) {
            bool ok = false;
            const qlonglong bytes = m.captured(1).toLongLong(&ok); // digits beyond 2^63 do not convert
            if (ok && bytes > 0)
                m_log.kvCacheMemoryToFillGpu = bytes;
        }
        if (line.contains(QLatin1String("Compiling a graph for compile range")) && m_log.compiledLine == 0)
            m_log.compiledLine = m_line;
        if ((line.contains(QLatin1String("Directly load the compiled graph")) ||
             line.contains(QLatin1String("Directly load AOT compilation"))) &&
            m_log.compileCacheLine == 0)
            m_log.compileCacheLine = m_line;
        // The engine config's pass_config, or the list of fusions vLLM 0.19 on prints as it sets them up
        // ("Enabled custom fusions: norm_quant, act_quant, allreduce_rms", vllm/config/compilation.py).
        static const QRegularExpression fusion = pattern(R"('fuse_allreduce_rms': (True|False))");
        static const QRegularExpression fusions = pattern(R"(Enabled custom fusions: ([\w, ]*))");
        static const QRegularExpression allReduceRms = pattern(R"(\ballreduce_rms\b)");
        if (m_log.allReduceRmsFusionLine == 0) {
            if ((m = fusion.match(line)).hasMatch())
                m_log.allReduceRmsFusion = m.captured(1) == QLatin1String("True");
            else if ((m = fusions.match(line)).hasMatch())
                m_log.allReduceRmsFusion = m.captured(1).contains(allReduceRms);
            if (m_log.allReduceRmsFusion)
                m_log.allReduceRmsFusionLine = m_line;
        }
        if (line.contains(QLatin1String("Custom allreduce is disabled because")) &&
            m_log.customAllReduceOffLine == 0)
            m_log.customAllReduceOffLine = m_line;
        static const QRegularExpression device = pattern("device_name=([A-Za-z0-9_\\-]+)");
        if (m_log.deviceNameLine == 0 && (m = device.match(line)).hasMatch()) {
            m_log.deviceName = m.captured(1);
            m_log.deviceNameLine = m_line;
        }
        // A GPU row of an nvidia-smi table pasted beside the log: "|   0  NVIDIA L40S      On  |   ...".
        static const QRegularExpression smiRow =
            pattern(R"(^\|\s+\d+\s+(NVIDIA\s.*?\S)\s{2,}(?:On|Off)\s+\|)");
        if (m_log.deviceNameLine == 0 && (m = smiRow.match(line)).hasMatch()) {
            m_log.deviceName = m.captured(1).replace(QLatin1Char(' '), QLatin1Char('_'));
            m_log.deviceNameLine = m_line;
            m_log.deviceNameFromNvidiaSmi = true;
        }
        if ((m = available.match(line)).hasMatch())
            stageFigureGiB(m_log.kvCacheGiB, "available_kv_cache_memory", m.captured(1));
        if ((m = cacheSize.match(line)).hasMatch())
            tokenFigure("gpu_kv_cache_size", m.captured(1));
        if ((m = encoder.match(line)).hasMatch()) {
            const std::int64_t budget = QString(m.captured(1)).remove(QLatin1Char(',')).toLongLong();
            figure(m_log.encoderBudget, "encoder_cache_budget", m.captured(1) + QStringLiteral(" tokens"),
                   budget);
            figure(m_log.encoderProfileItems, "encoder_profile_items",
                   m.captured(2) + QStringLiteral(" image items"), std::int64_t(m.captured(2).toLongLong()));
        }
        if ((m = concurrency.match(line)).hasMatch()) {
            bool ok = false;
            const double x = m.captured(2).toDouble(&ok);
            if (ok)
                figure(m_log.maxConcurrency, "maximum_concurrency", m.captured(2) + QStringLiteral("x"), x);
            argument(QStringLiteral("max_model_len"), QString(m.captured(1)).remove(QLatin1Char(',')));
        }
        // The refusal states the KV cache memory it had (vllm/v1/core/kv_cache_utils.py).
        static const QRegularExpression refusedAvailable =
            pattern(R"(larger than the available KV cache memory \(([\d.]+) ?GiB\))");
        if ((m = refusedAvailable.match(line)).hasMatch())
            figureGiB(m_log.kvCacheGiB, "available_kv_cache_memory", m.captured(1));
        if ((m = refused.match(line)).hasMatch() && !m_log.refusedToStart) {
            m_log.refusedToStart = true;
            m_log.refusal = m.captured(1).trimmed();
        }
        readStartFailure(line);
        // A budget beyond the memory free at start-up (request_memory, vllm/v1/worker/utils.py): other
        // processes hold the rest of the GPU.
        static const QRegularExpression tooLittleFree =
            pattern(R"((Free memory on device (?:\S+ )?\(([\d.]+)/([\d.]+) GiB\) on startup is less than )"
                    R"(desired GPU memory utilization.*)$)");
        if ((m = tooLittleFree.match(line)).hasMatch()) {
            figureGiB(m_log.freeAtStartupGiB, "free_memory", m.captured(2));
            figureGiB(m_log.totalGpuMemoryGiB, "total_memory", m.captured(3));
            if (!m_log.refusedToStart) {
                m_log.refusedToStart = true;
                m_log.refusal = m.captured(1).trimmed();
            }
        }
    }

    /// An out-of-memory error that ended the start: torch's message with its figures, and vLLM's own
    /// for the sampler's warm-up (GPUModelRunner._dummy_sampler_run, gpu_model_runner.py), which names
    /// the phase. The first of each, the first rank's.
    void readStartFailure(const QString &line)
    {
        static const QRegularExpression sampler =
            pattern(R"((CUDA out of memory occurred when warming up sampler with (\d+) dummy requests)\.)");
        static const QRegularExpression outOfMemory = pattern(
            R"(OutOfMemoryError: (CUDA out of memory)\. Tried to allocate ([\d.]+) (MiB|GiB)\. GPU \d+ )"
            R"(has a total capacity of [\d.]+ GiB of which ([\d.]+) (MiB|GiB) is free\.)"
            R"((?:.*?([\d.]+) (MiB|GiB) is reserved by PyTorch but unallocated)?)");
        const auto mib = [](const QString &value, const QString &unit) {
            return value.toDouble() * (unit == QLatin1String("GiB") ? 1024.0 : 1.0);
        };
        QRegularExpressionMatch m;
        if (!m_log.samplerWarmupRequests && (m = sampler.match(line)).hasMatch()) {
            m_log.samplerWarmupRequests = m.captured(2).toLongLong();
            m_log.startFailure = m.captured(1);
            m_log.startFailureLine = m_line;
        }
        if (!m_log.oomRequestedMiB && (m = outOfMemory.match(line)).hasMatch()) {
            m_log.oomRequestedMiB = mib(m.captured(2), m.captured(3));
            m_log.oomFreeMiB = mib(m.captured(4), m.captured(5));
            if (!m.captured(6).isEmpty())
                m_log.oomReservedUnallocatedMiB = mib(m.captured(6), m.captured(7));
            if (m_log.startFailure.isEmpty()) {
                m_log.startFailure = m.captured(1);
                m_log.startFailureLine = m_line;
            }
        }
    }

    void readSglangLine(const QString &line)
    {
        static const QRegularExpression launch = pattern(R"((?:sglang\.launch_server|sglang serve)\s+(.*)$)");
        static const QRegularExpression serverArgs = pattern(R"(server_args=ServerArgs\((.*)\)\s*$)");
        static const QRegularExpression weightsBegin =
            pattern(R"(Load weight begin\. avail mem=([\d.]+) ?GB)");
        static const QRegularExpression weightsEnd = pattern(R"(Load weight end\..*avail mem=([\d.]+) ?GB)");
        static const QRegularExpression weightsUsage =
            pattern(R"(Load weight end\..*mem usage=([\d.]+) ?GB)");
        static const QRegularExpression pool = pattern(
            R"(KV Cache (?:is )?allocated\.(?:.*#tokens: (\d+))?.*?(?:K size: ([\d.]+) GB, V size: ([\d.]+) GB|KV size: ([\d.]+) GB))");
        static const QRegularExpression totals = pattern(R"(max_total_num_tokens=(\d+))");
        static const QRegularExpression running =
            pattern(R"(max_total_num_tokens=.*max_running_requests=(\d+))");
        static const QRegularExpression context = pattern(R"(max_total_num_tokens=.*context_len=(\d+))");
        static const QRegularExpression graphs =
            pattern(R"(Capture cuda graph end\..*mem usage=([\d.]+) ?GB)");
        // ModelRunner's hybrid SWA pool and MambaPool (python/sglang/srt/model_executor/model_runner.py,
        // python/sglang/srt/mem_cache/memory_pool.py).
        static const QRegularExpression swaPool =
            pattern(R"(Use sliding window memory pool\..*swa_layer_tokens=(\d+))");
        static const QRegularExpression statePool =
            pattern(R"(Mamba Cache is allocated\..*max_mamba_cache_size: (\d+))");

        QRegularExpressionMatch m;
        if ((m = launch.match(line)).hasMatch()) {
            becomeSglang();
            readServeLine(m.captured(1));
        }
        if ((m = serverArgs.match(line)).hasMatch()) {
            becomeSglang();
            for (const QString &pair : splitTopLevel(m.captured(1), QLatin1Char(','))) {
                const qsizetype equals = pair.indexOf(QLatin1Char('='));
                if (equals > 0)
                    argument(pair.left(equals), pythonValue(pair.mid(equals + 1)));
            }
        }
        if ((m = weightsBegin.match(line)).hasMatch()) {
            becomeSglang();
            figureGiB(m_log.freeBeforeWeightsGiB, "load_weight_begin_avail_mem", m.captured(1));
        }
        if ((m = weightsEnd.match(line)).hasMatch()) {
            becomeSglang();
            figureGiB(m_log.freeAfterWeightsGiB, "load_weight_end_avail_mem", m.captured(1));
        }
        // Newer releases name the checkpoint's own quantization there ("quant=fp8, fmt=e4m3"), which
        // server_args leaves None when it is detected from the checkpoint.
        static const QRegularExpression loadedQuantization = pattern(R"(Load weight end\..*\bquant=(\w+))");
        if ((m = loadedQuantization.match(line)).hasMatch())
            argument(QStringLiteral("quantization"), m.captured(1));
        if ((m = weightsUsage.match(line)).hasMatch())
            figureGiB(m_log.weightsGiB, "load_weight_mem_usage", m.captured(1));
        if ((m = pool.match(line)).hasMatch()) {
            becomeSglang();
            if (m.hasCaptured(1))
                tokenFigure("kv_cache_tokens", m.captured(1));
            const bool split = m.hasCaptured(2);
            bool ok = false, ok2 = true;
            const double k = (split ? m.captured(2) : m.captured(4)).toDouble(&ok);
            const double v = split ? m.captured(3).toDouble(&ok2) : 0.0;
            if (ok && ok2)
                figure(m_log.kvCacheGiB, "kv_cache_size",
                       split ? QStringLiteral("K %1 GiB + V %2 GiB").arg(m.captured(2), m.captured(3))
                             : m.captured(4) + QStringLiteral(" GiB"),
                       k + v);
        }
        if ((m = totals.match(line)).hasMatch()) {
            becomeSglang();
            tokenFigure("max_total_num_tokens", m.captured(1));
        }
        if ((m = running.match(line)).hasMatch())
            figure(m_log.maxRunningRequests, "max_running_requests", m.captured(1),
                   std::int64_t(m.captured(1).toLongLong()));
        if ((m = context.match(line)).hasMatch())
            argument(QStringLiteral("context_length"), m.captured(1));
        if ((m = graphs.match(line)).hasMatch())
            figureGiB(m_log.cudaGraphGiB, "capture_cuda_graph_mem_usage", m.captured(1));
        if ((m = swaPool.match(line)).hasMatch()) {
            becomeSglang();
            figure(m_log.swaPoolTokens, "swa_layer_tokens", m.captured(1) + QStringLiteral(" tokens"),
                   std::int64_t(m.captured(1).toLongLong()));
        }
        if ((m = statePool.match(line)).hasMatch()) {
            becomeSglang();
            figure(m_log.statePoolSlots, "max_mamba_cache_size", m.captured(1),
                   std::int64_t(m.captured(1).toLongLong()));
        }
    }

    /// The graphs the estimate is over, the first stage's first rank's, as the estimate.
    void readGraphCounts(const QString &line)
    {
        static const QRegularExpression profiling = pattern("Profiling CUDA graph memory: (.*)$");
        static const QRegularExpression mode = pattern(R"((PIECEWISE|FULL)=(\d+) \(largest=(\d+)\))");
        const QRegularExpressionMatch m = profiling.match(line);
        if (!m.hasMatch() || m_laterStage || m_log.piecewiseGraphs + m_log.fullGraphs > 0)
            return;
        for (QRegularExpressionMatchIterator it = mode.globalMatch(m.captured(1)); it.hasNext();) {
            const QRegularExpressionMatch graphs = it.next();
            const bool piecewise = graphs.captured(1) == QLatin1String("PIECEWISE");
            (piecewise ? m_log.piecewiseGraphs : m_log.fullGraphs) = graphs.captured(2).toInt();
            (piecewise ? m_log.largestPiecewiseGraph : m_log.largestFullGraph) = graphs.captured(3).toInt();
        }
    }

    /// The utilizations beside the CUDA-graph estimate: the first stage's first rank's, as the estimate.
    void readGraphUtilizationAdvice(const QString &line)
    {
        // vLLM names the option in these lines; a number as printed, without the sentence's full stop.
        static const QString flag =
            QRegularExpression::escape(optionFlag(ScenarioField::GpuMemoryUtilization));
        static const QString number = QStringLiteral(R"((\d+(?:\.\d+)?))");
        static const QRegularExpression enabled(
            QStringLiteral(
                "current %1=%2 is equivalent to %1=%2 without CUDA graph memory profiling.*increase %1 to %2")
                .arg(flag, number));
        // Off, it advises the utilization that would keep the pool with it on: vLLM 0.19 and 0.20 ("is
        // disabled ... increasing"), and 0.18 ahead of the switch ("will be enabled by default ...
        // increase").
        static const QRegularExpression disabled(
            QStringLiteral("CUDA graph memory profiling (?:is disabled|will be enabled by default).*"
                           "increas(?:e|ing) %1 from %2 to %2")
                .arg(flag, number));
        if (m_log.graphUtilizationAdvice || m_laterStage)
            return;
        GraphUtilizationAdvice advice;
        advice.line = m_line;
        if (const QRegularExpressionMatch m = enabled.match(line); m.hasMatch()) {
            advice.current = m.captured(1).toDouble();
            advice.without = m.captured(2).toDouble();
            advice.toKeep = m.captured(3).toDouble();
        } else if (const QRegularExpressionMatch d = disabled.match(line); d.hasMatch()) {
            advice.current = d.captured(1).toDouble();
            advice.toKeep = d.captured(2).toDouble();
        } else {
            return;
        }
        m_log.graphUtilizationAdvice = advice;
    }

    void tokenFigure(const char *key, const QString &written)
    {
        bool ok = false;
        const std::int64_t tokens = QString(written).remove(QLatin1Char(',')).toLongLong(&ok);
        if (ok)
            figure(m_log.kvCacheTokens, key, written + QStringLiteral(" tokens"), tokens);
    }

    /// `vllm serve MODEL --flag value --flag=value --switch ...` (or SGLang's launch_server
    /// options) as a shell line.
    void readServeLine(const QString &rest)
    {
        // An option word: two dashes, its name, and its value after '=' when written so.
        static const QRegularExpression option(QStringLiteral("^-{2}([^=]+)(?:=(.*))?$"));
        const QStringList words = shellWords(rest);
        for (qsizetype i = 0; i < words.size(); ++i) {
            const QRegularExpressionMatch m = option.match(words.at(i));
            if (!m.hasMatch()) {
                // vllm serve's positional model; SGLang takes none (--model-path).
                if (i == 0 && m_log.engine == Engine::Vllm)
                    argument(QStringLiteral("model"), words.at(i));
                continue;
            }
            if (m.hasCaptured(2))
                argument(m.captured(1), m.captured(2));
            else if (i + 1 < words.size() && !option.match(words.at(i + 1)).hasMatch())
                argument(m.captured(1), words.at(++i));
            else
                argument(m.captured(1), QStringLiteral("True")); // a switch: --enforce-eager
        }
    }

    /// The memory outside PyTorch of a log that prints it with the weights: the sum less "Model loading
    /// took", within the two figures' rounding (0.01 GiB).
    void nonTorchFromConsumed()
    {
        if (!m_consumed || !m_log.weightsGiB || m_log.nonTorchGiB)
            return;
        const double nonTorch = std::max(0.0, *m_consumed - *m_log.weightsGiB);
        m_line = m_consumedLine;
        figure(m_log.nonTorchGiB, "non_torch_memory",
               QStringLiteral("%1 - %2 GiB").arg(*m_consumed, 0, 'f', 2).arg(*m_log.weightsGiB, 0, 'f', 2),
               nonTorch);
    }

    StartupLog &m_log;
    std::optional<double> m_consumed; ///< "X GiB for consumed memory (weights + non-torch)"
    int m_consumedLine = 0;
    int m_line = 0;
    bool m_laterStage = false;   ///< the line is a Worker_PPn line of a stage after the first
    bool m_versionAsked = false; ///< a `vllm --version` command was read
    bool m_pipShowsVllm = false; ///< within `pip show vllm`'s answer
};

} // namespace

QString StartupLog::argument(const QString &key) const
{
    for (const LogReading &reading : arguments)
        if (reading.key == key)
            return reading.value;
    return {};
}

int StartupLog::argumentLine(const QString &key) const
{
    for (const LogReading &reading : arguments)
        if (reading.key == key)
            return reading.line;
    return 0;
}

bool StartupLog::hasArgument(const QString &key) const
{
    for (const LogReading &reading : arguments)
        if (reading.key == key)
            return true;
    return false;
}

std::optional<GiBRange> totalMemoryFromGraphAdvice(const StartupLog &log)
{
    if (!log.cudaGraphEstimateGiB || !log.graphUtilizationAdvice)
        return std::nullopt;
    const GraphUtilizationAdvice &advice = *log.graphUtilizationAdvice;
    // Half the last printed digit: the estimate's %.2f, the utilizations' %.4f (X itself may be a
    // rounded --gpu-memory-utilization, so X - Y carries two roundings).
    constexpr double EstimateStep = 0.005;
    constexpr double UtilizationStep = 0.00005;
    double lowDelta = 0;
    double highDelta = 1;
    const auto narrow = [&](double delta) {
        lowDelta = std::max(lowDelta, delta - 2 * UtilizationStep);
        highDelta = std::min(highDelta, delta + 2 * UtilizationStep);
    };
    if (advice.without)
        narrow(advice.current - *advice.without);
    if (advice.toKeep && *advice.toKeep < 1) // Z = 1 is the cap, not X + estimate / total
        narrow(*advice.toKeep - advice.current);
    if (!advice.without && !(advice.toKeep && *advice.toKeep < 1))
        return std::nullopt;
    const double lowEstimate = *log.cudaGraphEstimateGiB - EstimateStep;
    const double highEstimate = *log.cudaGraphEstimateGiB + EstimateStep;
    if (lowDelta <= 0 || lowEstimate <= 0 || highDelta < lowDelta)
        return std::nullopt;
    return GiBRange{lowEstimate / highDelta, highEstimate / lowDelta};
}

StartupLog readStartupLog(const QString &text, const QString &origin)
{
    StartupLog log;
    log.origin = origin;
    LogReader(log).read(text);
    return log;
}

StartupLog readStartupLogFile(const QString &path)
{
    const QByteArray bytes = readRegularFile(path, MaxStartupLogBytes, QStringLiteral("a start-up log"));
    return readStartupLog(QString::fromUtf8(bytes), path);
}

} // namespace kvscope
