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

include(${CMAKE_CURRENT_LIST_DIR}/check_common.cmake)
tela_smoke_run(tela_shapes_smoke tela-shapes 100
    "${SHAPES}" --shapes 37x29x41,400x20x300 --trans all --threads 1,2 --rounds 2
    --openblas-coretype auto)
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
