# system_slot.cmake — the system BLAS/LAPACK slot wrappers: libblas.so.3 and liblapack.so.3 that
# Debian's update-alternatives can select. Each exports every function name of the reference
# library it stands in for, as a trampoline bound on first call to libtela's definition when
# libtela has one and to the reference's otherwise (src/slot). Built when the reference
# libraries are found (Debian's libblas3 and liblapack3) on x86-64; TELA_SYSTEM_SLOT=ON makes
# their absence an error, OFF skips them.

set(TELA_SYSTEM_SLOT AUTO CACHE STRING "Build the libblas.so.3/liblapack.so.3 wrappers (AUTO, ON, OFF)")
set_property(CACHE TELA_SYSTEM_SLOT PROPERTY STRINGS AUTO ON OFF)
set(tela_slot_arch_dir "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
set(TELA_REFERENCE_BLAS "${tela_slot_arch_dir}/blas/libblas.so.3" CACHE FILEPATH
    "The reference BLAS the libblas.so.3 wrapper sends the routines libtela lacks to")
set(TELA_REFERENCE_LAPACK "${tela_slot_arch_dir}/lapack/liblapack.so.3" CACHE FILEPATH
    "The reference LAPACK the liblapack.so.3 wrapper sends the routines libtela lacks to")

set(tela_slot_missing "")
if(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$" OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    set(tela_slot_missing "an x86-64 Linux target (the trampolines are x86-64 assembly)")
elseif(NOT CMAKE_NM)
    set(tela_slot_missing "nm")
endif()
foreach(reference TELA_REFERENCE_BLAS TELA_REFERENCE_LAPACK)
    if(NOT tela_slot_missing AND NOT EXISTS "${${reference}}")
        set(tela_slot_missing "${${reference}} (${reference}; Debian: libblas3, liblapack3)")
    endif()
endforeach()
if(TELA_SYSTEM_SLOT STREQUAL "OFF")
    return()
elseif(tela_slot_missing)
    if(TELA_SYSTEM_SLOT STREQUAL "ON")
        message(FATAL_ERROR "TELA_SYSTEM_SLOT=ON needs ${tela_slot_missing}")
    endif()
    message(STATUS "system slot wrappers: not built (no ${tela_slot_missing})")
    return()
endif()

enable_language(ASM)

# Writes content to file only when it differs, so a reconfigure does not rebuild the wrappers.
function(tela_slot_write file content)
    if(EXISTS "${file}")
        file(READ "${file}" old)
        if(old STREQUAL content)
            return()
        endif()
    endif()
    file(WRITE "${file}" "${content}")
endfunction()

# tela_system_slot(KIND UPPER REFERENCE): target tela_<KIND>_slot, file lib<KIND>.so.3 in
# <build>/slot, from the reference's exported function names.
function(tela_system_slot kind upper reference)
    set(dir "${PROJECT_BINARY_DIR}/slot/${kind}")
    execute_process(COMMAND "${CMAKE_NM}" -D --defined-only "${reference}"
                    OUTPUT_VARIABLE symbols RESULT_VARIABLE nm_status)
    if(NOT nm_status EQUAL 0)
        message(FATAL_ERROR "${CMAKE_NM} -D ${reference} failed")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${reference}")
    string(REGEX MATCHALL "[0-9a-f]+ [TW] [A-Za-z_][A-Za-z0-9_]*" entries "${symbols}")
    set(names_inc "")
    set(code "/* Generated from ${reference} by cmake/system_slot.cmake. */\n    .text\n")
    set(table "    .data\n    .globl slot_table\n    .hidden slot_table\n    .p2align 3\nslot_table:\n")
    set(index 0)
    foreach(entry IN LISTS entries)
        string(REGEX REPLACE "^.* " "" name "${entry}")
        if(name MATCHES "^_(init|fini)$")
            continue()
        endif()
        string(APPEND names_inc "\"${name}\",\n")
        math(EXPR offset "8 * ${index}")
        string(APPEND code
            "    .globl ${name}\n    .type ${name}, @function\n    .p2align 4\n${name}:\n"
            "    jmp *slot_table+${offset}(%rip)\n    .size ${name}, .-${name}\n"
            ".Llazy_${index}:\n    movl $${index}, %r11d\n    jmp slot_lazy_common\n")
        string(APPEND table "    .quad .Llazy_${index}\n")
        math(EXPR index "${index} + 1")
    endforeach()
    if(index EQUAL 0)
        message(FATAL_ERROR "no function names in ${reference}")
    endif()
    tela_slot_write("${dir}/slot_names.inc" "${names_inc}")
    tela_slot_write("${dir}/trampolines.S"
                    "${code}${table}    .section .note.GNU-stack, \"\", @progbits\n")
    message(STATUS "system slot wrapper lib${kind}.so.3: ${index} names from ${reference}")

    set(target tela_${kind}_slot)
    add_library(${target} SHARED "${PROJECT_SOURCE_DIR}/src/slot/slot.c"
                "${PROJECT_SOURCE_DIR}/src/slot/lazy.S" "${dir}/trampolines.S")
    target_include_directories(${target} PRIVATE "${dir}")
    target_compile_definitions(${target} PRIVATE _GNU_SOURCE SLOT_KIND=${kind}
        SLOT_KIND_UPPER="${upper}" SLOT_REFERENCE="${reference}")
    # libtela is opened at run time (slot.c), not linked: only its header is needed here, and
    # it must be built before the tests load the wrapper.
    target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/include")
    target_link_libraries(${target} PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
    add_dependencies(${target} tela)
    set_target_properties(${target} PROPERTIES
        OUTPUT_NAME ${kind}
        SOVERSION 3
        C_VISIBILITY_PRESET hidden
        LIBRARY_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/slot")
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
    install(TARGETS ${target} LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/tela" NAMELINK_SKIP)
endfunction()

tela_system_slot(blas BLAS "${TELA_REFERENCE_BLAS}")
tela_system_slot(lapack LAPACK "${TELA_REFERENCE_LAPACK}")
set(TELA_SYSTEM_SLOT_BUILT ON)
