// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QLabel>

namespace kvscope {

/// A label whose text the mouse can select, measured as a plain label is.
///
/// Why: a selectable QLabel keeps its text in a QTextDocument and lays the document out twice
/// for every size it is asked (QLabelPrivate::sizeForWidth sets a text width, then restores it):
/// a wrapped label's minimum size alone costs six layouts, and a figure card's texts change on
/// every slider step. A plain QLabel measures with font metrics and gives the same minimum size
/// and height for a width (tst_widgets checks it), so every size comes from a plain twin that
/// holds the same text, font and wrapping. Only a wrapped label's preferred width differs (the
/// document's golden-ratio width against the plain label's), and layouts that stretch their
/// columns place the label the same.
///
/// It is drawn as the plain twin would draw it, until the mouse selects some of its text or it
/// takes the focus: QLabel lays the document of a selectable label out again three times for every
/// new text before drawing it, each layout shaping the text anew, where a plain label shapes it once.
/// The glyphs are the same (tst_widgets compares the pixels).
class SelectableLabel : public QLabel
{
    Q_OBJECT

public:
    explicit SelectableLabel(QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    /// Whether it is drawn as its plain twin: a plain text with no indent or frame, nothing
    /// selected, no focus.
    bool drawnPlain() const;
    /// The plain twin, brought up to date with this label's text and layout settings.
    const QLabel &plainTwin() const;

    mutable QLabel m_plainTwin;
    /// Heights measured for widths, while the twin's text and settings stay as they are.
    mutable QHash<int, int> m_heightForWidth;
    static constexpr qsizetype KeptHeights = 8;
};

} // namespace kvscope
