# check_teambench.cmake — the ctest smoke test of tela-teambench (cmake -P).
#
# Runs one scenario for a few rounds at width 2 and checks that the run produced a value for
# every expected cell from every side — in the CELL lines, the CSV file and the table — and
# nothing about what the values are: times depend on the machine, a smoke test must not.
# Variables: BENCH (the program), SCENARIO, EXTRA_ARGS (a list), HAVE_OMP (1 if the libgomp
# side is built), TSAN_SUPPRESSIONS (a file, for ThreadSanitizer builds), WORK_DIR.
foreach(var BENCH SCENARIO HAVE_OMP WORK_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_teambench.cmake: ${var} is not set")
    endif()
endforeach()

# libgomp is not instrumented: ThreadSanitizer cannot see its synchronisation and would report
# every region of the OpenMP side. Append the suppressions to what the caller set.
if(TSAN_SUPPRESSIONS)
    set(ENV{TSAN_OPTIONS} "$ENV{TSAN_OPTIONS} suppressions=${TSAN_SUPPRESSIONS}")
endif()

# The cells each side must report. Both sides measure every cell but acquire's phases.
if(SCENARIO STREQUAL "sections")
    set(both_cells 5us-call 5us-overhead 20us-call 20us-overhead 50us-call 50us-overhead)
    set(tela_cells "")
elseif(SCENARIO STREQUAL "gaps")
    set(both_cells nogap-first nogap-call)
    foreach(mode sleep spin)
        foreach(gap 100us 1ms 10ms)
            list(APPEND both_cells ${mode}${gap}-first ${mode}${gap}-call ${mode}${gap}-burn)
        endforeach()
    endforeach()
    list(APPEND both_cells sleep100ms-burn spin100ms-burn)
    set(tela_cells "")
elseif(SCENARIO STREQUAL "acquire")
    set(both_cells held_team-call held_pool-total fresh_pool-total)
    set(tela_cells held_pool-acquire held_pool-call held_pool-release fresh_pool-build
                   fresh_pool-acquire fresh_pool-call fresh_pool-release fresh_pool-destroy)
else()
    message(FATAL_ERROR "check_teambench.cmake: unknown SCENARIO '${SCENARIO}'")
endif()

set(csv_file "${WORK_DIR}/teambench_${SCENARIO}_smoke.csv")
file(REMOVE "${csv_file}")
execute_process(
    COMMAND "${BENCH}" --scenario ${SCENARIO} --quick --widths 2 --emit-cells --csv "${csv_file}"
            ${EXTRA_ARGS}
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE errors
    TIMEOUT 280)
message("${output}")
if(errors)
    message("stderr:\n${errors}")
endif()
if(NOT result EQUAL 0)
    message(FATAL_ERROR "tela-teambench --scenario ${SCENARIO} failed: ${result}")
endif()
if(NOT EXISTS "${csv_file}")
    message(FATAL_ERROR "tela-teambench wrote no CSV file ${csv_file}")
endif()
file(READ "${csv_file}" csv)

set(number "-?[0-9]+(\\.[0-9]+)?")
set(missing "")
# check_cell(CELL SIDE COLUMN): a CELL line, a CSV row and a number in the table's column
# (1 = tela, 2 = libgomp).
function(check_cell cell side column)
    string(REGEX MATCH "\nCELL ${SCENARIO}/${cell}/w2/${side} ${number}\n" line "\n${output}")
    if(NOT line)
        list(APPEND missing "CELL line ${cell}/${side}")
    endif()
    string(REGEX MATCH "\n${SCENARIO},${cell},2,${side},${number}," row "\n${csv}")
    if(NOT row)
        list(APPEND missing "CSV row ${cell}/${side}")
    endif()
    # A table row: "<cell> <unit> | <tela> | <libgomp> | <ratio>".
    set(value "${number} \\(${number}-${number}\\)")
    if(column EQUAL 1)
        set(row_pattern "\n${cell} +[a-z /]+ \\| ${value} +\\|")
    else()
        set(row_pattern "\n${cell} +[a-z /]+ \\| [^|]+\\| ${value} +\\| ${number}")
    endif()
    string(REGEX MATCH "${row_pattern}" table_row "\n${output}")
    if(NOT table_row)
        list(APPEND missing "table column ${column} of ${cell}")
    endif()
    set(missing "${missing}" PARENT_SCOPE)
endfunction()

foreach(cell IN LISTS both_cells tela_cells)
    check_cell(${cell} tela 1)
endforeach()
if(HAVE_OMP)
    foreach(cell IN LISTS both_cells)
        check_cell(${cell} omp 2)
    endforeach()
endif()
if(missing)
    list(JOIN missing "\n  " missing_text)
    message(FATAL_ERROR "tela-teambench --scenario ${SCENARIO}: missing\n  ${missing_text}")
endif()
list(LENGTH both_cells both_count)
list(LENGTH tela_cells tela_count)
message("tela-teambench --scenario ${SCENARIO}: all ${both_count} shared and ${tela_count} "
        "tela-only cells present (libgomp side: ${HAVE_OMP})")
