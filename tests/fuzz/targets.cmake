# SPDX-License-Identifier: MIT
# The fuzz targets, shared by the libFuzzer build (tests/fuzz/CMakeLists.txt)
# and the corpus replay (tests/fuzz/replay/): each name is a function of
# fuzztargets.h, defined in fuzz_<name>.cpp unless listed below, with its
# seed corpus in corpus/<name>/.
set(KVSCOPE_FUZZ_TARGETS
    hfconfig safetensors gguf npy scenariofile cli_calc cli_quant cli_models cli_gpus settingsfile benchresult startuplog)
set(KVSCOPE_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

# The file defining a target's function.
function(kvscope_fuzz_source target out)
    if(target MATCHES "^cli_(models|gpus)$")
        set(${out} ${KVSCOPE_FUZZ_DIR}/fuzz_cli_list.cpp PARENT_SCOPE)
    else()
        set(${out} ${KVSCOPE_FUZZ_DIR}/fuzz_${target}.cpp PARENT_SCOPE)
    endif()
endfunction()
