// SPDX-License-Identifier: MIT
// The columns of a comparison from the command line (kvscope compare, and
// kvscope export --chart compare-memory|compare-speed): the seed question's
// four, or 2 to 4 --variant strings of calc options on top of the shared ones.
#pragma once

#include "app/cli/scenariooptions.h"
#include "core/compare/comparison.h"

#include <optional>

#include <QCommandLineOption>
#include <QStringList>

namespace kvscope::cli {

/// --variant "OPTIONS", repeatable.
QCommandLineOption variantOption();
/// --serving-features: servingFeatureColumns() instead of the seed question's.
QCommandLineOption servingFeaturesOption();

/// The columns: seedQuestionColumns(base) without variants (servingFeatureColumns(base)
/// with `servingFeatures`), else each variant's options applied on `base`. A bad variant
/// (or a count outside 2..4, or variants with `servingFeatures`) prints its error naming
/// the variant, its text and the option, sets `exitCode` (2 for usage errors) and gives
/// std::nullopt.
std::optional<QList<ComparisonColumn>> comparisonColumns(const ScenarioOptions &options, const Scenario &base,
                                                         const QStringList &variants, bool servingFeatures,
                                                         int &exitCode);

} // namespace kvscope::cli
