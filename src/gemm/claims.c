/* claims.c — work shared by claims: each member owns a range of items and
 * takes from its front; one done with its own takes from the back of
 * another's (chunks.c's chunks, the parallel GEMM's rows of tiles). */
#include "gemm/gemm.h"

#include <stdint.h>

bool gemm_claim(gemm_claim_word *word, ptrdiff_t size, bool from_back, ptrdiff_t most,
                ptrdiff_t *first, ptrdiff_t *count)
{
    uint64_t seen = atomic_load_explicit(word, memory_order_relaxed);
    /* A failed exchange means another member took some: the loop ends
     * within the range. */
    for (;;) {
        const ptrdiff_t front = (ptrdiff_t)(seen & UINT32_MAX), back = (ptrdiff_t)(seen >> 32);
        const ptrdiff_t left = size - front - back;
        if (left <= 0)
            return false;
        /* From the back at most half of what is left: the owner, behind,
         * keeps the rest to itself. */
        const ptrdiff_t cap = from_back ? (left + 1) / 2 : left;
        const ptrdiff_t n = most < cap ? most : cap;
        const uint64_t step = from_back ? (uint64_t)n << 32 : (uint64_t)n;
        if (atomic_compare_exchange_weak_explicit(word, &seen, seen + step, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *first = from_back ? size - back - n : front;
            *count = n;
            return true;
        }
    }
}

ptrdiff_t gemm_claims_left(gemm_claim_word *word, ptrdiff_t size)
{
    const uint64_t seen = atomic_load_explicit(word, memory_order_relaxed);
    return size - (ptrdiff_t)(seen & UINT32_MAX) - (ptrdiff_t)(seen >> 32);
}
