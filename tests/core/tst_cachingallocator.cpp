// SPDX-License-Identifier: MIT
// PyTorch's CUDA caching allocator as kvscope models it (core/plan/cachingallocator.h), case by case from the
// rules of c10/cuda/CUDACachingAllocator.cpp (pytorch/pytorch): kSmallSize 1 MiB, kSmallBuffer 2 MiB,
// kLargeBuffer 20 MiB, kMinLargeAlloc 10 MiB, kRoundLarge 2 MiB, kMinBlockSize 512 B.
#include "core/common/error.h"
#include "core/plan/cachingallocator.h"

#include <limits>

#include <QTest>

using namespace kvscope;

namespace {
constexpr std::int64_t MiB = std::int64_t(1) << 20;
}

class TestCachingAllocator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void largeRequestsRoundUpToTwoMiB()
    {
        // 26.25 MiB (Qwen2-1.5B's down_proj in 16 bits: 8,960 x 1,536 x 2 B) takes a 28 MiB segment; the
        // 1.75 MiB left is over 1 MiB, so it stays a free block of its own (split).
        CudaCachingAllocator a;
        a.allocate(8960 * 1536 * 2);
        QCOMPARE(a.reservedBytes(), 28 * MiB);
        // A 1.5 MiB request then fits that block (best fit): nothing new is reserved.
        a.allocate(3 * MiB / 2);
        QCOMPARE(a.reservedBytes(), 28 * MiB);
        // A 12.5 MiB request takes 14 MiB; its 1.5 MiB rest is split off, then a 1.25 MiB request uses it.
        a.allocate(25 * MiB / 2);
        QCOMPARE(a.reservedBytes(), 42 * MiB);
        a.allocate(5 * MiB / 4);
        QCOMPARE(a.reservedBytes(), 42 * MiB);
        // An 11 MiB request's segment is 12 MiB; the 1 MiB rest is not over 1 MiB: kept in the block.
        a.allocate(11 * MiB);
        QCOMPARE(a.reservedBytes(), 54 * MiB);
        a.allocate(MiB + 512); // 1 MiB and a bit: no free block holds it (the last one was not split)
        QCOMPARE(a.reservedBytes(), 74 * MiB);
    }

    void mediumRequestsShareTwentyMiBSegments()
    {
        // 1 to 10 MiB: a 20 MiB segment, split for the next ones until they no longer fit.
        CudaCachingAllocator a;
        a.allocate(6 * MiB);
        a.allocate(9 * MiB / 2); // 4.5 MiB
        a.allocate(6 * MiB);     // 16.5 MiB of the 20 used
        QCOMPARE(a.reservedBytes(), 20 * MiB);
        a.allocate(9 * MiB / 2); // does not fit the 3.5 MiB left: a second segment
        QCOMPARE(a.reservedBytes(), 40 * MiB);
    }

    void smallRequestsShareTwoMiBSegments()
    {
        // Up to 1 MiB: rounded to 512 B, packed in 2 MiB segments (RMSNorm weights of 5,120 x 2 B).
        CudaCachingAllocator a;
        for (int i = 0; i < 204; ++i) // 204 x 10,240 B = 1.99 MiB
            a.allocate(5120 * 2);
        QCOMPARE(a.reservedBytes(), 2 * MiB);
        a.allocate(5120 * 2);
        QCOMPARE(a.reservedBytes(), 4 * MiB);
        a.allocate(100); // 512 B
        QCOMPARE(a.reservedBytes(), 4 * MiB);
    }

    void freedBlocksMergeAndEmptyCacheReturnsWholeSegments()
    {
        CudaCachingAllocator a;
        const std::int64_t first = a.allocate(4 * MiB);
        const std::int64_t second = a.allocate(4 * MiB);
        const std::int64_t kept = a.allocate(40 * MiB);
        QCOMPARE(a.reservedBytes(), 60 * MiB);
        a.release(first);
        a.release(second);
        // The two freed blocks and the 12 MiB rest merge into the whole 20 MiB segment, which empty_cache()
        // returns; the 40 MiB segment in use stays.
        a.emptyCache();
        QCOMPARE(a.reservedBytes(), 40 * MiB);
        // A freed block serves a later request (best fit): 32 MiB of the freed 40 MiB, nothing new reserved.
        a.release(kept);
        a.allocate(32 * MiB);
        QCOMPARE(a.reservedBytes(), 40 * MiB);
    }

    void allocatedBytesCountWholeBlocks()
    {
        // torch.cuda.memory_allocated() adds each block's size (DeviceCachingAllocator::malloc:
        // stats.allocated_bytes increase(block->size)), and a block is split only when more than 1 MiB would
        // be left: an 11 MiB request holds its whole 12 MiB block, a 12.5 MiB one only its 12.5 MiB.
        CudaCachingAllocator a;
        const std::int64_t eleven = a.allocate(11 * MiB);
        QCOMPARE(a.allocatedBytes(), 12 * MiB);
        a.allocate(25 * MiB / 2);
        QCOMPARE(a.allocatedBytes(), 12 * MiB + 25 * MiB / 2);
        // Sizes round up to 512 B: 100 B holds 512.
        a.allocate(100);
        QCOMPARE(a.allocatedBytes(), 12 * MiB + 25 * MiB / 2 + 512);
        a.release(eleven);
        QCOMPARE(a.allocatedBytes(), 25 * MiB / 2 + 512);
        a.release(eleven); // twice: nothing more
        QCOMPARE(a.allocatedBytes(), 25 * MiB / 2 + 512);
    }

    void aSizeNearTheLimitIsRefusedNotWrapped()
    {
        // Rounding 2^63 - 100 bytes up to 512 B would pass 2^63: refused (kvscope::Error), never negative.
        CudaCachingAllocator a;
        bool refused = false;
        try {
            a.allocate(std::numeric_limits<std::int64_t>::max() - 100);
        } catch (const Error &) {
            refused = true;
        }
        QVERIFY(refused);
        QCOMPARE(a.reservedBytes(), std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestCachingAllocator)
#include "tst_cachingallocator.moc"
