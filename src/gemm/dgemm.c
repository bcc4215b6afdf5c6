/* dgemm.c — tela_dgemm: BLAS argument rules, the quick returns, and the
 * parallel region (members split C's tiles, never k).
 *
 * One region per call: for every kc x nc block, section 1 packs B with the
 * members sharing its panels, section 2 has each member pack its own rows
 * of A and update its tiles. The gate picks the width from the flops. */
#include "gemm/gemm.h"
#include "par/engine.h"

#include <sched.h>
#include <stdint.h>
#include <stdalign.h>

static bool trans_flag(char t, bool *trans)
{
    switch (t) {
    case 'N':
    case 'n':
        *trans = false;
        return true;
    case 'T':
    case 't':
    case 'C':
    case 'c':
        *trans = true;
        return true;
    default:
        return false;
    }
}

/* A B block of at most this many doubles (256 KiB) is packed whole by
 * every member when members split C's rows only: each reads its own copy
 * with no barrier, where sharing the packing made every member wait for
 * the others and read half of B from their caches (docs/gemm.md, "A small
 * B packed by each member"). */
#define GEMM_PRIVATE_B_MAX 32768

/* Larger B blocks are packed whole by every member too (rows still
 * claimed, barriers kept) while each member has at least this many rows of
 * C to spread its packing over, and all copies together stay within
 * GEMM_COPIES_BYTES. Packing a share of a shared block wrote lines the
 * other core had read, and its kernels then read half of B from that core:
 * on two Zen 5 cores half of a 256 x 264 block packed in 36-41 us where
 * one core packs all of it in 13 (docs/gemm.md, "Larger B blocks packed
 * by every member too"). 64 rows: at 64-128 rows a member (130-250 rows on
 * two) copies were level or up to 24% faster in every shape measured.
 * Wider teams on fewer rows share the packing, as BLIS does. */
#define GEMM_COPIES_MIN_ROWS 64
#define GEMM_COPIES_BYTES    ((size_t)32 << 20)

/* The fewest claims a member's rows of one B block are cut into (compute_claimed). */
#define GEMM_CLAIMS_A_SHARE 4

/* A member's share of one B block (rows of tiles by panels of B), its
 * rows claimed by all (claims.c): it takes a few tiles' rows at a time from their
 * front, as a fixed share would; one done with its own takes rows from
 * the back of the share with the most left, in that share's panels. A
 * member that starts late or runs slow (a busy second vCPU) then loses its
 * last rows instead of holding up the region. The owner writes its share
 * and clears taken before the barrier after B's packing: no member claims
 * before it, and none claims the previous block's rows after the barrier
 * that ends it. */
typedef struct gemm_rows {
    gemm_claim_word taken;
    ptrdiff_t first, size; /* rows of tiles */
    int jp_from, jp_to;    /* panels */
    /* The block (1, 2, ... in the region's order) for which the fields above and the member's
     * own B panels are ready, published with release: where no member's tiles read panels
     * another packed, this replaces the barrier after packing (0 before the region). */
    _Atomic long ready;
} gemm_rows;

typedef struct gemm_rows_line {
    alignas(PAR_CACHE_LINE) gemm_rows rows;
} gemm_rows_line;

typedef struct gemm_job {
    gemm_problem pr;
    double *b_buf;        /* shared packed B block */
    double *a_bufs;       /* per member: an mc x kc A block, then a B block when b_copies */
    size_t a_len;         /* doubles a member's buffer holds */
    size_t b_at;          /* where a member's B block starts in it */
    bool b_copies;        /* every member packs all of B when C's rows alone are split */
    bool b_claimed;       /* ... and claims rows between barriers (else fixed rows, none) */
    gemm_rows_line *rows; /* per member, after the A blocks */
} gemm_job;

/* Splits width members into wm rows (over m's tiles) x wn columns (over
 * B's panels) so the largest share of tiles is smallest; on a tie, into
 * the most rows: members of one row all pack its whole A block, so a
 * column split packs A once per member (docs/gemm.md, "Section 2").
 * Columns only, though, whenever that share is at most 1/32 larger:
 * each member then packs and reads only its own B panels and writes
 * whole columns of C. Against rows (each member packing all of B, its
 * rows of every column of C in between the other's) it was 2-10% faster
 * on two Zen 5 cores (square 256-2048, 1024 x 512 x 512, 256 x 256 x
 * 1024), level at 2.4% more tiles, and 2-10% slower at 5-6% more. */
