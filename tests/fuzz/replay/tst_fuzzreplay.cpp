// SPDX-License-Identifier: MIT
// Every committed fuzz input through its target's function
// (tests/fuzz/fuzztargets.h): each parser accepts or rejects it without
// crashing, without a sanitizer report under KVSCOPE_SANITIZE, and without
// breaking a property the target checks. The named inputs
// (tests/fuzz/named/<target>/: seeds, and every input that once found a
// defect, named after it) are never dropped, so each is a regression test
// here; the generated ones (tests/fuzz/corpus/<target>/) are what the fuzzer
// found that adds coverage beyond them.
#include "tests/fuzz/fuzztargets.h"
#include "tests/sourcetree.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include <QDir>
#include <QFile>
#include <QTest>

namespace {

struct Target
{
    const char *name;
    void (*run)(const std::uint8_t *, std::size_t);
};

namespace fuzz = kvscope::fuzz;

constexpr Target targets[] = {
    {"hfconfig", fuzz::hfconfig},
    {"safetensors", fuzz::safetensors},
    {"gguf", fuzz::gguf},
    {"npy", fuzz::npy},
    {"scenariofile", fuzz::scenariofile},
    {"cli_calc", fuzz::cli_calc},
    {"cli_quant", fuzz::cli_quant},
    {"cli_models", fuzz::cli_models},
    {"cli_gpus", fuzz::cli_gpus},
    {"settingsfile", fuzz::settingsfile},
    {"benchresult", fuzz::benchresult},
    {"startuplog", fuzz::startuplog},
};

QDir named()
{
    return QDir(kvscope::test::sourceTreePath(QStringLiteral("tests/fuzz/named")));
}

QDir generated()
{
    return QDir(kvscope::test::sourceTreePath(QStringLiteral("tests/fuzz/corpus")));
}

} // namespace

class FuzzReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The build's list (tests/fuzz/targets.cmake), this table and the corpus
    // folders name the same targets, each with at least one seed.
    void everyTargetHasASeedCorpus()
    {
        QStringList names;
        for (const Target &target : targets)
            names << QLatin1String(target.name);
        QCOMPARE(names, QStringLiteral(KVSCOPE_FUZZ_TARGET_NAMES).split(QLatin1Char(',')));
        names.sort();
        QCOMPARE(named().entryList(QDir::Dirs | QDir::NoDotAndDotDot), names);
        for (const QString &name : names)
            QVERIFY2(!QDir(named().filePath(name)).isEmpty(QDir::Files), qPrintable(name));
        for (const QString &folder : generated().entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY2(names.contains(folder), qPrintable(folder));
    }

    void replay_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("path");
        for (const QDir &inputs : {named(), generated()})
            for (int i = 0; i < int(std::size(targets)); ++i) {
                const QDir folder(inputs.filePath(QLatin1String(targets[i].name)));
                for (const QString &file : folder.entryList(QDir::Files, QDir::Name))
                    QTest::addRow("%s/%s/%s", qPrintable(inputs.dirName()), targets[i].name, qPrintable(file))
                        << i << folder.filePath(file);
            }
    }

    void replay()
    {
        QFETCH(int, target);
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray bytes = file.readAll();
        // A fresh copy of exactly the file's bytes, as libFuzzer hands them
        // over, so a read past the end is one AddressSanitizer sees.
        std::vector<std::uint8_t> input(bytes.begin(), bytes.end());
        targets[target].run(input.data(), input.size());
    }
};

QTEST_GUILESS_MAIN(FuzzReplay)
#include "tst_fuzzreplay.moc"
