// SPDX-License-Identifier: MIT
#include "tests/core/allreducetimings.h"

#include "core/common/error.h"
#include "core/plan/speed.h"
#include "tests/core/jsondatafile.h"

#include <QJsonArray>
#include <QJsonObject>

namespace kvscope::validation {

QList<AllReduceTiming> readAllReduceTimings(const QString &path)
{
    return readDataRows<AllReduceTiming>(
        path, "measurements", [&](const QJsonObject &row, AllReduceTiming &t) {
            t.gpu = row.value(QLatin1String("gpu")).toString();
            t.gpus = row.value(QLatin1String("tensor_parallel_size")).toInt();
            t.messageBytes = row.value(QLatin1String("message_bytes")).toDouble();
            t.seconds = row.value(QLatin1String("latency_us")).toDouble() * 1e-6;
            if (t.gpus < 2 || !(t.messageBytes > 0) || !(t.seconds > 0))
                throw Error(QStringLiteral("%1: row '%2' needs tensor_parallel_size >= 2 and a positive "
                                           "message_bytes and latency_us")
                                .arg(path, t.id));
        });
}

double latencyBeyondTransfer(const AllReduceTiming &timing, const GpuSpec &links)
{
    return timing.seconds -
           allReduceTransferSeconds(timing.gpus, timing.messageBytes, links.interconnectGBs.value_or(0));
}

} // namespace kvscope::validation
