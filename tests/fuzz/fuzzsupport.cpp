// SPDX-License-Identifier: MIT
#include "tests/fuzz/fuzzsupport.h"

#include "core/common/error.h"
#include "core/library/library.h"
#include "core/scenario/scenario.h"

#include <cstdio>
#include <cstdlib>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

namespace kvscope::fuzz {

QStringList commandArguments(const char *command, const std::uint8_t *data, std::size_t size)
{
    QStringList arguments{QStringLiteral("kvscope"), QLatin1String(command)};
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    if (bytes.isEmpty())
        return arguments;
    QList<QByteArray> lines = bytes.split('\n');
    if (bytes.endsWith('\n'))
        lines.removeLast();
    for (const QByteArray &line : lines)
        arguments << QString::fromUtf8(line);
    return arguments;
}

ScenarioResolvers presetResolvers()
{
    return {[](const QString &text) {
                if (const ModelArch *preset = ModelLibrary::builtin().find(text))
                    return *preset;
                throw Error(
                    QStringLiteral("--model: unknown model '%1' (the fuzz targets read no files)").arg(text));
            },
            resolveGpu,
            [](const QString &text) {
                if (const ModelArch *preset = draftLibrary().find(text))
                    return *preset;
                throw Error(
                    QStringLiteral("--speculative-config: unknown draft '%1' (the fuzz targets read no "
                                   "files)")
                        .arg(text));
            }};
}

void checkScenarioValues(const Scenario &scenario, const ScenarioResolvers &resolvers)
{
    const ScenarioValues values = scenarioToValues(scenario);
    const auto shown = [](const ScenarioValues &v) {
        QStringList pairs;
        for (auto it = v.begin(); it != v.end(); ++it)
            pairs << it.key() + QLatin1Char('=') + it.value();
        return pairs.join(QLatin1Char(' '));
    };
    try {
        const ScenarioValues again = scenarioToValues(scenarioFromValues(values, resolvers));
        if (again != values)
            violated("a scenario's values read back to the same scenario",
                     shown(values) + QStringLiteral(" -> ") + shown(again));
    } catch (const Error &error) {
        violated("a scenario's values read back", shown(values) + QStringLiteral(": ") + error.message());
    }
}

QString scratchDirectory()
{
    static const QTemporaryDir directory(QFileInfo(QStringLiteral("/dev/shm")).isWritable()
                                             ? QStringLiteral("/dev/shm/kvscope-fuzz-XXXXXX")
                                             : QDir::tempPath() + QStringLiteral("/kvscope-fuzz-XXXXXX"));
    if (!directory.isValid())
        violated("a scratch directory can be made", directory.errorString());
    return directory.path();
}

QString scratchFile(const QString &name, const std::uint8_t *data, std::size_t size)
{
    const QString path = scratchDirectory() + QLatin1Char('/') + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size))
        violated("the scratch file can be written", path + QStringLiteral(": ") + file.errorString());
    return path;
}

void violated(const char *property, const QString &detail)
{
    std::fprintf(stderr, "kvscope fuzz: property broken: %s\n  %s\n", property, qUtf8Printable(detail));
    std::fflush(stderr);
    std::abort();
}

} // namespace kvscope::fuzz
