# check_tela_bench.cmake — the ctest smoke test of tela-bench (cmake -P).
#
# Runs every routine (level 3, LAPACK with the QR family, and the memory-bound level 1 and 2;
# gemm NN and TN, so gemv N and T; potrf, potrs, posv on both triangles; gels and gels4 with
# nrhs 1 and n/8; tsqr on 200 rows) at two sizes, 1 and 2 threads, two rounds, the operands 16
# bytes past a 64-byte line (--offset 16), with OpenBLAS
# as the environment configures it (--openblas-coretype auto: a test names no kernel set;
# OPENBLAS_CORETYPE may well be set) and a small bandwidth probe (--bandwidth-mib 64: the test
# checks that it runs, not what it reads). Nothing is measured, so it takes the short cuts a
# measurement must not: a 5 ms warm-up, 1 ms batches, and no wait for OpenBLAS's spinning
# workers before a round (--settle-max-ms 0; a round waited up to 0.13 s for them). That halved
# the test (ASan: 23 s before the QR family, 12 s with it). It checks that the run succeeded
# (which includes the agreement or residual check of every size), that the header
# gives the measured FMA peak per core and on 2 threads, the measured read and triad bandwidth
# on 1 and 2 threads, and says where OpenBLAS's core came from, that every table has a "% peak"
# column for each side (memory-bound: "% read"), that the QR family's rows show both residuals
# and the agreement, that the CSV has a row from both sides for every routine, thread count and
# size (nrhs filled in for the solves and ormqr only; at 2 threads also tela serially, timed in
# the same rounds; the peak and the percentage; then the GB/s columns, the bandwidth and its
# percentage, filled in for the memory-bound routines only; then m, filled in for the QR family
# only; last the eigen family's seconds, empty here: the eigen routines are not in this test,
# whose settings made them cost about 2 s), and that the plot is an SVG file with a panel per routine and the peak and bandwidth
# lines — never what the times are.
# Variables: BENCH (the program), WORK_DIR. A tela-bench that finds no OpenBLAS exits 77:
# the test is then reported as skipped.
foreach(var BENCH WORK_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_tela_bench.cmake: ${var} is not set")
    endif()
endforeach()

set(routines gemm trsm trmm syrk symm syr2k getrf getrs potrf potrs gesv posv
             geqrf geqrf4 geqrf16 tsqr gelqf orgqr ormqr qr gels gels4
             dot axpy nrm2 gemv symv ger trsv)
set(memory_routines dot axpy nrm2 gemv symv ger trsv)
set(solves getrs potrs gesv posv)
set(uplo_routines potrf potrs posv)
set(qr_routines geqrf geqrf4 geqrf16 tsqr gelqf orgqr ormqr qr gels gels4)
set(gels_routines gels gels4)
set(tsqr_rows 200)
# Routines with two variants besides the triangles: gemm NN and TN, gemv N and T.
set(trans_routines gemm gemv)
set(nrhs 7)
set(threads 1 2)
set(sizes 16 64)
set(rounds 2)
set(csv_file "${WORK_DIR}/tela_bench_smoke.csv")
set(svg_file "${WORK_DIR}/tela_bench_smoke.svg")
file(REMOVE "${csv_file}" "${svg_file}")
list(JOIN routines "," routine_list)
list(JOIN threads "," thread_list)
list(JOIN sizes "," size_list)
include(${CMAKE_CURRENT_LIST_DIR}/check_common.cmake)
tela_smoke_run(tela_bench_smoke tela-bench 280
    "${BENCH}" --sizes ${size_list} --threads ${thread_list} --rounds ${rounds} --routines
    ${routine_list} --nrhs ${nrhs} --uplo L,U --trans NN,TN --gels-nrhs 1,n/8 --tsqr-rows
    ${tsqr_rows} --warm-up-ms 5 --batch-ms 1 --settle-max-ms 0 --openblas-coretype auto
    --bandwidth-mib 64 --offset 16 --csv "${csv_file}" --plot "${svg_file}")

# The operands 16 bytes past a line (as glibc's and NumPy's large arrays): every routine's
# unaligned paths agree with OpenBLAS, and each array is freed from its own block (ASan).
if(NOT output MATCHES "\n  operands 16 bytes past a 64-byte line \\(--offset\\), for both")
    message(FATAL_ERROR "tela-bench: the header does not give the operands' offset:\n${output}")
endif()

# Every size was checked and agreed (a disagreement also makes the exit status non-zero).
list(LENGTH routines routine_count)
list(LENGTH memory_routines memory_count)
list(LENGTH uplo_routines uplo_count)
list(LENGTH trans_routines trans_count)
list(LENGTH gels_routines gels_count)
list(LENGTH qr_routines qr_count)
list(LENGTH threads thread_count)
list(LENGTH sizes size_count)
# Tables (groups): one per routine and variant and thread count (gels and gels4 twice: nrhs 1
# and n/8); the memory-bound ones (gemv twice) apart.
math(EXPR variants "${routine_count} + ${uplo_count} + ${trans_count} + ${gels_count}")
math(EXPR memory_variants "${memory_count} + 1")
math(EXPR compute_variants "${variants} - ${memory_variants}")
math(EXPR checked "${variants} * ${thread_count} * ${size_count}")
if(NOT output MATCHES "agreement: ${checked} of ${checked} checked sizes")
    message(FATAL_ERROR "tela-bench: expected agreement on ${checked} sizes")
endif()

set(number "[0-9]+(\\.[0-9]+)?")
# The same without a group: CMake's regular expressions hold at most 9 groups.
set(plain "[0-9]+\\.?[0-9]*")
if(NOT output MATCHES "\n  measured FMA peak: ${number} GFLOP/s per core, ${number} on 2 threads\n")
    message(FATAL_ERROR "tela-bench: no measured FMA peak per core and on 2 threads in the header")
endif()
if(NOT output MATCHES "\n  measured memory bandwidth: read ${number} GB/s on 1 thread, ${number} on 2 threads; triad ${number}, ${number}\n")
    message(FATAL_ERROR "tela-bench: no measured read and triad bandwidth on 1 and 2 threads in "
                        "the header")
endif()
if(NOT output MATCHES "\n    core: [A-Za-z0-9]+ \\(--openblas-coretype auto: [^)]+\\); threading: ")
    message(FATAL_ERROR "tela-bench: the header does not say where OpenBLAS's core came from")
endif()
# Every table: a title naming the peak (memory-bound: the read bandwidth), the header row with
# a % peak (% read) column per side.
math(EXPR tables "${variants} * ${thread_count}")
math(EXPR compute_tables "${compute_variants} * ${thread_count}")
math(EXPR memory_tables "${memory_variants} * ${thread_count}")
string(REGEX MATCHALL "% peak: of the measured FMA peak, ${number}\n" titles "${output}")
string(REGEX MATCHALL "\n     n \\| tela +\\| % peak \\| OpenBLAS +\\| % peak \\| tela/OpenBLAS \\|"
       header_rows "${output}")
list(LENGTH titles title_count)
list(LENGTH header_rows header_row_count)
if(NOT title_count EQUAL compute_tables OR NOT header_row_count EQUAL compute_tables)
    message(FATAL_ERROR "tela-bench: ${title_count} table titles with the peak and "
                        "${header_row_count} header rows with % peak columns, not "
                        "${compute_tables}")
endif()
string(REGEX MATCHALL "% read: of the measured read bandwidth, ${number} GB/s\n" titles
       "${output}")
string(REGEX MATCHALL "\n +n \\| tela +\\| % read \\| OpenBLAS +\\| % read \\| tela/OpenBLAS \\|"
       header_rows "${output}")
list(LENGTH titles title_count)
list(LENGTH header_rows header_row_count)
if(NOT title_count EQUAL memory_tables OR NOT header_row_count EQUAL memory_tables)
    message(FATAL_ERROR "tela-bench: ${title_count} table titles with the read bandwidth and "
                        "${header_row_count} header rows with % read columns, not "
                        "${memory_tables}")
endif()
# The QR family's rows end in both sides' residuals and their agreement.
math(EXPR qr_rows "(${qr_count} + ${gels_count}) * ${thread_count} * ${size_count}")
string(REGEX MATCHALL "\\| ${plain} \\(${plain}\\), agree ${plain}" agree_rows "${output}")
list(LENGTH agree_rows agree_row_count)
if(NOT agree_row_count EQUAL qr_rows)
    message(FATAL_ERROR "tela-bench: ${agree_row_count} QR rows with residuals and agreement, not "
                        "${qr_rows}")
endif()
# A row: n, tela's summary and % peak, OpenBLAS's and % peak, the ratio.
set(summary "${number} \\(${number}-${number}\\) *")
string(REGEX MATCHALL "\n +[0-9]+ \\| ${summary}\\| +${number} \\| ${summary}\\| +${number} \\| +${number} \\|"
       table_rows "${output}")
list(LENGTH table_rows table_row_count)
math(EXPR expected_rows "${tables} * ${size_count}")
if(NOT table_row_count EQUAL expected_rows)
    message(FATAL_ERROR "tela-bench: ${table_row_count} table rows with both sides' GFLOP/s and "
                        "% peak, not ${expected_rows}")
endif()

if(NOT EXISTS "${csv_file}")
    message(FATAL_ERROR "tela-bench wrote no CSV file ${csv_file}")
endif()
file(STRINGS "${csv_file}" rows)
list(GET rows 0 header)
if(NOT header STREQUAL
   "routine,trans,threads,n,side,gflops_median,gflops_min,gflops_max,rounds,nrhs,peak_gflops,percent_of_peak,gbs_median,gbs_min,gbs_max,bandwidth_gbs,percent_of_bandwidth,m,seconds_median,seconds_min,seconds_max")
    message(FATAL_ERROR "tela-bench: unexpected CSV header: ${header}")
endif()
foreach(routine ${routines})
    list(FIND uplo_routines ${routine} uplo_index)
    list(FIND memory_routines ${routine} memory_index)
    if(memory_index GREATER -1)
        set(bandwidth_columns "${plain},${plain},${plain},${plain},${plain}")
    else()
        set(bandwidth_columns ",,,,")
    endif()
    if(routine STREQUAL "gemm")
        set(variants NN TN)
    elseif(routine STREQUAL "gemv")
        set(variants N T)
    elseif(uplo_index GREATER -1)
        set(variants L U)
    else()
        set(variants "N")
    endif()
    list(FIND solves ${routine} solve_index)
    list(FIND qr_routines ${routine} qr_index)
    list(FIND gels_routines ${routine} gels_index)
    # gels's variants share the trans column; their nrhs columns tell them apart.
    set(nrhs_variants "-")
    if(gels_index GREATER -1)
        set(nrhs_variants 1 n/8)
    endif()
    foreach(trans ${variants})
        foreach(thread ${threads})
            foreach(n ${sizes})
            foreach(nrhs_variant ${nrhs_variants})
                if(solve_index GREATER -1)
                    set(routine_nrhs "${nrhs}")
                elseif(nrhs_variant STREQUAL "n/8")
                    math(EXPR routine_nrhs "${n} / 8")
                elseif(nrhs_variant STREQUAL "1" OR routine STREQUAL "ormqr")
                    set(routine_nrhs "${nrhs_variant}")
                    if(routine STREQUAL "ormqr")
                        set(routine_nrhs "${n}")
                    endif()
                else()
                    set(routine_nrhs "")
                endif()
                set(m "")
                if(routine STREQUAL "tsqr")
                    set(m "${tsqr_rows}")
                elseif(routine MATCHES "^(geqrf4|gels4)$")
                    math(EXPR m "4 * ${n}")
                elseif(routine STREQUAL "geqrf16")
                    math(EXPR m "16 * ${n}")
                elseif(qr_index GREATER -1)
                    set(m "${n}")
                endif()
                # Two threads at n <= 128 also time tela serially in the same rounds.
                set(sides tela openblas)
                if(thread GREATER 1 AND n LESS_EQUAL 128)
                    list(APPEND sides tela_serial)
                endif()
                foreach(side ${sides})
                    set(row "^${routine},${trans},${thread},${n},${side},${plain},${plain},${plain},${rounds},${routine_nrhs},${plain},${plain},${bandwidth_columns},${m},,,$")
                    set(found 0)
                    foreach(line ${rows})
                        if(line MATCHES "${row}")
                            set(found 1)
                        endif()
                    endforeach()
                    if(NOT found)
                        message(FATAL_ERROR "tela-bench: no CSV row for ${routine} ${trans} "
                                            "${thread}T n=${n} nrhs=${routine_nrhs} ${side}")
                    endif()
                endforeach()
            endforeach()
            endforeach()
        endforeach()
    endforeach()
endforeach()

if(NOT EXISTS "${svg_file}")
    message(FATAL_ERROR "tela-bench wrote no plot ${svg_file}")
endif()
file(READ "${svg_file}" svg_start LIMIT 64)
if(NOT svg_start MATCHES "^<svg ")
    message(FATAL_ERROR "tela-bench: ${svg_file} does not start with <svg")
endif()
file(READ "${svg_file}" svg)
foreach(routine ${routines})
    if(NOT svg MATCHES "font-weight=\"bold\">${routine}( NN| N| L| nrhs=1)?</text>")
        message(FATAL_ERROR "tela-bench: the plot has no panel for ${routine}")
    endif()
endforeach()
foreach(panel "gemm TN" "gemv T" "gels nrhs=n/8" "gels4 nrhs=n/8")
    if(NOT svg MATCHES "font-weight=\"bold\">${panel}</text>")
        message(FATAL_ERROR "tela-bench: the plot has no panel for ${panel}")
    endif()
endforeach()
foreach(routine ${uplo_routines})
    if(NOT svg MATCHES "font-weight=\"bold\">${routine} U</text>")
        message(FATAL_ERROR "tela-bench: the plot has no panel for ${routine} U")
    endif()
endforeach()
foreach(thread ${threads})
    if(thread EQUAL 1)
        set(label "measured FMA peak, 1 thread<")
    else()
        set(label "measured FMA peak, ${thread} threads<")
    endif()
    if(NOT svg MATCHES "${label}")
        message(FATAL_ERROR "tela-bench: the plot has no peak line for ${thread} thread(s)")
    endif()
    string(REPLACE "measured FMA peak" "measured read bandwidth" label "${label}")
    if(NOT svg MATCHES "${label}")
        message(FATAL_ERROR "tela-bench: the plot has no bandwidth line for ${thread} thread(s)")
    endif()
endforeach()
