// SPDX-License-Identifier: MIT
// kvscope quant's command line, one argument per input line -> the parser
// and quant's checks -> the simulation request (schemes, bins, the tensor's
// source), not run; and the same options as kvscope export reads them.
// --list is left out: it reads the file --input names.
#include "app/cli/cliio.h"
#include "app/cli/quantcommand.h"
#include "core/common/error.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

void cli_quant(const std::uint8_t *data, std::size_t size)
{
    cli::QuantCommandLine commandLine;
    const QCommandLineParser &parser = commandLine.parser;
    const cli::QuantOptions &options = commandLine.options;
    if (cli::checkCommandLine(commandLine.parser, commandArguments("quant", data, size)) ||
        parser.isSet(options.list))
        return;
    try {
        cli::quantRequest(parser, options);
    } catch (const Error &) {
    }
    try {
        cli::quantizationChoices(parser, options, options.groupSize, QuantizationChoices());
    } catch (const Error &) {
    }
}

} // namespace kvscope::fuzz