#define GEMM_COLUMNS_SLACK (1.0 / 32.0)

/* Up to 1/24 when the other grid leaves each member less than a page of each column of C:
 * short runs of rows cost a rows grid more than its tiles say. Two members, interleaved pairs
 * (20-40), columns against rows: 320^3 (3.7% more tiles) 1.032x, 344^3 (3.4%) 1.081x, 640 x
 * 324 x 320 (3.7%) 1.048x; at 4.8% more, 480 x 252 x 256 0.973x and 576 x 252 x 300 1.013x. */
#define GEMM_COLUMNS_SLACK_SHORT_ROWS (1.0 / 24.0)
#define GEMM_SHORT_ROWS_BYTES         4096

/* Not columns only, though, where they leave each member at most this many panels of a B
 * GEMM_NARROW_RATIO times shorter than C: every member of a columns grid packs all of A, which
 * then costs more than its few columns' tiles. Two members, m = k = 2000, interleaved pairs,
 * rows against columns: n = 16 1.58x, 64 1.32x (128 and 512 were rows and columns by tiles:
 * forced to rows, 0.98x and 0.99x). */
#define GEMM_NARROW_SHARE_PANELS 4
#define GEMM_NARROW_RATIO        4

void gemm_split_grid(int width, ptrdiff_t m_tiles, int n_panels, int mr, int nr, int *wm, int *wn)
{
    const bool narrow = (n_panels + width - 1) / width <= GEMM_NARROW_SHARE_PANELS &&
                        m_tiles * mr >= GEMM_NARROW_RATIO * (ptrdiff_t)n_panels * nr;
    double best = -1, columns_only = -1;
    *wm = width;
    *wn = 1;
    for (int d = 1; d <= width; d++) {
        if (width % d)
            continue;
        int e = width / d;
        if (d > m_tiles || e > n_panels || (narrow && d == 1 && width <= m_tiles))
            continue;
        /* Ceilings on purpose: the busiest member's whole tiles. */
        ptrdiff_t rows = (m_tiles + d - 1) / d, cols = (n_panels + e - 1) / e;
        double share = (double)rows * (double)cols;
        if (d == 1)
            columns_only = share;
        if (best < 0 || share <= best) {
            best = share;
            *wm = d;
            *wn = e;
        }
    }
    const ptrdiff_t rows_per_member = (m_tiles + *wm - 1) / *wm * mr;
    const bool short_rows = rows_per_member * (ptrdiff_t)sizeof(double) < GEMM_SHORT_ROWS_BYTES;
    const double slack = short_rows ? GEMM_COLUMNS_SLACK_SHORT_ROWS : GEMM_COLUMNS_SLACK;
    if (columns_only >= 0 && columns_only <= best * (1.0 + slack)) {
        *wm = 1;
        *wn = width;
    }
}

/* The member other than r whose rows of block `block` have the most left, -1 when none has; a
 * member that has not published that block yet has none. */
static int fullest_other(const gemm_job *job, int r, int w, long block)
{
    int best = -1;
    ptrdiff_t most = 0;
    for (int o = 0; o < w; o++) {
        gemm_rows *rows = &job->rows[o].rows;
        if (o == r || atomic_load_explicit(&rows->ready, memory_order_acquire) != block)
            continue;
        const ptrdiff_t left = gemm_claims_left(&rows->taken, rows->size);
        if (left > most) {
            most = left;
            best = o;
        }
    }
    return best;
}

/* Member r's part of one B block's product: its own rows a claim at a time, then what it can
 * take from those members that have published the block. */
