// SPDX-License-Identifier: MIT
#pragma once

#include <exception>

#include <QByteArray>
#include <QString>

namespace kvscope {

/// Whether a terminal shows `c` as it is (a surrogate counts: half of a printable pair).
bool isPrintable(QChar c);

/// `text` with every character a terminal would act on or not show (NUL, ESC, DEL, a
/// line break) written as an escape: \x00 below U+0100, \u2028 above. Bytes read from a
/// hostile file reach messages through it.
QString printableText(const QString &text);

/// Longest message an Error keeps: a value echoed from a hostile input (a 16 MB id)
/// would otherwise fill a terminal, and a message box lays a long unbroken word out
/// again for every width it tries (seconds per megabyte on the UI thread).
inline constexpr qsizetype MaxErrorLength = 8192;

/// `text` cut to MaxErrorLength: its start and end kept, the middle replaced by
/// "… (N characters left out) …".
QString boundedText(const QString &text);

/// The one error type the core throws for bad input or impossible figures.
/// The message names the option, file or field and the offending value; the
/// CLI prints it as one line and the GUI shows it without changing state; control
/// characters in it are escaped (printableText), so it stays one printable line.
class Error : public std::exception
{
public:
    explicit Error(const QString &message)
        : m_message(printableText(boundedText(message))), m_utf8(m_message.toUtf8())
    {}

    const QString &message() const noexcept { return m_message; }
    const char *what() const noexcept override { return m_utf8.constData(); }

private:
    QString m_message;
    QByteArray m_utf8;
};

/// Throws the Error "ORIGIN: PROBLEM" (a file or field, and what is wrong with it).
[[noreturn]] inline void failAt(const QString &origin, const QString &problem)
{
    throw Error(QStringLiteral("%1: %2").arg(origin, problem));
}

} // namespace kvscope
