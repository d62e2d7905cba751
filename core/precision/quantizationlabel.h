// SPDX-License-Identifier: MIT
// A weight quantization as the window names it, in its language: the method
// ("none" translated, "awq" as spelled) and a --quantization choice ("auto
// (checkpoint: awq)"). One place for the explorer, the Compare view's knobs, the
// fit table and the exports; the command line keeps the options' spellings.
#pragma once

#include "core/precision/quantizationspec.h"

#include <QString>

namespace kvscope {

/// "none" in the window's language; any other method as --quantization spells it ("awq").
QString quantMethodLabel(QuantMethod method);

/// A --quantization choice as quantMethodChoices() spells it, worded for a list: "auto" names
/// the checkpoint's own method ("auto (checkpoint: none)"), "none" is translated, the rest as spelled.
QString quantizationChoiceLabel(const QString &choice, QuantMethod checkpoint);

} // namespace kvscope
