# check_readme_example.cmake — run by ctest as `cmake -DREADME=... -DEXAMPLE=... -P` this file.
# Every line of the README's first ```c block must be a line of the example file (which the build
# compiles and ctest runs), so the README cannot drift from the API. Lines that are only an
# elision comment ("/* ... */", "/* in main: */") may stand anywhere.

cmake_policy(VERSION 3.20)

# Sets out to the lines of text, stripped of indentation. Semicolons would split CMake
# lists, so they are replaced by a marker first.
function(read_stripped_lines text out)
    string(REPLACE ";" "<semicolon>" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(stripped "")
    foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        list(APPEND stripped "${line}")
    endforeach()
    set(${out} "${stripped}" PARENT_SCOPE)
endfunction()

file(READ "${README}" readme)
string(FIND "${readme}" "```c\n" block_start)
if(block_start EQUAL -1)
    message(FATAL_ERROR "${README}: no ```c block")
endif()
math(EXPR block_start "${block_start} + 5")
string(SUBSTRING "${readme}" ${block_start} -1 block)
string(FIND "${block}" "```" block_end)
string(SUBSTRING "${block}" 0 ${block_end} block)
read_stripped_lines("${block}" block_lines)

file(READ "${EXAMPLE}" example)
read_stripped_lines("${example}" example_lines)

set(missing 0)
foreach(line IN LISTS block_lines)
    if(line STREQUAL "" OR line MATCHES "^/\\* (\\.\\.\\.|in [a-z]+:) \\*/$")
        continue()
    endif()
    list(FIND example_lines "${line}" found)
    if(found EQUAL -1)
        string(REPLACE "<semicolon>" ";" shown "${line}")
        message(SEND_ERROR "README line not in ${EXAMPLE}: ${shown}")
        math(EXPR missing "${missing} + 1")
    endif()
endforeach()
if(missing GREATER 0)
    message(FATAL_ERROR "${missing} README example line(s) differ from ${EXAMPLE}")
endif()
list(LENGTH block_lines checked)
message(STATUS "README example: ${checked} lines match ${EXAMPLE}")
