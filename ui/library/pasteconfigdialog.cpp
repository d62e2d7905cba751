// SPDX-License-Identifier: MIT
#include "ui/library/pasteconfigdialog.h"

#include "core/common/error.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace kvscope {

PasteConfigDialog::PasteConfigDialog(QWidget *parent)
    : QDialog(parent), m_name(new QLineEdit(this)), m_text(new QPlainTextEdit(this)),
      m_error(new QLabel(this))
{
    setWindowTitle(tr("Paste config.json"));
    m_name->setObjectName(QStringLiteral("pastedConfigName"));
    m_text->setObjectName(QStringLiteral("pastedConfigText"));
    m_error->setObjectName(QStringLiteral("pastedConfigError"));
    m_name->setPlaceholderText(tr("Name shown in the model list"));
    m_text->setPlaceholderText(
        QStringLiteral("{\n  \"model_type\": \"llama\",\n  \"num_hidden_layers\": 32,\n  ...\n}"));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_error->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Paste the model's config.json from its HuggingFace page:"), this));
    layout->addWidget(m_name);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &PasteConfigDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(560, 480);
}

QByteArray PasteConfigDialog::configText() const
{
    return m_text->toPlainText().toUtf8();
}

void PasteConfigDialog::accept()
{
    const QString name = m_name->text().trimmed();
    try {
        m_imported = importConfigText(configText(), name.isEmpty() ? tr("pasted config") : name);
        if (!name.isEmpty())
            m_imported.model.name = name;
    } catch (const Error &error) {
        m_error->setText(error.message());
        return;
    }
    QDialog::accept();
}

} // namespace kvscope
