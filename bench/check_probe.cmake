# check_probe.cmake — the ctest smoke test of tela-probe (cmake -P).
#
# Runs both kernels at tiny sizes (gemm32, chol96), every arm, two processes each, with one
# background load process, and checks the exit status (every child reported and all results
# were bitwise equal), a table row with numbers and a slow-mode count for every arm of every
# kernel, and a CSV row per process — never what the times are. Variables: PROBE, WORK_DIR.
foreach(var PROBE WORK_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_probe.cmake: ${var} is not set")
    endif()
endforeach()

set(kernels gemm32 chol96)
set(arms held team_per_call scoped_team_per_call fresh_pool auto)
set(procs 2)
set(csv_file "${WORK_DIR}/probe_smoke.csv")
file(REMOVE "${csv_file}")
execute_process(
    COMMAND "${PROBE}" --kernels gemm32:4,chol96:3 --procs ${procs} --width 2 --load 1:30
            --timeout 120 --csv "${csv_file}"
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE errors
    TIMEOUT 280)
message("${output}")
if(errors)
    message("stderr:\n${errors}")
endif()
if(NOT result EQUAL 0)
    message(FATAL_ERROR "tela-probe failed: ${result}")
endif()

set(number "[0-9]+(\\.[0-9]+)?")
foreach(kernel ${kernels})
    string(FIND "${output}" "\n${kernel}: " at)
    if(at LESS 0)
        message(FATAL_ERROR "tela-probe: no table for ${kernel}")
    endif()
    string(SUBSTRING "${output}" ${at} -1 table)
    foreach(arm ${arms})
        # "arm | median | min | max | /held | slow mode (k/n) | first | spawned | faults |
        # others | medians".
        set(row "\n${arm} +\\| +${number} +\\| +${number} +\\| +${number} +\\| +${number} +\\| "
                "(none|SLOW) \\([0-9]+/${procs}\\) +\\| +${number} +\\| +[0-9]+ +\\| +[0-9]+ +\\| "
                "+[0-9]+% +\\|")
        string(CONCAT row ${row})
        if(NOT table MATCHES "${row}")
            message(FATAL_ERROR "tela-probe: no complete row for ${kernel} ${arm}")
        endif()
    endforeach()
    if(NOT table MATCHES "results: bitwise identical over")
        message(FATAL_ERROR "tela-probe: ${kernel}: results not reported bitwise identical")
    endif()
endforeach()
if(NOT output MATCHES "\nslow mode: ")
    message(FATAL_ERROR "tela-probe: no slow-mode summary line")
endif()

if(NOT EXISTS "${csv_file}")
    message(FATAL_ERROR "tela-probe wrote no CSV file ${csv_file}")
endif()
file(STRINGS "${csv_file}" rows)
list(GET rows 0 header)
if(NOT header STREQUAL
   "kernel,arm,process,width,calls,median_ms,min_ms,max_ms,first_ms,spawned,cpu_moves,faults_per_call,load")
    message(FATAL_ERROR "tela-probe: unexpected CSV header: ${header}")
endif()
foreach(kernel ${kernels})
    foreach(arm ${arms})
        math(EXPR last "${procs} - 1")
        foreach(p RANGE ${last})
            set(found 0)
            foreach(line ${rows})
                if(line MATCHES "^${kernel},${arm},${p},2,[0-9]+,${number},${number},${number},${number},[0-9]+,[0-9]+,${number},1:30$")
                    set(found 1)
                endif()
            endforeach()
            if(NOT found)
                message(FATAL_ERROR "tela-probe: no CSV row for ${kernel} ${arm} process ${p}")
            endif()
        endforeach()
    endforeach()
endforeach()
message("tela-probe: every arm of every kernel reported by ${procs} processes")
