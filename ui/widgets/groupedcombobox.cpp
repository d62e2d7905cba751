// SPDX-License-Identifier: MIT
#include "ui/widgets/groupedcombobox.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QStringListModel>

namespace kvscope {

namespace {
constexpr int ShortTextRole = Qt::UserRole + 2;
constexpr int VisibleItems = 28;
} // namespace

GroupedComboBox::GroupedComboBox(QWidget *parent)
    : ChosenTextComboBox(parent), m_model(new QStandardItemModel(this))
{
    setModel(m_model);
    setInsertPolicy(QComboBox::NoInsert);
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(18);
    // Fifty models under their families: show most of them at once (Qt's default is ten).
    setMaxVisibleItems(VisibleItems);
    connect(this, &QComboBox::activated, this, [this](int index) {
        const QString key = itemData(index, KeyRole).toString();
        if (key.isEmpty())
            return;
        m_currentKey = key;
        Q_EMIT keyActivated(key);
    });
}

void GroupedComboBox::setSearchable(bool searchable)
{
    setEditable(searchable);
    if (!searchable)
        return;
    lineEdit()->setPlaceholderText(tr("Search…"));
    lineEdit()->setClearButtonEnabled(false);
    connect(lineEdit(), &QLineEdit::editingFinished, this, &GroupedComboBox::restoreText);
    rebuildCompleter();
}

void GroupedComboBox::clearEntries()
{
    const QSignalBlocker blocker(this);
    m_model->clear();
    rebuildCompleter();
}

void GroupedComboBox::addGroup(const QString &title)
{
    auto *item = new QStandardItem(title);
    QFont font = item->font();
    font.setBold(true);
    item->setFont(font);
    item->setFlags(Qt::NoItemFlags); // a heading: not selectable, skipped by the keyboard
    m_model->appendRow(item);
}

void GroupedComboBox::addEntry(const QString &key, const QString &text, const QString &toolTip,
                               const QString &shortText)
{
    auto *item = new QStandardItem(QStringLiteral("  ") + text);
    item->setData(key, KeyRole);
    item->setData(shortText.isEmpty() ? text : shortText, ShortTextRole);
    item->setToolTip(toolTip);
    m_model->appendRow(item);
}

void GroupedComboBox::finishEntries()
{
    rebuildCompleter();
}

QString GroupedComboBox::currentKey() const
{
    return m_currentKey;
}

bool GroupedComboBox::setCurrentKey(const QString &key)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->item(row)->data(KeyRole).toString() == key) {
            const QSignalBlocker blocker(this);
            setCurrentIndex(row);
            m_currentKey = key;
            restoreText();
            return true;
        }
    }
    return false;
}

void GroupedComboBox::rebuildCompleter()
{
    if (!isEditable())
        return;
    QStringList texts;
    for (int row = 0; row < m_model->rowCount(); ++row)
        if (!m_model->item(row)->data(KeyRole).toString().isEmpty())
            texts << m_model->item(row)->text().trimmed();
    auto *completer = new QCompleter(texts, this);
    completer->setCaseSensitivity(Qt::CaseInsensitive);
    completer->setFilterMode(Qt::MatchContains);
    completer->setCompletionMode(QCompleter::PopupCompletion);
    completer->setMaxVisibleItems(VisibleItems);
    connect(completer, qOverload<const QString &>(&QCompleter::activated), this, [this](const QString &text) {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            if (m_model->item(row)->text().trimmed() == text) {
                setCurrentIndex(row);
                Q_EMIT activated(row);
                return;
            }
        }
    });
    // Only our own previous completer is deleted; the line edit's default one is its own.
    QCompleter *previous = m_completer;
    m_completer = completer;
    setCompleter(completer);
    if (previous)
        previous->deleteLater();
}

void GroupedComboBox::restoreText()
{
    // Typing is for searching only: leaving the field shows the current entry again.
    if (isEditable()) {
        lineEdit()->setText(itemData(currentIndex(), ShortTextRole).toString());
        lineEdit()->setCursorPosition(0);
    }
}

void GroupedComboBox::focusOutEvent(QFocusEvent *event)
{
    QComboBox::focusOutEvent(event);
    restoreText();
}

} // namespace kvscope
