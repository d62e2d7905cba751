// SPDX-License-Identifier: MIT
#include "mainwindow.h"

#include "units.h"

#include <QLabel>
#include <QStatusBar>

namespace kvscope {

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("kvscope"));
    auto *placeholder = new QLabel(tr("kvscope"), this);
    placeholder->setAlignment(Qt::AlignCenter);
    setCentralWidget(placeholder);
    statusBar()->showMessage(unitsConvention());
    resize(1280, 720);
}

} // namespace kvscope