static void compute_claimed_once(const gemm_job *job, int r, int w, long block, ptrdiff_t jc,
                                 int nb, ptrdiff_t pc, int kb, const double *b_buf, double *a_buf)
{
    const gemm_problem *pr = &job->pr;
    const gemm_kernel *kr = pr->kernel;
    ptrdiff_t at, count;
    for (int owner = r; owner >= 0; owner = fullest_other(job, r, w, block)) {
        gemm_rows *rows = &job->rows[owner].rows;
        /* Claims of even height over the share, as the serial loops cut rows,
         * and at least GEMM_CLAIMS_A_SHARE of them: a member done with its
         * own finds nothing to take once the other is on its last claim, and
         * waits for it at the barrier (two of 128 rows, at n = 512 on two
         * members: 40 us of ~700 a block). */
        const ptrdiff_t even = gemm_block_rows(kr, rows->size * kr->mr) / kr->mr;
        const ptrdiff_t quarter = (rows->size + GEMM_CLAIMS_A_SHARE - 1) / GEMM_CLAIMS_A_SHARE;
        const ptrdiff_t unit = quarter < even ? quarter : even;
        /* Each pass takes rows or finds the range empty: bounded. */
        while (gemm_claim(&rows->taken, rows->size, owner != r, unit, &at, &count)) {
            const ptrdiff_t from = (rows->first + at) * kr->mr;
            const ptrdiff_t to = (rows->first + at + count) * kr->mr;
            /* A member claims its own rows from the front: the source of its likely next claim
             * is asked for while this one is computed (claims are at most mc rows, one A block
             * with none of its own to ask for). Two threads, interleaved pairs: 2000 x 128 x
             * 2000 1.07-1.10x, 2048^3 1.03x, 512^3 1.01x. */
            const ptrdiff_t end = (rows->first + rows->size) * kr->mr;
            const ptrdiff_t ahead = to + count * kr->mr < end ? to + count * kr->mr : end;
            const ptrdiff_t last = ahead < pr->m ? ahead : pr->m;
            gemm_prefetch next, *after = NULL;
            if (owner == r && !pr->pair && to < last) {
                gemm_prefetch_rows(pr, to, (int)(last - to), pc, kb, &next);
                after = &next;
            }
            gemm_compute_block_then(pr, jc, nb, pc, kb, b_buf, from, to < pr->m ? to : pr->m,
                                    rows->jp_from, rows->jp_to, a_buf, after);
        }
    }
}

/* True once every member has published block (gemm_rows.ready). */
static bool all_published(const gemm_job *job, int w, long block)
{
    for (int o = 0; o < w; o++)
        if (atomic_load_explicit(&job->rows[o].rows.ready, memory_order_acquire) != block)
            return false;
    return true;
}

/* Times a member with nothing left to take looks again for a member still packing, yielding
 * its CPU in between (on an oversubscribed team that member may need it), before it leaves
 * the block's rows to their owners. Packing takes a few tens of us; this only bounds the
 * look. */
#define GEMM_READY_POLLS 64

/* compute_claimed_once until a pass that began with every member's block published (so it
 * left no row untaken), or GEMM_READY_POLLS passes. */
static void compute_claimed(const gemm_job *job, int r, int w, long block, ptrdiff_t jc, int nb,
                            ptrdiff_t pc, int kb, const double *b_buf, double *a_buf)
{
    for (int polls = 0;; polls++) {
        const bool all = all_published(job, w, block);
        compute_claimed_once(job, r, w, block, jc, nb, pc, kb, b_buf, a_buf);
        if (all || polls == GEMM_READY_POLLS)
            return;
        sched_yield();
    }
}

