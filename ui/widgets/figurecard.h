// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>
#include <QList>

class QLabel;

namespace kvscope {

/// One figure as a card: a caption, the figure large and bold, and a detail
/// line that wraps (its tooltip too); text selectable. Caption and detail in
/// the muted text colour.
class FigureCard : public QFrame
{
    Q_OBJECT

public:
    /// `key` names the card ("<key>Card") and its value label ("<key>").
    FigureCard(const QString &key, QWidget *parent = nullptr);

    void setTexts(const QString &caption, const QString &value, const QString &detail);

    /// The card among `cards` whose key is `key`, or null.
    static FigureCard *find(const QList<FigureCard *> &cards, const QString &key);

    QLabel *captionLabel() const { return m_caption; }
    QLabel *valueLabel() const { return m_value; }
    QLabel *detailLabel() const { return m_detail; }
    /// "caption: value (detail)", for the clipboard.
    QString text() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();

    QLabel *m_caption;
    QLabel *m_value;
    QLabel *m_detail;
};

} // namespace kvscope
