# check_common.cmake — what the benchmarks' smoke tests share (included by check_tela_bench,
# check_tela_peers, check_tela_shapes and check_tela_scaling): run the program, show its output,
# and turn exit status 77 (no OpenBLAS to compare with, or what `skip_reason` says, set before
# the call) into a skip and any other non-zero status into a failure.
#
# tela_smoke_run(TEST PROGRAM_NAME TIMEOUT COMMAND...) leaves the program's standard output in
# `output`. On 77 it prints "TEST: SKIPPED: ..." (the test's SKIP_REGULAR_EXPRESSION; CMake 3.29
# and later also pass the code on) and returns from the calling script: a macro, so that return()
# leaves the script and not a function of its own.
macro(tela_smoke_run test program_name timeout)
    execute_process(
        COMMAND ${ARGN}
        RESULT_VARIABLE result
        OUTPUT_VARIABLE output
        ERROR_VARIABLE errors
        TIMEOUT ${timeout})
    message("${output}")
    if(errors)
        message("stderr:\n${errors}")
    endif()
    if(result EQUAL 77)
        if(NOT DEFINED skip_reason)
            set(skip_reason "${program_name} found no OpenBLAS to compare with")
        endif()
        message("${test}: SKIPPED: ${skip_reason}")
        if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
            cmake_language(EXIT 77)
        endif()
        return()
    endif()
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${program_name} failed: ${result}")
    endif()
endmacro()
