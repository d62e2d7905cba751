// SPDX-License-Identifier: MIT
#include "core/common/jsonkeys.h"

#include "core/common/error.h"

#include <cstring>

#include <QJsonDocument>
#include <QJsonParseError>
#include <QList>
#include <QSet>

namespace kvscope {

namespace {

/// One open object or array: the keys an object has seen, and whether a key comes next.
struct Scope
{
    bool isObject = false;
    bool keyNext = false;
    QSet<QString> keys;
};

/// The JSON string whose opening quote is at json[at], decoded; `at` moves past its closing quote.
QString readString(const QByteArray &json, qsizetype &at)
{
    QString text;
    qsizetype runStart = ++at;
    while (json.at(at) != '"') {
        if (json.at(at) != '\\') {
            ++at;
            continue;
        }
        text += QString::fromUtf8(json.constData() + runStart, at - runStart);
        const char escape = json.at(at + 1);
        at += 2;
        if (escape == 'u') {
            text += QChar(char16_t(json.mid(at, 4).toUShort(nullptr, 16)));
            at += 4;
        } else {
            // \b \f \n \r \t stand for control characters; \" \\ \/ for themselves.
            static constexpr char letters[] = "bfnrt", controls[] = "\b\f\n\r\t";
            const char *letter = std::strchr(letters, escape);
            text += QLatin1Char(letter ? controls[letter - letters] : escape);
        }
        runStart = at;
    }
    text += QString::fromUtf8(json.constData() + runStart, at - runStart);
    ++at;
    return text;
}

} // namespace

std::optional<QString> firstRepeatedKey(const QByteArray &json)
{
    QList<Scope> open;
    qsizetype at = 0;
    while (at < json.size()) {
        const char c = json.at(at);
        if (c == '"') {
            const QString text = readString(json, at);
            if (!open.isEmpty() && open.last().keyNext) {
                Scope &scope = open.last();
                if (scope.keys.contains(text))
                    return text;
                scope.keys.insert(text);
                scope.keyNext = false;
            }
            continue;
        }
        if (c == '{' || c == '[')
            open.append(Scope{c == '{', c == '{', {}});
        else if (c == '}' || c == ']')
            open.removeLast();
        else if (c == ',' && open.last().isObject)
            open.last().keyNext = true;
        ++at;
    }
    return std::nullopt;
}

QJsonObject parseJsonObject(const QByteArray &text, const QString &origin)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(QStringLiteral("%1: malformed JSON at offset %2: %3")
                        .arg(origin)
                        .arg(error.offset)
                        .arg(error.errorString()));
    if (!doc.isObject())
        throw Error(QStringLiteral("%1: expected a JSON object at the top level").arg(origin));
    return doc.object();
}

} // namespace kvscope
