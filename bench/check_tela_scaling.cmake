# check_tela_scaling.cmake — the ctest smoke test of tela-scaling (cmake -P).
#
# Runs two small orders (one with an edge in every dimension) for two rounds and checks that the
# run succeeded (which includes two threads bitwise equal to one thread on either CPU), that the
# header names both CPUs' FMA peaks, and that each order has a row with the three sides' rates and
# both ratios — never what they are. Variables: SCALING (the program). With fewer than two CPUs
# tela-scaling exits 77: a skip.
if(NOT DEFINED SCALING)
    message(FATAL_ERROR "check_tela_scaling.cmake: SCALING is not set")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/check_common.cmake)
set(skip_reason "fewer than two CPUs")
tela_smoke_run(tela_scaling_smoke tela-scaling 100 "${SCALING}" --sizes 97,200 --rounds 2)
if(NOT output MATCHES "FMA peak, one thread: [0-9.]+ GFLOP/s on CPU [0-9]+, [0-9.]+ on CPU [0-9]+")
    message(FATAL_ERROR "tela-scaling: no per-CPU FMA peaks in the header")
endif()
set(rate "[0-9]+\\.[0-9]+ \\([0-9.]+-[0-9.]+\\) *")
foreach(n 97 200)
    if(NOT output MATCHES "\n +${n} \\| ${rate}\\| ${rate}\\| ${rate}\\| +[0-9]+\\.[0-9]+ \\| +[0-9]+\\.[0-9]+\n")
        message(FATAL_ERROR "tela-scaling: no row with three rates and two ratios for n = ${n}")
    endif()
endforeach()
message("tela_scaling_smoke: passed")
