// SPDX-License-Identifier: MIT
#pragma once

#include "core/plan/memoryplan.h"

#include <QStringList>

namespace kvscope {

/// The notes a plan shows (kvscope calc's "Notes", its JSON's "notes"): the memory plan's, then
/// its speed's where the engine starts. A start that fails has no speed figures, so the notes on
/// how they would be priced are left out; the start failure itself is among the plan's notes.
QStringList planNotes(const MemoryPlan &plan);

} // namespace kvscope
