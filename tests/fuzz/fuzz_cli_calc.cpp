// SPDX-License-Identifier: MIT
// kvscope calc's command line, one argument per input line -> the parser
// and calc's checks -> the scenario (its values read back) -> what calc
// prints (table or JSON with fixes), not printed. Models are presets only.
#include "app/cli/calccommand.h"
#include "app/cli/cliio.h"
#include "core/common/error.h"
#include "core/scenario/scenario.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztargets.h"

#include <cstddef>
#include <cstdint>

namespace kvscope::fuzz {

void cli_calc(const std::uint8_t *data, std::size_t size)
{
    cli::CalcCommandLine commandLine;
    if (cli::checkCommandLine(commandLine.parser, commandArguments("calc", data, size)))
        return;
    const ScenarioResolvers resolvers = presetResolvers();
    try {
        checkScenarioValues(commandLine.scenarioOptions.scenario(commandLine.parser, resolvers), resolvers);
        cli::calcOutput(commandLine, resolvers);
    } catch (const Error &) {
    }
}

} // namespace kvscope::fuzz