static void gemm_body(tela_member *self, void *arg)
{
    const gemm_job *job = arg;
    const gemm_problem *pr = &job->pr;
    const gemm_kernel *kr = pr->kernel;
    const int rank = tela_rank(self), width = tela_width(self);
    double *a_buf = job->a_bufs + (size_t)rank * job->a_len;
    double *own_b = a_buf + job->b_at;
    gemm_rows *my_rows = &job->rows[rank].rows;
    const ptrdiff_t m_tiles = (pr->m + kr->mr - 1) / kr->mr;
    const int block = gemm_block_columns(kr, pr->n), depth = gemm_block_depth(kr, pr->k);
    long seq = 0; /* blocks so far, this one included */
    for (ptrdiff_t jc = 0; jc < pr->n; jc += block) {
        int nb = (int)(pr->n - jc < block ? pr->n - jc : block);
        int panels = gemm_panels_of(nb, kr->nr);
        /* A triangle of C is split by columns only, balanced by elements:
         * its rows are already cut short by the diagonal. */
        int wm = 1, wn = width;
        if (pr->part == GEMM_ALL)
            gemm_split_grid(width, m_tiles, panels, kr->mr, kr->nr, &wm, &wn);
        int row = rank / wn, col = rank % wn;
        int jp_from, jp_to;
        gemm_share_columns(pr, jc, nb, kr->nr, col, wn, &jp_from, &jp_to);
        /* The share's rows; a triangle's only those its columns reach, so
         * its claims are of rows with work. */
        ptrdiff_t m_from = m_tiles * row / wm * kr->mr;
        ptrdiff_t m_to = m_tiles * (row + 1) / wm * kr->mr;
        if (m_to > pr->m)
            m_to = pr->m;
        gemm_rows_reached(pr, jc, nb, jp_from, jp_to, &m_from, &m_to);
        const ptrdiff_t t_from = m_from / kr->mr, t_to = (m_to + kr->mr - 1) / kr->mr;
        const bool copy = job->b_copies && wn == 1;
        /* Fixed rows, no barrier: a small B copied by every member. */
        const bool own = copy && !job->b_claimed;
        double *b_buf = copy ? own_b : job->b_buf;
        /* Each member's tiles read only B panels it packed itself (its own copy, or its own
         * columns when the grid has one row): no barrier after packing, a member starts on its
         * rows as soon as its panels are packed and takes others' rows once they publish them.
         * On two members of a lower triangle of 1024, one packs 25 panels and the other 61:
         * the first waited 34 us of a ~1.4 ms block at that barrier. */
        const bool self_fed = copy || wm == 1;
        for (ptrdiff_t pc = 0; pc < pr->k; pc += depth) {
            int kb = (int)(pr->k - pc < depth ? pr->k - pc : depth);
            const bool work = m_from < m_to && jp_from < jp_to;
            seq++;
            if (own) {
                if (work)
                    gemm_pack_b_of(pr, pc, kb, jc, nb, 0, panels, b_buf);
            } else {
                /* A copy is packed whole even with no rows of one's own:
                 * its member may take others' rows. A shared block is
                 * packed by the members of each grid column, each a share
                 * of that column's panels: a member's own tiles then read
                 * panels it wrote itself (a triangle's members, one to a
                 * column, all of theirs), not the other cores' lines. */
                const ptrdiff_t mine = jp_to - jp_from;
                int first = copy ? 0 : jp_from + (int)(mine * row / wm);
                int last = copy ? panels : jp_from + (int)(mine * (row + 1) / wm);
                gemm_pack_b_of(pr, pc, kb, jc, nb, first, last, b_buf);
                my_rows->first = t_from;
                my_rows->size = work ? t_to - t_from : 0;
                my_rows->jp_from = jp_from;
                my_rows->jp_to = jp_to;
                atomic_store_explicit(&my_rows->taken, 0, memory_order_relaxed);
                atomic_store_explicit(&my_rows->ready, seq, memory_order_release);
                if (!self_fed)
                    tela_barrier(self);
            }
            if (!own)
                compute_claimed(job, rank, width, seq, jc, nb, pc, kb, b_buf, a_buf);
            else if (work)
                gemm_compute_block(pr, jc, nb, pc, kb, b_buf, m_from, m_to, jp_from, jp_to, a_buf);
            /* The next block's packing overwrites shared B, and its claims reset the
             * words a late member may still be taking this block's rows from. */
            if (!own && (pc + depth < pr->k || jc + block < pr->n))
                tela_barrier(self);
        }
    }
}

