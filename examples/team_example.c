/* team_example.c — the README's example of tela's thread team: a pool, a held team, and a
 * region in two sections split by a barrier (each member sums its slice, then member 0 adds
 * the partial sums). The build compiles it (tela-example) and ctest runs it, so it stays true. */
#include "tela.h"

#include <stdio.h>
#include <stdlib.h>

struct sum_job {
    const double *x; /* values to add */
    size_t n;        /* how many */
    double *partial; /* one slot per member, from the team's workspace */
    double total;    /* written by member 0 */
};

static void sum_body(tela_member *self, void *arg)
{
    struct sum_job *job = arg;
    int rank = tela_rank(self), width = tela_width(self);

    /* Section 1: every member sums its own contiguous slice. */
    size_t begin = job->n * (size_t)rank / (size_t)width;
    size_t end = job->n * (size_t)(rank + 1) / (size_t)width;
    double sum = 0.0;
    for (size_t i = begin; i < end; i++)
        sum += job->x[i];
    job->partial[rank] = sum;

    tela_barrier(self); /* every partial sum is written past this point */

    /* Section 2: member 0 combines them. */
    if (rank == 0) {
        job->total = 0.0;
        for (int r = 0; r < width; r++)
            job->total += job->partial[r];
    }
}

int main(void)
{
    enum { N = 100000 };
    double *x = malloc(N * sizeof *x);
    if (!x)
        return 1;
    for (size_t i = 0; i < N; i++)
        x[i] = (double)(i + 1);

    /* A pool of 4 members (the caller plus 3 workers) and a team held for several regions. */
    tela_pool_opts opts = {.width = 4};
    tela_pool *pool = tela_pool_create(&opts);
    tela_team *team = pool ? tela_team_acquire(pool, 4) : NULL;
    if (!team) {
        tela_pool_destroy(pool);
        free(x);
        return 1;
    }

    /* Regions do not allocate: scratch memory comes from the team, sized beforehand. */
    int team_width = tela_team_width(team);
    struct sum_job job = {x, N, tela_team_workspace(team, (size_t)team_width * sizeof(double)),
                          0.0};
    int used = job.partial ? tela_parallel(tela_par_team(team), team_width, sum_body, &job) : -1;

    tela_team_release(team);
    tela_pool_destroy(pool);
    free(x);

    double expected = (double)N * (N + 1) / 2.0; /* exact in double at this size */
    printf("sum of 1..%d on %d members: %.0f (expected %.0f)\n", N, used, job.total, expected);
    return used >= 1 && job.total == expected ? 0 : 1;
}
