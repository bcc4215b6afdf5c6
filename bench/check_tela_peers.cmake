# check_tela_peers.cmake — the ctest smoke test of tela-peers (cmake -P).
#
# Runs gemm NN at n = 64 on one thread for one round, with OpenBLAS as the environment configures
# it (--openblas-coretype auto, as tela_bench_smoke: a test names no kernel set) and BLIS if it is
# installed, and checks that the run succeeded (which includes every agreement check), that the
# header names OpenBLAS's core and either BLIS's configuration and version or the one line saying
# BLIS is not loaded, and that the table has a row with a rate from every side loaded — never what
# the rates are. BLIS may be missing: the test passes either way.
# Variables: PEERS (the program). A tela-peers that finds no OpenBLAS exits 77: a skip.
if(NOT DEFINED PEERS)
    message(FATAL_ERROR "check_tela_peers.cmake: PEERS is not set")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/check_common.cmake)
tela_smoke_run(tela_peers_smoke tela-peers 100
    "${PEERS}" --sizes 64 --rounds 1 --threads 1 --routines gemm --openblas-coretype auto)

set(rate "[0-9]+\\.[0-9]+ \\([0-9.]+-[0-9.]+\\) +\\| +[0-9]+\\.[0-9]")
if(NOT output MATCHES "\n    core: [A-Za-z0-9]+ \\([^)]+\\)\n")
    message(FATAL_ERROR "tela-peers: no OpenBLAS core line in the header")
endif()
if(output MATCHES "\n  BLIS: not loaded, [^\n]+: timing tela and OpenBLAS only\n")
    set(sides 2)
elseif(output MATCHES
       "\n  BLIS [0-9][^:]*: [^\n]+\n    arch: [a-z0-9_]+ \\(bli_arch_query_id [0-9]+; ")
    set(sides 3)
else()
    message(FATAL_ERROR "tela-peers: the header has neither BLIS's arch line nor the line saying "
                        "BLIS is not loaded")
endif()
if(sides EQUAL 3)
    set(row "\n +64 \\| ${rate} \\| ${rate} \\| ${rate} \\| +[0-9.]+ \\| +[0-9.]+ \\| +[0-9.]+ \\|")
else()
    set(row "\n +64 \\| ${rate} \\| ${rate} \\| +[0-9.]+ \\|")
endif()
if(NOT output MATCHES "${row}")
    message(FATAL_ERROR "tela-peers: no n = 64 row with a rate from each of the ${sides} sides")
endif()
if(NOT output MATCHES "\nagreement: ([0-9]+) of ([0-9]+) checks")
    message(FATAL_ERROR "tela-peers: no agreement line")
endif()
math(EXPR peers "${sides} - 1")
if(NOT CMAKE_MATCH_1 EQUAL peers OR NOT CMAKE_MATCH_2 EQUAL peers)
    message(FATAL_ERROR "tela-peers: expected ${peers} passed agreement checks")
endif()
message("tela_peers_smoke: ${sides} sides")