static void gemm_parallel(tela_par par, const gemm_problem *pr, const char *name)
{
    const gemm_kernel *kr = pr->kernel;
    int bound = par_width_bound(par);
    int kc_max = (int)(pr->k < kr->kc ? pr->k : kr->kc);
    int nc_max = (int)(pr->n < kr->nc ? pr->n : kr->nc);
    const size_t b_len = gemm_b_buffer_len(kr, nc_max, kc_max);
    const bool small_b = b_len <= GEMM_PRIVATE_B_MAX;
    /* Not with a band: op(B) is then C's own rows, which one member may write while another
     * still packs its copy of them (gemm.h). */
    const bool copies = pr->part == GEMM_ALL && !pr->band &&
                        (small_b || (pr->m >= (ptrdiff_t)bound * GEMM_COPIES_MIN_ROWS &&
                                     (size_t)bound * b_len * sizeof(double) <= GEMM_COPIES_BYTES));
    /* A member's B copy starts 64-byte aligned after its A block. */
    const size_t a_block = ((size_t)kr->mc * (size_t)kc_max + 7) / 8 * 8;
    gemm_job job = {*pr,     NULL,   NULL,     a_block + (copies ? b_len : 0),
                    a_block, copies, !small_b, NULL};
    /* a_len is whole lines: the claims' lines after the A blocks stay aligned. */
    const size_t a_all = (size_t)bound * job.a_len;
    size_t bytes = (b_len + a_all) * sizeof(double) + (size_t)bound * sizeof(gemm_rows_line);
    /* A held team owns its workspace (no allocation per call); other routes
     * allocate here, before the region. */
    bool owned;
    double *buf = par_scratch_region(par, PAR_SCRATCH_PACK, bytes, &owned);
    if (!buf) {
        gemm_serial(pr);
        return;
    }
    job.b_buf = buf;
    job.a_bufs = buf + b_len;
    job.rows = (gemm_rows_line *)(void *)(job.a_bufs + a_all);
    for (int r = 0; r < bound; r++)
        atomic_init(&job.rows[r].rows.ready, 0);
    const int block = gemm_block_columns(kr, pr->n);
    const int depth = gemm_block_depth(kr, pr->k);
    ptrdiff_t k_blocks = (pr->k + depth - 1) / depth, n_blocks = (pr->n + block - 1) / block;
    int sections = (int)(2 * k_blocks * n_blocks);
    const int used =
        tela_parallel_gated(tela_par_limit(par, bound), name,
                            gemm_flops(pr) * par_rate_ns_per_flop(), sections, gemm_body, &job);
    par_scratch_release(buf, owned);
    if (used < 0) { /* a bad policy (reported): compute anyway, serially */
        gemm_serial(pr);
    }
}

/* A product of one A block (m <= mc) in parallel: each member runs the serial loops on its own
 * columns of C (whole panels), with the narrow B blocks and the next block asked for while one is
 * computed (driver.c's packed_loops), in its own buffer: no shared B, no barrier. Members of the
 * general path packed their B panels from memory with nothing asked for ahead, and each B block
 * ended at a barrier: 100 x 10000 x 100 ran at 0.96x OpenBLAS on two threads. The same tiles
 * and k blocks as every other path: the same bits. */
typedef struct narrow_job {
    const gemm_problem *pr;
    double *bufs; /* per member, len doubles */
    size_t len;
} narrow_job;

static void narrow_body(tela_member *self, void *arg)
{
    const narrow_job *job = arg;
    const gemm_problem *pr = job->pr;
    const int nr = pr->kernel->nr, rank = tela_rank(self);
    int from, to;
    gemm_share_columns(pr, 0, pr->n, nr, rank, tela_width(self), &from, &to);
    const ptrdiff_t j_from = (ptrdiff_t)from * nr;
    const ptrdiff_t j_to = (ptrdiff_t)to * nr < pr->n ? (ptrdiff_t)to * nr : pr->n;
    if (j_from >= j_to)
        return;
    gemm_problem mine = *pr;
    mine.n = j_to - j_from;
    mine.b.p += pr->b.trans ? j_from : j_from * pr->b.ld;
    mine.c += j_from * pr->ldc;
    gemm_serial_on_path(&mine, false, job->bufs + (size_t)rank * job->len, job->len);
}

/* True where narrow_body runs the product: the serial loops' narrow B blocks (gemm_narrow_b),
 * all of C, and every member at least GEMM_NARROW_MEMBER_PANELS panels of it. */
#define GEMM_NARROW_MEMBER_PANELS 8
static bool narrow_in_parallel(const gemm_problem *pr, int bound)
{
    const gemm_kernel *kr = pr->kernel;
    /* Not for packed_only copies: their packers read B (dsymm's symmetric operand) by its
     * indices in the whole matrix, which a member's columns moved to its origin would change. */
    return gemm_narrow_b(pr) && !kr->packed_only && pr->part == GEMM_ALL &&
           gemm_panels_of((int)(pr->n < INT32_MAX ? pr->n : INT32_MAX), kr->nr) >=
               (ptrdiff_t)bound * GEMM_NARROW_MEMBER_PANELS;
}

