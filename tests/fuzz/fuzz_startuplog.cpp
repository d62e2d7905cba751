// SPDX-License-Identifier: MIT
// A start-up log (vLLM or SGLang, as `kvscope explain-log` and the window's
// "Explain a start-up log" read it) -> readStartupLog -> explainStartupLog
// with the presets alone (a model path the log names is never opened) -> the
// text and JSON the command prints. What an explained log must give: one
// component per part the engine logs (vLLM five, SGLang three), the JSON's
// engine the log's, and a text that names the log.
#include "core/analysis/logexplanation.h"
#include "core/analysis/startuplog.h"
#include "core/common/error.h"
#include "core/engine/engine.h"
#include "core/output/logexplanationjson.h"
#include "core/output/logexplanationtext.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <QByteArray>
#include <QJsonObject>

namespace kvscope::fuzz {

void startuplog(const std::uint8_t *data, std::size_t size)
{
    const QString text =
        QString::fromUtf8(QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size)));
    const StartupLog log = readStartupLog(text, QStringLiteral("fuzz.log"));
    LogExplanation explanation;
    try {
        explanation = explainStartupLog(log, LogOverrides{}, presetResolvers());
    } catch (const Error &) {
        return;
    }
    // One per part its engine logs, and at most one derived from them (the rest of the budget).
    const qsizetype parts = log.engine == Engine::Sglang ? 3 : 5;
    const auto derived = std::count_if(explanation.components.cbegin(), explanation.components.cend(),
                                       [](const LogComponent &c) { return c.derived; });
    if (explanation.components.size() - derived != parts || derived > 1)
        violated("an explained log has one component per part its engine logs",
                 QStringLiteral("%1 components (%2 derived) for %3")
                     .arg(explanation.components.size())
                     .arg(derived)
                     .arg(engineName(log.engine)));
    const QJsonObject json = logExplanationJson(explanation);
    if (json.value(QLatin1String("engine")).toString() != engineName(log.engine))
        violated("the JSON names the log's engine", json.value(QLatin1String("engine")).toString());
    if (!logExplanationText(explanation).contains(QStringLiteral("fuzz.log")))
        violated("the explanation names the log", QString());
}

} // namespace kvscope::fuzz
