// SPDX-License-Identifier: MIT
#include "ui/widgets/textshaping.h"

#include <QLabel>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

namespace kvscope {

namespace {

constexpr char KeptProperty[] = "kvscopeKeepsTextShaping";

void keepShapingOf(const QTextDocument *document, int from, int length)
{
    for (QTextBlock block = document->findBlock(from); block.isValid() && block.position() <= from + length;
         block = block.next())
        block.layout()->setCacheEnabled(true);
}

} // namespace

void keepTextShaping(QTextDocument *document)
{
    if (!document || document->property(KeptProperty).toBool())
        return;
    document->setProperty(KeptProperty, true);
    keepShapingOf(document, 0, document->characterCount());
    // contentsChange comes before the document's layout sees the change (QTextDocumentPrivate::
    // finishEdit), so a new paragraph's first layout already keeps its glyphs; a document emits
    // it only once it has a layout, which drawing it would create anyway.
    document->documentLayout();
    QObject::connect(
        document, &QTextDocument::contentsChange, document,
        [document](int from, int /*removed*/, int added) { keepShapingOf(document, from, added); });
}

void keepTextShaping(QLabel *label)
{
    keepTextShaping(label->findChild<QTextDocument *>());
}

} // namespace kvscope
