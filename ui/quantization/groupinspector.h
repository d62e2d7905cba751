// SPDX-License-Identifier: MIT
#pragma once

#include "core/quantization/inspection.h"
#include "core/quantization/tensordata.h"

#include <optional>

#include <QGroupBox>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace kvscope {

/// One integer group up close, as docs/quantization-formats.md §4 explains AWQ: its range,
/// scale s and zero point z, every weight with its stored q and w', and the
/// worked example "(q − z) × s" for the chosen weight.
class GroupInspector : public QGroupBox
{
    Q_OBJECT

public:
    explicit GroupInspector(QWidget *parent = nullptr);

    void setTensor(const quant::TensorData &tensor);
    /// The integer schemes to choose from; `fallback` when there are none.
    void setSchemes(const QList<quant::Scheme> &schemes, const quant::Scheme &fallback);

    quant::Scheme scheme() const;
    std::int64_t row() const;
    std::int64_t group() const;
    /// Column of the chosen weight.
    std::int64_t column() const;
    const std::optional<quant::GroupInspection> &inspection() const { return m_inspection; }

Q_SIGNALS:
    /// Scheme, group or weight changed (the values chart redraws its grid).
    void selectionChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    /// Recomputes the inspection and fills the table.
    void refresh();
    /// Sets the texts that explain the inspection (or why there is none).
    void showInspection();
    /// Widens the table to its columns, so that w′ is never cut; the text beside it wraps.
    void fitTableWidth();
    void updateRanges();

    quant::TensorData m_tensor;
    QList<quant::Scheme> m_schemes;
    std::optional<quant::GroupInspection> m_inspection;
    QString m_failure; ///< why the last inspection failed
    QComboBox *m_scheme = nullptr;
    QSpinBox *m_row = nullptr;
    QSpinBox *m_group = nullptr;
    QSpinBox *m_weight = nullptr;
    QLabel *m_range = nullptr;
    QLabel *m_scale = nullptr;
    QLabel *m_zero = nullptr;
    QLabel *m_code = nullptr;
    QLabel *m_example = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_rowTitle = nullptr;
    QLabel *m_groupTitle = nullptr;
    QLabel *m_weightTitle = nullptr;
};

/// The scheme the inspector starts with for these schemes (also the one an
/// export without a window draws the grid of): the first asymmetric INT
/// scheme, else the first integer one, else `fallback`.
quant::Scheme startingInspectedScheme(const QList<quant::Scheme> &schemes, const quant::Scheme &fallback);

} // namespace kvscope
