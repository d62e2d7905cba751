// SPDX-License-Identifier: MIT
// Small widgets: the log-stepped slider box, the grouped, searchable combo and the selectable label
// that measures as a plain one.
#include "ui/widgets/groupedcombobox.h"
#include "ui/widgets/logsliderbox.h"
#include "ui/widgets/selectablelabel.h"
#include "ui/widgets/textshaping.h"

#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>

using namespace kvscope;

class TestWidgets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stops()
    {
        const QList<std::int64_t> stops = LogSliderBox::stopsBetween(1, 4096);
        // 1..99, 100..990 by 10, 1000..4000 by 100, plus powers of two and the ends.
        QCOMPARE(stops.first(), 1);
        QCOMPARE(stops.last(), 4096);
        QVERIFY(stops.contains(99) && stops.contains(110) && stops.contains(1024) && stops.contains(2048));
        QVERIFY(!stops.contains(101));
        QVERIFY(std::is_sorted(stops.begin(), stops.end()));
        // 1-99, 100-990 by 10, 1000-4000 by 100, and the powers of two that are
        // not already there: 128, 256, 512, 1024, 2048, 4096.
        QCOMPARE(stops.size(), 99 + 90 + 31 + 6);
    }

    void sliderAndSpinBox()
    {
        LogSliderBox box;
        box.setRange(128, 10'000'000);
        QSignalSpy changed(&box, &LogSliderBox::valueChanged);
        box.setValue(8192);
        QCOMPARE(changed.count(), 0); // programmatic: no signal
        QCOMPARE(box.spinBox()->value(), 8192);
        box.slider()->setValue(box.slider()->value() + 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().value<std::int64_t>(), 8200); // next stop above 8192
        box.spinBox()->setValue(12'345);
        QCOMPARE(box.value(), 12'345);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(box.spinBox()->maximum(), 10'000'000);
    }

    void groupedCombo()
    {
        GroupedComboBox combo;
        combo.setSearchable(true);
        combo.addGroup(QStringLiteral("Llama"));
        combo.addEntry(QStringLiteral("llama-3.1-8b"), QStringLiteral("Llama-3.1-8B · 8.03B"), {},
                       QStringLiteral("Llama-3.1-8B"));
        combo.addGroup(QStringLiteral("Qwen"));
        combo.addEntry(QStringLiteral("qwen3-8b"), QStringLiteral("Qwen3-8B · 8.19B"), {},
                       QStringLiteral("Qwen3-8B"));
        combo.finishEntries();
        QVERIFY(combo.setCurrentKey(QStringLiteral("qwen3-8b")));
        QCOMPARE(combo.currentText(), QStringLiteral("Qwen3-8B"));
        QVERIFY(!combo.setCurrentKey(QStringLiteral("nope")));
        // Headings cannot be chosen.
        QVERIFY(!(qobject_cast<const QStandardItemModel *>(combo.model())->item(0)->flags() &
                  Qt::ItemIsSelectable));
        QSignalSpy activated(&combo, &GroupedComboBox::keyActivated);
        Q_EMIT combo.activated(1);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toString(), QStringLiteral("llama-3.1-8b"));
        Q_EMIT combo.activated(0); // a heading: ignored
        QCOMPARE(activated.count(), 1);
    }

    void selectableLabelMeasuresAsQtsOwn_data()
    {
        QTest::addColumn<bool>("wrapped");
        QTest::addColumn<double>("scale");
        for (const bool wrapped : {true, false})
            for (const double scale : {0.9, 1.6, 2.4}) // a card's detail and figure, and a presentation zoom
                QTest::addRow("%s, font x%.1f", wrapped ? "wrapped" : "one line", scale) << wrapped << scale;
    }

    // What the figure cards rely on: the label measured through its plain twin asks a layout for
    // exactly the minimum size and the height for a width that Qt's own selectable label does.
    void selectableLabelMeasuresAsQtsOwn()
    {
        QFETCH(bool, wrapped);
        QFETCH(double, scale);
        SelectableLabel ours;
        QLabel qts;
        qts.setTextInteractionFlags(Qt::TextSelectableByMouse);
        QCOMPARE(ours.textInteractionFlags(), qts.textInteractionFlags());
        QFont font = qts.font();
        font.setPointSizeF(font.pointSizeF() * scale);
        for (QLabel *label : {static_cast<QLabel *>(&ours), &qts}) {
            label->setWordWrap(wrapped);
            label->setFont(font);
        }
        const QStringList texts = {
            QStringLiteral("8 KV heads per GPU × 128 dims × 2 (K and V) × 2 B × 32 layers"),
            QStringLiteral("1,234.5 tok/s"),
            QStringLiteral("每个 GPU 8 个 KV 头 × 128 维 × 2（K 和 V）× 2 B × 32 层"),
            QStringLiteral("MLA latent (512 + 64) × 2 B, replicated on every GPU"),
        };
        const auto compareMeasures = [&](const QString &what) {
            QVERIFY2(ours.minimumSizeHint() == qts.minimumSizeHint(), qPrintable(what));
            for (const int width : {60, 120, 200, 400})
                QVERIFY2(ours.heightForWidth(width) == qts.heightForWidth(width),
                         qPrintable(QStringLiteral("%1 at width %2").arg(what).arg(width)));
            if (!wrapped) // a wrapped label's preferred width is the one size allowed to differ
                QVERIFY2(ours.sizeHint() == qts.sizeHint(), qPrintable(what));
            // Drawn as Qt's own, at its preferred size and squeezed to wrap.
            for (const QSize size : {qts.sizeHint(), QSize(120, qts.heightForWidth(120))}) {
                ours.resize(size);
                qts.resize(size);
                QVERIFY2(ours.grab().toImage() == qts.grab().toImage(),
                         qPrintable(QStringLiteral("%1 drawn at %2 x %3")
                                        .arg(what)
                                        .arg(size.width())
                                        .arg(size.height())));
            }
        };
        // Each text after the last: the twin follows every change, not only the first text.
        for (const QString &text : texts) {
            ours.setText(text);
            qts.setText(text);
            compareMeasures(text);
        }
        font.setBold(true);
        ours.setFont(font);
        qts.setFont(font);
        compareMeasures(QStringLiteral("bold"));
        // Some of it selected: drawn by QLabel, the selection shown.
        ours.setSelection(0, 4);
        qts.setSelection(0, 4);
        QVERIFY(ours.hasSelectedText());
        QCOMPARE(ours.grab().toImage(), qts.grab().toImage());
    }

    // Every paragraph keeps its shaped glyphs, those there when asked and those added later (a
    // new text, a paragraph inserted), so that a layout at another width or a paint shapes nothing.
    void textShapingIsKeptForEveryParagraph()
    {
        const auto everyParagraphKept = [](const QTextDocument *document) {
            int paragraphs = 0;
            for (QTextBlock block = document->begin(); block.isValid(); block = block.next(), ++paragraphs)
                if (!block.layout()->cacheEnabled())
                    return false;
            return paragraphs > 0;
        };
        QTextDocument document;
        document.setHtml(QStringLiteral("<p>before</p><p>asked</p>"));
        QVERIFY(!everyParagraphKept(&document)); // Qt's default: shaped again at every layout and paint
        keepTextShaping(&document);
        QVERIFY(everyParagraphKept(&document));
        document.setHtml(QStringLiteral("<p>a new</p><p>text of</p><p>three paragraphs</p>"));
        QCOMPARE(document.blockCount(), 3);
        QVERIFY(everyParagraphKept(&document));
        QTextCursor cursor(document.findBlockByNumber(1));
        cursor.insertBlock();
        cursor.insertText(QStringLiteral("inserted"));
        QCOMPARE(document.blockCount(), 4);
        QVERIFY(everyParagraphKept(&document));

        // A label keeps its document inside; the glyphs it draws are those of a label that does not keep
        // them.
        SelectableLabel kept;
        QLabel qts;
        qts.setTextInteractionFlags(Qt::TextSelectableByMouse);
        const QString text =
            QStringLiteral("<p><b>Fits.</b> 12.5 GiB headroom</p><p>每个 GPU 8 个 KV 头</p>");
        for (QLabel *label : {static_cast<QLabel *>(&kept), &qts}) {
            label->setTextFormat(Qt::RichText);
            label->setWordWrap(true);
            label->setText(text);
            label->resize(180, 120);
        }
        const QImage drawn = kept.grab().toImage(); // the paint hands it over
        QVERIFY(kept.findChild<QTextDocument *>());
        QVERIFY(everyParagraphKept(kept.findChild<QTextDocument *>()));
        QCOMPARE(kept.grab().toImage(), drawn); // drawn again from the kept glyphs
        QCOMPARE(drawn, qts.grab().toImage());
        kept.setText(QStringLiteral("<p>another</p><p>text</p><p>again</p>"));
        qts.setText(kept.text());
        QCOMPARE(kept.grab().toImage(), qts.grab().toImage());
        QVERIFY(everyParagraphKept(kept.findChild<QTextDocument *>()));
    }
};

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
