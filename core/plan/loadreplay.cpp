// SPDX-License-Identifier: MIT
#include "core/plan/loadreplay.h"

#include "core/common/checked.h"
#include "core/plan/cachingallocator.h"

#include <map>
#include <utility>
#include <vector>

namespace kvscope {

QList<AllocationStep> rotaryTableBuild(std::int64_t rows, int rotaryDim, int tableElementBytes)
{
    QList<AllocationStep> steps;
    if (rows <= 0 || rotaryDim <= 0)
        return steps;
    const std::int64_t half = (Checked(rows) * (rotaryDim / 2) * 4).value();
    for (const std::int64_t bytes : {std::int64_t(rotaryDim / 2) * 4, rows * 4, half, half, half, 2 * half})
        steps.append(AllocationStep{bytes});
    for (int temporary = 0; temporary < 5; ++temporary)
        steps.append(AllocationStep{0, temporary});
    if (tableElementBytes != 4) {
        steps.append(AllocationStep{(Checked(rows) * rotaryDim * tableElementBytes).value()});
        steps.append(AllocationStep{0, 5}); // the float32 concatenation
    }
    return steps;
}

LoadAllocation replayLoad(const QList<std::int64_t> &parameters, const QList<AllocationStep> &buffer)
{
    thread_local std::map<std::vector<std::int64_t>, LoadAllocation> known;
    std::vector<std::int64_t> key(parameters.cbegin(), parameters.cend());
    key.push_back(-1);
    for (const AllocationStep &step : buffer)
        key.insert(key.end(), {step.bytes, step.releases});
    if (const auto it = known.find(key); it != known.end())
        return it->second;

    CudaCachingAllocator allocator;
    Checked requested;
    for (qsizetype i = 0; i < parameters.size(); ++i) {
        allocator.allocate(parameters.at(i));
        requested += parameters.at(i);
        if (i != 0)
            continue;
        QList<std::int64_t> handles(buffer.size(), -1);
        QList<bool> released(buffer.size(), false);
        for (qsizetype s = 0; s < buffer.size(); ++s) {
            const AllocationStep &step = buffer.at(s);
            if (step.bytes > 0) {
                handles[s] = allocator.allocate(step.bytes);
            } else if (step.releases >= 0 && step.releases < s && handles.at(step.releases) >= 0) {
                allocator.release(handles.at(step.releases));
                released[step.releases] = true;
            }
        }
        for (qsizetype s = 0; s < buffer.size(); ++s)
            if (buffer.at(s).bytes > 0 && !released.at(s))
                requested += buffer.at(s).bytes;
    }
    LoadAllocation load;
    load.requested = requested.value();
    load.allocated = allocator.allocatedBytes();
    allocator.emptyCache();
    load.reserved = allocator.reservedBytes();
    if (known.size() >= 64)
        known.clear();
    known.emplace(std::move(key), load);
    return load;
}

} // namespace kvscope
