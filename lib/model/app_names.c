/* SPDX-License-Identifier: MIT */
/*
 * Which app a process or a layer stands for: the rules every producer and the model share, so
 * that one frame is given the same app whichever source described it.
 */
#include "../gx_local.h"
#include "model_local.h"

struct gfxstat_str gx_process_package(const char *name)
{
	struct gfxstat_str s = { name, 0 };
	size_t n = strcspn(name, ": ");
	int dot = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || gx_isdigit(c) ||
		      c == '_' || c == '.'))
			return s;
		dot |= c == '.';
	}
	if (dot && n && name[0] != '.' && name[n - 1] != '.')
		s.n = n;
	return s;
}

struct gfxstat_str gfxstat_layer_app(const char *name, size_t n)
{
	static const char leash[] = " - animation-leash of ";
	struct gfxstat_str app = { name, 0 };
	const char *slash = memchr(name, '/', n), *b;
	size_t i;
	int dot = 0;

	if (!slash)
		return app;
	/* a window manager's animation leash wraps an app's surface in a layer of its own
	 * ("<surface> - animation-leash of <type>", frameworks/base services/core/java/com/
	 * android/server/wm/SurfaceAnimator.java createAnimationLeash): its frames are the
	 * system's transactions, not the app's buffers, whatever package the name quotes */
	for (i = 0; i + sizeof(leash) - 1 <= n; i++)
		if (memcmp(name + i, leash, sizeof(leash) - 1) == 0)
			return app;
	/* the package is the run of [A-Za-z0-9._] right before the first '/' */
	for (b = slash; b > name; b--) {
		char c = b[-1];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || gx_isdigit(c) ||
		      c == '.' || c == '_'))
			break;
		dot |= c == '.';
	}
	if (dot && b < slash && *b != '.') {
		app.p = b;
		app.n = (size_t)(slash - b);
	}
	return app;
}
