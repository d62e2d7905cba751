// SPDX-License-Identifier: MIT
#include "core/precision/quantizationlabel.h"

#include <QCoreApplication>

namespace kvscope {

QString quantMethodLabel(QuantMethod method)
{
    if (method == QuantMethod::None)
        return QCoreApplication::translate("kvscope::QuantizationLabel", "none");
    return quantMethodName(method);
}

QString quantizationChoiceLabel(const QString &choice, QuantMethod checkpoint)
{
    if (choice == QLatin1String("auto"))
        return QCoreApplication::translate("kvscope::QuantizationLabel", "auto (checkpoint: %1)")
            .arg(quantMethodLabel(checkpoint));
    if (choice == quantMethodName(QuantMethod::None))
        return quantMethodLabel(QuantMethod::None);
    return choice;
}

} // namespace kvscope
