# check_tela_shapes.cmake — the ctest smoke test of tela-shapes (cmake -P).
#
# Runs two small shapes (one with an edge in every dimension, one narrow over two A blocks) for
# every transpose on one and two threads, two rounds, with OpenBLAS as the environment configures
# it (--openblas-coretype auto: a test names no kernel set), and checks that the run succeeded
# (which includes every agreement check), that the header names OpenBLAS's core, and that each of
# the 2 x 4 tables has a row with both sides' rates for each shape — never what the rates are.
# Variables: SHAPES (the program). A tela-shapes that finds no OpenBLAS exits 77: a skip.
if(NOT DEFINED SHAPES)
    message(FATAL_ERROR "check_tela_shapes.cmake: SHAPES is not set")
endif()

execute_process(
    COMMAND "${SHAPES}" --shapes 37x29x41,400x20x300 --trans all --threads 1,2 --rounds 2
            --openblas-coretype auto
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE errors
    TIMEOUT 100)
message("${output}")
if(errors)
    message("stderr:\n${errors}")
endif()
if(result EQUAL 77)
    message("tela_shapes_smoke: SKIPPED: tela-shapes found no OpenBLAS to compare with")
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
        cmake_language(EXIT 77)
    endif()
    return()
endif()
if(NOT result EQUAL 0)
    message(FATAL_ERROR "tela-shapes failed: ${result}")
endif()
if(NOT output MATCHES "against OpenBLAS [^\n]+, core [A-Za-z0-9]+ \\(")
    message(FATAL_ERROR "tela-shapes: no OpenBLAS core in the header")
endif()
set(rate "[0-9]+\\.[0-9]+ \\([0-9.]+-[0-9.]+\\) +\\| +[0-9]+\\.[0-9]")
foreach(shape "    37     29     41" "   400     20    300")
    string(REGEX MATCHALL "\n${shape} \\| ${rate} +\\| ${rate} +\\| +[0-9.]+ \\| [0-9.]+\n"
           rows "${output}")
    list(LENGTH rows count)
    if(NOT count EQUAL 8)
        message(FATAL_ERROR "tela-shapes: ${count} rows with both rates for '${shape}', want 8")
    endif()
endforeach()
message("tela_shapes_smoke: passed")
