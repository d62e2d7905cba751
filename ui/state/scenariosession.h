// SPDX-License-Identifier: MIT
#pragma once

#include "core/document/scenariofile.h"
#include "ui/state/quantsettings.h"

#include <functional>

#include <QByteArray>
#include <QObject>
#include <QString>

namespace kvscope {

class ScenarioController;
class UserLibrary;

/// The window's scenario file: what the window shows as a ScenarioDocument
/// (core/document/scenariofile.h), opening and saving it, and whether it changed
/// since. The Quantization view's settings come and go through two
/// functions, as the view may not exist yet (then QSettings holds them).
class ScenarioSession : public QObject
{
    Q_OBJECT

public:
    struct QuantizationAccess
    {
        std::function<QuantSettings()> read;
        std::function<void(const QuantSettings &)> apply;
    };

    ScenarioSession(ScenarioController *controller, UserLibrary *library, QuantizationAccess quantization,
                    QObject *parent = nullptr);

    /// The open file; empty before one is opened or saved.
    QString path() const { return m_path; }
    /// True when a file is open and the window no longer shows what it holds.
    bool isModified() const { return m_modified; }

    /// What the window shows, as a file would hold it.
    ScenarioDocument currentDocument() const;

    /// Opens a file. Everything is read and checked first (the models it
    /// carries imported, the plan computed): a file that fails leaves the
    /// window as it was and throws kvscope::Error naming the file and field.
    void open(const QString &path);
    /// Writes the file atomically and makes it the open one; throws kvscope::Error.
    void save(const QString &path);

    /// The comparison's columns as the file holds them: each column's values
    /// that differ from the scenario (core/scenario/scenariovalues.h, differingValues()).
    const QList<ScenarioValues> &comparison() const { return m_comparison; }
    /// The Compare view's columns changed (or were restored): saved with the file.
    void setComparison(const QList<ScenarioValues> &columns);

public Q_SLOTS:
    /// Compares the window with the file again (call after any change).
    void refresh();

Q_SIGNALS:
    /// The path or the modified flag changed.
    void stateChanged();
    /// A file was opened: its comparison's columns (empty when it holds none) replace the view's.
    void comparisonOpened(const QList<kvscope::ScenarioValues> &columns);

private:
    QByteArray currentBytes() const;

    ScenarioController *m_controller;
    UserLibrary *m_library;
    QuantizationAccess m_quantization;
    QString m_path;
    QByteArray m_savedBytes;
    bool m_modified = false;
    /// The comparison's columns (the Compare view's, or the open file's).
    QList<ScenarioValues> m_comparison;
    /// Kept from the open file: what its comparison's columns name.
    QList<CarriedModel> m_carriedModels;
    QList<GpuSpec> m_carriedGpus;
};

} // namespace kvscope
