// SPDX-License-Identifier: MIT
#pragma once

class QLabel;
class QTextDocument;

namespace kvscope {

/// Keeps every paragraph of `document` shaped between its layouts and paints, now and for
/// paragraphs added later.
///
/// Why: a QTextLayout throws its shaped glyphs away at the end of each layout unless told to keep
/// them (QTextLayout::setCacheEnabled), so a document shapes its text again (HarfBuzz) every time
/// it is laid out at a width and every time it is drawn. A slider step lays out and repaints the
/// texts whose figures changed: shaping was about 45 % of the repaint (docs/benchmarks.md). Kept,
/// a paragraph is shaped once per change of its text; the glyphs drawn are the same.
void keepTextShaping(QTextDocument *document);

/// The same for a rich-text or selectable label's document, which QLabel keeps in its private
/// text control (a child object); nothing for a label that has none (plain, unselectable text).
void keepTextShaping(QLabel *label);

} // namespace kvscope
