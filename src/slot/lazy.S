/* lazy.S — the path a slot trampoline takes on its name's first call: save every register
 * that can carry an argument, ask slot_resolve (slot.c) for the target, restore, jump there.
 * The lazy stub of name i enters with i in %r11d. x86-64 System V only. */
    .text
    .globl slot_lazy_common
    .hidden slot_lazy_common
    .type slot_lazy_common, @function
    .p2align 4
slot_lazy_common:
    /* On entry %rsp is 8 mod 16 (the caller's call pushed the return address); seven pushes
     * make it 0 mod 16, as the call below needs. %rax carries the vector-register count of a
     * variadic C call. */
    pushq %rdi
    pushq %rsi
    pushq %rdx
    pushq %rcx
    pushq %r8
    pushq %r9
    pushq %rax
    subq $128, %rsp
    movdqu %xmm0, 0(%rsp)
    movdqu %xmm1, 16(%rsp)
    movdqu %xmm2, 32(%rsp)
    movdqu %xmm3, 48(%rsp)
    movdqu %xmm4, 64(%rsp)
    movdqu %xmm5, 80(%rsp)
    movdqu %xmm6, 96(%rsp)
    movdqu %xmm7, 112(%rsp)
    movl %r11d, %edi
    call slot_resolve
    movq %rax, %r11
    movdqu 0(%rsp), %xmm0
    movdqu 16(%rsp), %xmm1
    movdqu 32(%rsp), %xmm2
    movdqu 48(%rsp), %xmm3
    movdqu 64(%rsp), %xmm4
    movdqu 80(%rsp), %xmm5
    movdqu 96(%rsp), %xmm6
    movdqu 112(%rsp), %xmm7
    addq $128, %rsp
    popq %rax
    popq %r9
    popq %r8
    popq %rcx
    popq %rdx
    popq %rsi
    popq %rdi
    jmp *%r11
    .size slot_lazy_common, .-slot_lazy_common

    .section .note.GNU-stack, "", @progbits
