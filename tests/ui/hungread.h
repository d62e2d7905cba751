// SPDX-License-Identifier: MIT
// A model read that hangs, as on a hung mount, for the suites that check
// nothing in the window waits for one (setModelReader(), ui/state/modelreader.h).
#pragma once

#include "ui/state/modelreader.h"

#include <memory>

#include <QSemaphore>

namespace kvscope::test {

class HungRead
{
public:
    /// The reader for setModelReader(): it hangs until comeBack(), or
    /// `limitMs` at most (a test that fails must not hang too), then imports.
    ModelReader reader(int limitMs) const
    {
        return [began = m_began, back = m_back, ended = m_ended, limitMs](const QString &path) {
            began->release();
            back->tryAcquire(1, limitMs);
            ImportedModel model = importModel(path);
            ended->release();
            return model;
        };
    }
    /// Whether the read began within `ms`.
    bool began(int ms) const { return m_began->tryAcquire(1, ms); }
    /// Ends the hang.
    void comeBack() const { m_back->release(); }
    /// Whether the read ended within `ms`.
    bool ended(int ms) const { return m_ended->tryAcquire(1, ms); }

private:
    std::shared_ptr<QSemaphore> m_began = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> m_back = std::make_shared<QSemaphore>();
    std::shared_ptr<QSemaphore> m_ended = std::make_shared<QSemaphore>();
};

} // namespace kvscope::test
