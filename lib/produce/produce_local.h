/* SPDX-License-Identifier: MIT */
/* lib/produce/'s internals shared by its files. Not installed, not for src/. */
#ifndef PRODUCE_LOCAL_H
#define PRODUCE_LOCAL_H

#include "../gx_local.h"
#include "../model/model_local.h"

/* Mean of the cluster of intervals around their 10th percentile (+-15%): a refresh period
 * from vsync toggles that may skip. At most GX_CLUSTER_MAX values are used. */
#define GX_CLUSTER_MAX 128
GFXSTAT_HIDDEN int64_t gx_cluster_mean(const int64_t *iv, unsigned n);

struct gfxstat_thread_states;
/*
 * gx_thread_states_comm_pid() - the process of the threads the scheduler's events name @comm
 * (thread_state.c): their tgid, or the tid of one whose tgid the trace did not give (a
 * process's main thread carries its name). -1: none; -2: threads of two processes.
 */
GFXSTAT_HIDDEN int32_t gx_thread_states_comm_pid(const struct gfxstat_thread_states *t,
						 const char *comm, size_t n);

#endif
