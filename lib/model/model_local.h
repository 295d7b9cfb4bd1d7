/* SPDX-License-Identifier: MIT */
/* lib/model/'s internals that the stages above it use. Not installed, not for src/. */
#ifndef MODEL_LOCAL_H
#define MODEL_LOCAL_H

#include "../gx_local.h"

/*
 * The package a process name stands for: "com.a.b" of "com.a.b:remote"; empty for what is no
 * package ("/system/bin/surfaceflinger", "system_server", "[kworker/0:1]", "<pre-initialized>").
 */
GFXSTAT_HIDDEN struct gfxstat_str gx_process_package(const char *name);

/*
 * The FrameTimeline jank bits (proto JankType values) that make a frame janky by
 * trace_processor's rule, of a display frame (@display 1) or a surface frame; 0: not janky.
 */
GFXSTAT_HIDDEN int32_t gx_ft_janky_bits(int display, int32_t jank_type);

#endif
