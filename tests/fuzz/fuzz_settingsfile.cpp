// SPDX-License-Identifier: MIT
// kvscope's stored settings file (QSettings' INI text, with @Variant(...)
// values) -> every reader of the settings catalogue the window runs at start
// (language, the user's library, the explorer's scenario, the Quantization
// view) -> written back, and the same state read again.
//
// No widget code is involved (settings/, the library and its background
// imports, the controller's default scenario, the Quantization view's
// settings), so the fuzz target compiles those sources alone and links
// QtCore and QtConcurrent only (see tests/fuzz/CMakeLists.txt).
#include "core/scenario/scenariovalues.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"
#include "ui/state/appsettings.h"
#include "ui/state/quantsettings.h"
#include "ui/state/setting.h"
#include "ui/state/settingkeys.h"
#include "ui/state/userlibrary.h"

#include <chrono>
#include <cstddef>
#include <cstdint>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QSettings>

namespace kvscope::fuzz {

namespace {

/// The settings file every QSettings() of this process reads: in the
/// scratch directory, never the user's, with no system-wide file behind it.
QString settingsPath()
{
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope"));
    QCoreApplication::setApplicationName(QStringLiteral("kvscope"));
    for (QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat}) {
        QSettings::setPath(format, QSettings::UserScope, scratchDirectory());
        QSettings::setPath(format, QSettings::SystemScope, scratchDirectory() + QStringLiteral("/system"));
    }
    // kvscope's readers and writers name the file themselves, from the configuration folder.
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(scratchDirectory()));
    QDir(scratchDirectory()).mkpath(QStringLiteral("kvscope"));
    const QString path = settings::settingsFile().path;
    if (path != QSettings().fileName())
        violated("kvscope and QSettings() use the same settings file",
                 path + QStringLiteral(" and ") + QSettings().fileName());
    return path;
}

/// Writes the settings file. QSettings keeps files it read in a cache and
/// rereads one only when its size or modification time changed, so every
/// input gets a modification time of its own.
void writeSettingsFile(const QString &path, const std::uint8_t *data, std::size_t size)
{
    static qint64 inputs = 0;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size) ||
        !file.setFileTime(QDateTime::fromSecsSinceEpoch(++inputs, Qt::UTC),
                          QFileDevice::FileModificationTime))
        violated("the settings file can be written", path + QStringLiteral(": ") + file.errorString());
}

/// What the window restores at start.
struct Restored
{
    QString language;
    RestoredState state;
    QList<Scenario> strip;
    QuantSettings quantization;
    QStringList problems;
};

/// Saved model files are imported again in the background (the window does
/// not wait for them); the target waits for them within their time limit, so
/// that the scenario naming one is read as the window reads it once the
/// import has ended. What the library reports joins the settings' problems.
QStringList loadLibrary(settings::SettingsReader &reader, UserLibrary &library)
{
    if (!QCoreApplication::instance()) {
        static int argc = 1;
        static char name[] = "fuzz_settingsfile";
        static char *argv[] = {name, nullptr};
        static QCoreApplication application(argc, argv);
    }
    // A fuzzed path is a file that exists or one that does not: a second is plenty.
    UserLibrary::setStoredImportTimeLimit(std::chrono::seconds(1));
    QStringList reported; // saved models dropped, and slow ones kept
    const auto report = [&reported](const QString &, const QString &problem) { reported << problem; };
    QObject::connect(&library, &UserLibrary::storedModelDropped, report);
    QObject::connect(&library, &UserLibrary::storedModelSlow, report);
    library.load(reader);
    while (library.isImporting())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
    return reported;
}

Restored restore(UserLibrary &library)
{
    settings::SettingsReader reader;
    Restored r;
    r.language = appsettings::language(reader);
    const QStringList libraryProblems = loadLibrary(reader, library);
    r.state = appsettings::loadScenario(reader, library);
    r.quantization = quantsettings::load(reader);
    const settings::WindowKeys &window = settings::windowKeys();
    reader.read(window.geometry);
    reader.read(window.explorerSplitter);
    reader.read(window.tab);
    reader.read(window.formulaPanel);
    reader.read(window.presentationZoom);
    r.strip = appsettings::loadScenarioStrip(reader, library);
    r.problems = reader.problems() + libraryProblems;
    for (const QString &problem : r.problems)
        if (problem.contains(QLatin1Char('\n')))
            violated("a settings problem is reported on one line", problem);
    return r;
}

QStringList importedKeys(const UserLibrary &library)
{
    QStringList keys;
    for (const UserLibrary::ImportedEntry &entry : library.importedModels())
        keys << entry.key;
    return keys;
}

/// The parts in which two restored states differ, or empty.
QString differences(const Restored &a, const UserLibrary &aLibrary, const Restored &b,
                    const UserLibrary &bLibrary)
{
    QStringList parts;
    if (a.language != b.language)
        parts << QStringLiteral("language");
    if (importedKeys(aLibrary) != importedKeys(bLibrary))
        parts << QStringLiteral("imported models");
    if (aLibrary.customGpus() != bLibrary.customGpus())
        parts << QStringLiteral("custom GPUs");
    if (aLibrary.recentFiles() != bLibrary.recentFiles())
        parts << QStringLiteral("recent files");
    if (scenarioToValues(a.state.scenario) != scenarioToValues(b.state.scenario))
        parts << QStringLiteral("scenario");
    if (a.state.growthAxis != b.state.growthAxis || a.state.growthScale != b.state.growthScale ||
        a.state.counterfactuals != b.state.counterfactuals)
        parts << QStringLiteral("growth chart");
    const auto values = [](const QList<Scenario> &strip) {
        QList<ScenarioValues> all;
        for (const Scenario &s : strip)
            all << scenarioToValues(s);
        return all;
    };
    if (values(a.strip) != values(b.strip))
        parts << QStringLiteral("scenario strip");
    if (!(quantsettings::toChoices(a.quantization) == quantsettings::toChoices(b.quantization)) ||
        a.quantization.source.path != b.quantization.source.path ||
        a.quantization.source.tensor != b.quantization.source.tensor)
        parts << QStringLiteral("quantization");
    return parts.join(QStringLiteral(", "));
}

} // namespace

void settingsfile(const std::uint8_t *data, std::size_t size)
{
    static const QString path = settingsPath();
    writeSettingsFile(path, data, size);
    UserLibrary library;
    const Restored first = restore(library);

    // What was restored, saved as the window saves it, restores to the same
    // state without a complaint.
    QSettings().clear();
    appsettings::setLanguage(first.language);
    library.save();
    appsettings::saveScenario(first.state.scenario);
    appsettings::saveChartChoices(first.state.growthAxis, first.state.growthScale,
                                  first.state.counterfactuals);
    appsettings::saveScenarioStrip(first.strip);
    quantsettings::save(first.quantization);
    UserLibrary again;
    const Restored second = restore(again);
    if (!second.problems.isEmpty())
        violated("restored settings saved again restore without problems", second.problems.join(u'\n'));
    if (const QString parts = differences(first, library, second, again); !parts.isEmpty())
        violated("restored settings saved again restore the same", parts);
}

} // namespace kvscope::fuzz
