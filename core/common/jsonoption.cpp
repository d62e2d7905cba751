// SPDX-License-Identifier: MIT
#include "core/common/jsonoption.h"

#include "core/common/error.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace kvscope {

QString jsonText(const QJsonValue &value)
{
    if (value.isUndefined())
        return QStringLiteral("nothing");
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

QJsonObject parseJsonObjectOption(const QString &text, const QString &option)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(text.trimmed().toUtf8(), &parseError);
    if (!document.isObject())
        throw Error(QStringLiteral("%1: not a JSON object (%2), got '%3'")
                        .arg(option,
                             parseError.error == QJsonParseError::NoError
                                 ? QStringLiteral("another JSON value")
                                 : parseError.errorString(),
                             text));
    return document.object();
}

} // namespace kvscope
