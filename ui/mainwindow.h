// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

namespace kvscope {

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
};

} // namespace kvscope
