// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/modelimport.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace kvscope {

/// Paste a HuggingFace config.json; parsed by the core when accepted, and
/// kept open with the error shown when it does not parse.
class PasteConfigDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PasteConfigDialog(QWidget *parent = nullptr);

    ImportedModel imported() const { return m_imported; }
    QByteArray configText() const;

    void accept() override;

private:
    QLineEdit *m_name;
    QPlainTextEdit *m_text;
    QLabel *m_error;
    ImportedModel m_imported;
};

} // namespace kvscope
