/* test_bandpack.c — not written yet: fails until it is. */
#include <stdio.h>
int main(void)
{
    puts("test_bandpack: not written yet");
    return 1;
}
