// SPDX-License-Identifier: MIT
// kvscope models and kvscope gpus: the command line, one argument per
// input line -> the parser -> the filtered listing (table or JSON), not printed.
#include "app/cli/cliio.h"
#include "app/cli/listcommands.h"
#include "core/common/error.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

namespace {

void listing(cli::ListingKind kind, const char *command, const std::uint8_t *data, std::size_t size)
{
    cli::ListingCommandLine commandLine(kind);
    if (cli::checkCommandLine(commandLine.parser, commandArguments(command, data, size),
                              cli::Positionals::Taken))
        return;
    try {
        cli::listingOutput(commandLine);
    } catch (const Error &) {
    }
}

} // namespace

void cli_models(const std::uint8_t *data, std::size_t size)
{
    listing(cli::ListingKind::Models, "models", data, size);
}

void cli_gpus(const std::uint8_t *data, std::size_t size)
{
    listing(cli::ListingKind::Gpus, "gpus", data, size);
}

} // namespace kvscope::fuzz
