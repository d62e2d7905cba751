// SPDX-License-Identifier: MIT
#pragma once

#include "ui/widgets/chosentextcombobox.h"

class QCompleter;
class QStandardItemModel;

namespace kvscope {

/// A combo box whose entries sit under bold, unselectable group headings
/// (model families, GPU vendors), each entry carrying a string key. When
/// searchable, typing filters the entries by any part of their text; not
/// searchable, it is as wide as the chosen entry (ChosenTextComboBox).
class GroupedComboBox : public ChosenTextComboBox
{
    Q_OBJECT

public:
    /// Item data role holding an entry's key (headings have none).
    static constexpr int KeyRole = Qt::UserRole + 1;

    explicit GroupedComboBox(QWidget *parent = nullptr);

    void setSearchable(bool searchable);
    void clearEntries();
    void addGroup(const QString &title);
    /// `shortText` is what the search field shows for the chosen entry (default: `text`).
    void addEntry(const QString &key, const QString &text, const QString &toolTip = {},
                  const QString &shortText = {});
    /// Call after adding entries: refreshes the search list.
    void finishEntries();

    QString currentKey() const;
    /// Selects the entry with `key` without emitting keyActivated; false if absent.
    bool setCurrentKey(const QString &key);

Q_SIGNALS:
    /// The user chose an entry (from the list or from the search popup).
    void keyActivated(const QString &key);

protected:
    void focusOutEvent(QFocusEvent *event) override;

private:
    void rebuildCompleter();
    void restoreText();

    QStandardItemModel *m_model;
    QCompleter *m_completer = nullptr;
    QString m_currentKey;
};

} // namespace kvscope
