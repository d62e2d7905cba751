// SPDX-License-Identifier: MIT
#pragma once

#include <exception>

#include <QByteArray>
#include <QString>

namespace kvscope {

/// The one error type the core throws for bad input or impossible figures.
/// The message names the option, file or field and the offending value; the
/// CLI prints it as one line and the GUI shows it without changing state.
class Error : public std::exception
{
public:
    explicit Error(QString message) : m_message(std::move(message)), m_utf8(m_message.toUtf8()) {}

    const QString &message() const noexcept { return m_message; }
    const char *what() const noexcept override { return m_utf8.constData(); }

private:
    QString m_message;
    QByteArray m_utf8;
};

} // namespace kvscope
