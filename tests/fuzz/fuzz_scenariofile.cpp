// SPDX-License-Identifier: MIT
// A .kvscope scenario file -> the strict reader -> written back and read
// again (the same bytes) -> the scenario it describes (presets, custom GPUs
// and pasted configs it carries; models carried by path are files, left
// out) -> its values read back -> the memory plan.
#include "core/common/error.h"
#include "core/document/scenariofile.h"
#include "core/plan/planner.h"
#include "core/scenario/scenario.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

#include <QByteArray>

namespace kvscope::fuzz {

void scenariofile(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    ScenarioDocument document;
    try {
        document = parseScenarioFile(bytes, QStringLiteral("fuzz.kvscope"));
    } catch (const Error &) {
        return;
    }

    const QByteArray written = scenarioFileBytes(document);
    try {
        const QByteArray rewritten = scenarioFileBytes(parseScenarioFile(written, QStringLiteral("written")));
        if (rewritten != written)
            violated("a scenario file written back reads to the same document",
                     QString::fromUtf8(written) + QStringLiteral("\n->\n") + QString::fromUtf8(rewritten));
    } catch (const Error &error) {
        violated("a scenario file written back reads again", error.message());
    }

    document.models.removeIf([](const CarriedModel &model) { return !model.path.isEmpty(); });
    const ScenarioResolvers resolvers = documentResolvers(document, presetResolvers());
    try {
        const Scenario scenario =
            documentScenario(document, presetResolvers(), QStringLiteral("fuzz.kvscope"));
        checkScenarioValues(scenario, resolvers);
        planMemory(scenario);
    } catch (const Error &) {
    }
}

} // namespace kvscope::fuzz
