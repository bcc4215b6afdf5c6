# check_calibrate.cmake — ctest driver for tela-calibrate (bench/CMakeLists.txt), run with -P.
# MODE smoke: a quick calibration writes a table (and reports the serial gemm rate as a share of
# the measured FMA peak), and `--check` loads it through tela_costs_load.
# MODE report: `--report` on a trace written here flags the group built to be slower than serial
# and not the others, and counts the malformed lines. Inputs: CALIBRATE, MODE, WORK_DIR.
foreach(var CALIBRATE MODE WORK_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_calibrate.cmake: ${var} is not set")
    endif()
endforeach()

# The table must come from the file named here, and no trace may be written behind the test.
unset(ENV{TELA_COSTS})
unset(ENV{TELA_TRACE})

# run(OUTPUT_VAR args...): runs tela-calibrate, fails the test on a non-zero exit.
function(run output_var)
    execute_process(
        COMMAND "${CALIBRATE}" ${ARGN}
        RESULT_VARIABLE result
        OUTPUT_VARIABLE output
        ERROR_VARIABLE errors
        TIMEOUT 100)
    message("$ tela-calibrate ${ARGN}\n${output}")
    if(errors)
        message("stderr:\n${errors}")
    endif()
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "tela-calibrate ${ARGN} failed: ${result}")
    endif()
    set(${output_var} "${output}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "smoke")
    set(table "${WORK_DIR}/calibrate_smoke.costs")
    file(REMOVE "${table}")
    run(output --quick --widths 2 --max-oversubscribed 3 -o "${table}")
    if(NOT EXISTS "${table}")
        message(FATAL_ERROR "tela-calibrate wrote no table ${table}")
    endif()
    # Every route has a row at width 2 and at the oversubscribed width 3.
    foreach(width 2 3)
        set(cell " \\| +[0-9.]+ +[0-9.]+")
        string(REGEX MATCH "\n +${width}${cell}${cell}${cell}" row "\n${output}")
        if(NOT row)
            message(FATAL_ERROR "tela-calibrate: no measured row for width ${width}")
        endif()
    endforeach()
    if(NOT output MATCHES "\n +3 [^\n]*\\(oversubscribed\\)")
        message(FATAL_ERROR "tela-calibrate: width 3 is not marked oversubscribed")
    endif()
    # The serial gemm rate, with its share of the measured FMA peak.
    if(NOT output MATCHES "\n  ns_per_flop +[0-9.e-]+  \\([0-9.]+ GFLOP/s, [0-9]+% of the measured FMA peak [0-9.]+; ")
        message(FATAL_ERROR "tela-calibrate: no gemm rate with its share of the measured FMA peak")
    endif()
    run(check_output --check "${table}")
elseif(MODE STREQUAL "report")
    # dgemm 16-32 us: width 2 takes longer than width 1 (SLOWER-THAN-SERIAL expected).
    # dpotrf 64-128 us: width 2 at half of width 1 (no flag).
    # dtrsm 4-8 us, no width-1 regions: width 2 beats its estimate, width 4 is slower than its
    # estimate and than width 2 (both flags).
    # tela_parallel, no estimate (an ungated call): nothing to compare with (no flag).
    set(trace "${WORK_DIR}/calibrate_report.trace")
    file(WRITE "${trace}"
        "kernel=dgemm estimate_ns=26000 sections=1 route=seq allowed=2 width=1 wall_ns=20000\n"
        "kernel=dgemm estimate_ns=24000 sections=1 route=seq allowed=2 width=1 wall_ns=21000\n"
        "kernel=dgemm estimate_ns=25000 sections=1 route=seq allowed=2 width=1 wall_ns=19000\n"
        "kernel=dgemm estimate_ns=26000 sections=1 route=team allowed=2 width=2 wall_ns=30000\n"
        "width=2 wall_ns=31000 kernel=dgemm route=team estimate_ns=27000 sections=1 new_key=7\n"
        "kernel=dgemm estimate_ns=26000 sections=1 route=team allowed=2 width=2 wall_ns=29000\n"
        "kernel=dgemm estimate_ns=not-a-number sections=1 route=team width=2 wall_ns=5\n"
        "kernel=dpotrf estimate_ns=100000 sections=4 route=seq allowed=2 width=1 wall_ns=100000\n"
        "kernel=dpotrf estimate_ns=100000 sections=4 route=pool allowed=2 width=2 wall_ns=55000\n"
        "kernel=dpotrf estimate_ns=110000 sections=4 route=pool allowed=2 width=2 wall_ns=56000\n"
        "this line is not a region\n"
        "kernel=dtrsm estimate_ns=5000 sections=1 route=outside allowed=4 width=2 wall_ns=4000\n"
        "kernel=dtrsm estimate_ns=5000 sections=1 route=outside allowed=4 width=4 wall_ns=7000\n"
        "kernel=tela_parallel estimate_ns=0 sections=0 route=team allowed=2 width=2 wall_ns=900\n")
    run(output --report "${trace}")
    set(row_start "\n([a-z_]+) +([0-9.<]+-?[0-9.]* us|no estimate) +([0-9]+) +([0-9]+) +([a-z,]+) +[0-9.]+ us")
    string(REGEX MATCHALL "${row_start}[^\n]*" rows "\n${output}")
    set(expected_rows
        "dgemm 16-32 us 1 3 seq ok"
        "dgemm 16-32 us 2 3 team serial"
        "dpotrf 64-128 us 1 1 seq ok"
        "dpotrf 64-128 us 2 2 pool ok"
        "dtrsm 4-8 us 2 1 outside ok"
        "dtrsm 4-8 us 4 1 outside serial,narrower"
        "tela_parallel no estimate 2 1 team ok")
    set(found "")
    foreach(row IN LISTS rows)
        string(REGEX MATCH "${row_start}" unused "\n${row}")
        # Saved now: the if(MATCHES) below resets CMAKE_MATCH_<n>.
        set(fields "${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4}")
        string(APPEND fields " ${CMAKE_MATCH_5}")
        set(flags "")
        if(row MATCHES "SLOWER-THAN-SERIAL")
            list(APPEND flags serial)
        endif()
        if(row MATCHES "SLOWER-THAN-NARROWER")
            list(APPEND flags narrower)
        endif()
        if(NOT flags)
            set(flags ok)
        endif()
        list(JOIN flags "," flags)
        list(APPEND found "${fields} ${flags}")
    endforeach()
    if(NOT found STREQUAL expected_rows)
        list(JOIN expected_rows "\n  " expected_text)
        list(JOIN found "\n  " found_text)
        message(FATAL_ERROR "tela-calibrate --report: rows\n  ${found_text}\n"
                            "expected\n  ${expected_text}")
    endif()
    if(NOT output MATCHES "malformed lines: 2 \\(skipped; the first is line 7\\)")
        message(FATAL_ERROR "tela-calibrate --report: the 2 malformed lines are not reported")
    endif()
else()
    message(FATAL_ERROR "check_calibrate.cmake: unknown MODE '${MODE}'")
endif()
