// SPDX-License-Identifier: MIT
#include "core/output/plannotes.h"

namespace kvscope {

QStringList planNotes(const MemoryPlan &plan)
{
    return plan.speed.startFailure.isEmpty() ? plan.notes + plan.speed.notes : plan.notes;
}

} // namespace kvscope