static void narrow_parallel(tela_par par, const gemm_problem *pr, const char *name, int bound)
{
    /* Each member's buffer holds what all of n needs (the gate may run fewer members than
     * bound; fewer columns need no more), 64-byte aligned: nothing is allocated inside the
     * region. */
    narrow_job job = {pr, NULL, (gemm_problem_buffer_len(pr) + 7) / 8 * 8};
    bool owned;
    job.bufs =
        par_scratch_region(par, PAR_SCRATCH_PACK, (size_t)bound * job.len * sizeof(double), &owned);
    if (!job.bufs) {
        gemm_serial(pr);
        return;
    }
    const int used =
        tela_parallel_gated(tela_par_limit(par, bound), name,
                            gemm_flops(pr) * par_rate_ns_per_flop(), 1, narrow_body, &job);
    par_scratch_release(job.bufs, owned);
    if (used < 0) /* a bad policy (reported): compute anyway, serially */
        gemm_serial(pr);
}

/* The unpacked path in parallel: members take whole 8-column blocks of C.
 * Each element's arithmetic does not depend on its block, so the result is
 * the serial one bitwise. No packing: one section, no shared buffer. */
bool gemm_unpacked_share(const gemm_problem *pr, const tela_member *self, ptrdiff_t *j_from,
                         ptrdiff_t *j_to)
{
    int from, to;
    gemm_share_columns(pr, 0, pr->n, 8, tela_rank(self), tela_width(self), &from, &to);
    *j_from = (ptrdiff_t)from * 8;
    *j_to = (ptrdiff_t)to * 8 < pr->n ? (ptrdiff_t)to * 8 : pr->n;
    return *j_from < *j_to;
}

static void unpacked_body(tela_member *self, void *arg)
{
    const gemm_problem *pr = arg;
    ptrdiff_t j_from, j_to;
    /* op(A) = A^T copied by each member into its own buffer (read from the core that wrote it,
     * one copy shared by two cores cost 200^3 40%). */
    if (gemm_unpacked_share(pr, self, &j_from, &j_to))
        gemm_unpacked_columns_in(pr, j_from, j_to, NULL, 0);
}

void gemm_run(tela_par par, const gemm_problem *pr, const char *name)
{
    if (!gemm_run_members(par, pr, name, unpacked_body, (void *)pr))
        gemm_serial(pr); /* a bad policy (reported): serially */
}

bool gemm_run_members(tela_par par, const gemm_problem *pr, const char *name, tela_body unpacked,
                      void *arg)
{
    /* Straight to the small path, which gemm_serial reaches through four
     * calls and a copy of the problem, a cost at these sizes (docs/gemm.md,
     * "Small and unpacked paths"). */
    if (gemm_run_small(pr))
        return true;
    if (par.kind == TELA_PAR_SEQ || gemm_is_small(pr->m, pr->n, pr->k))
        gemm_serial(pr);
    else if (gemm_prefers_unpacked(pr))
        return tela_parallel_gated(tela_par_limit(par, (int)((pr->n + 7) / 8)), name,
                                   gemm_flops(pr) * par_rate_ns_per_flop(), 1, unpacked, arg) >= 0;
    else if (narrow_in_parallel(pr, par_width_bound(par)))
        narrow_parallel(par, pr, name, par_width_bound(par));
    else
        gemm_parallel(par, pr, name);
    return true;
}

int tela_dgemm(tela_par par, char transa, char transb, tela_int m, tela_int n, tela_int k,
               double alpha, const double *a, tela_int lda, const double *b, tela_int ldb,
               double beta, double *c, tela_int ldc)
{
    bool ta, tb;
    if (!trans_flag(transa, &ta))
        return -1;
    if (!trans_flag(transb, &tb))
        return -2;
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    if (k < 0)
        return -5;
    tela_int rows_a = ta ? k : m, rows_b = tb ? n : k;
    if (lda < (rows_a > 1 ? rows_a : 1))
        return -8;
    if (ldb < (rows_b > 1 ? rows_b : 1))
        return -10;
    if (ldc < (m > 1 ? m : 1))
        return -13;
    if (m == 0 || n == 0)
        return 0;
    bool uses_ab = k > 0 && alpha != 0.0;
    if (uses_ab && !a)
        return -7;
    if (uses_ab && !b)
        return -9;
    if (!c)
        return -12;
    if (!uses_ab) {
        if (beta != 1.0)
            gemm_scale_c(c, ldc, m, n, beta);
        return 0;
    }
    const gemm_problem pr = {
        gemm_kernel_get(), {a, lda, ta}, {b, ldb, tb}, c,   ldc, m, n, k, alpha, beta,
        GEMM_ALL,          false,        NULL,         NULL};
    if (!gemm_run_small(&pr))
        gemm_run(par, &pr, "dgemm");
    return 0;
}
