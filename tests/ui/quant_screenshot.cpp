// SPDX-License-Identifier: MIT
// Renders the Quantization view to a PNG for the README and for checking the
// layout by eye:  QT_QPA_PLATFORM=offscreen build/tests/ui/quant_screenshot
//   docs/images/quantization.png [width height [rows cols [schemes]]]
#include "quantization/quantizationview.h"

#include <cstdio>

#include <QApplication>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTimer>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    if (args.size() < 2) {
        std::fprintf(stderr,
                     "usage: quant_screenshot out.png [width height [rows cols [scheme,scheme...]]]\n");
        return 2;
    }
    // The picture shows the defaults: settings of its own, never the user's,
    // and none left over from the last picture.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("kvscope-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("quant_screenshot"));
    QSettings().clear();
    const int width = args.value(2, QStringLiteral("1600")).toInt();
    const int height = args.value(3, QStringLiteral("1000")).toInt();
    kvscope::QuantizationView view;
    view.resize(width, height);
    view.show();
    view.findChild<QSpinBox *>(QStringLiteral("rows"))
        ->setValue(args.value(4, QStringLiteral("4096")).toInt());
    view.findChild<QSpinBox *>(QStringLiteral("cols"))
        ->setValue(args.value(5, QStringLiteral("4096")).toInt());
    if (args.size() > 6) {
        const QStringList wanted = args.at(6).split(QLatin1Char(','));
        for (QCheckBox *box : view.findChildren<QCheckBox *>())
            if (box->objectName().startsWith(QLatin1String("scheme_")))
                box->setChecked(wanted.contains(box->objectName().mid(7)));
    }
    QElapsedTimer clock;
    clock.start();
    QObject::connect(&view, &kvscope::QuantizationView::resultsShown, &app, [&] {
        if (view.isBusy())
            return; // a later request is coming
        std::fprintf(stderr, "results after %lld ms\n", qlonglong(clock.elapsed()));
        QTimer::singleShot(200, &app, [&] {
            if (!view.grab().save(args.at(1)))
                QApplication::exit(1);
            else
                QApplication::quit();
        });
    });
    QObject::connect(&view, &kvscope::QuantizationView::failed, &app, [](const QString &message) {
        std::fprintf(stderr, "failed: %s\n", qPrintable(message));
        QApplication::exit(1);
    });
    return QApplication::exec();
}
