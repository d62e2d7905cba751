// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace kvscope {

class MainWindow;

/// `kvscope --screenshot FILE`: renders the window to a PNG once it is ready
/// (laid out, a model given on the command line imported, the simulator's
/// results on screen when its tab is open), then quits. The exit code is 0
/// when the PNG is written and nothing failed on the way; a failure's message
/// goes to stderr (and shows in the picture).
void scheduleScreenshot(MainWindow &window, const QString &path);

} // namespace kvscope
