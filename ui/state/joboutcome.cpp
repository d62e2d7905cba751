// SPDX-License-Identifier: MIT
#include "ui/state/joboutcome.h"

#include "core/common/error.h"
#include "core/quantization/parallel.h"

#include <new>

#include <QException>

namespace kvscope {

namespace {

JobFailure outOfMemory()
{
    return {QStringLiteral("out of memory"), true, false}; // a literal: no allocation
}

/// "unexpected error", with what the exception said when it said anything.
JobFailure unexpected(const char *what = nullptr)
{
    if (!what || !*what)
        return {QStringLiteral("unexpected error"), false, false};
    return {QStringLiteral("unexpected error: %1").arg(printableText(QString::fromLocal8Bit(what))), false,
            false};
}

} // namespace

JobFailure currentFailure() noexcept
{
    try {
        try {
            throw;
        } catch (const quant::Cancelled &) {
            return {QString(), false, true};
        } catch (const Error &error) {
            return {error.message(), false, false};
        } catch (const std::bad_alloc &) {
            return outOfMemory();
        } catch (const QUnhandledException &wrapped) {
            // What QtConcurrent stores for an exception that escaped the run: say what it was.
            if (!wrapped.exception())
                return unexpected(wrapped.what());
            try {
                std::rethrow_exception(wrapped.exception());
            } catch (...) {
                return currentFailure();
            }
        } catch (const std::exception &error) {
            return unexpected(error.what());
        } catch (...) {
            return unexpected();
        }
    } catch (...) {
        return outOfMemory(); // wording the message took memory there was not
    }
}

} // namespace kvscope
