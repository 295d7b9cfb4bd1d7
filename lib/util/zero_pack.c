/* SPDX-License-Identifier: MIT */
/*
 * Records kept for later (a frame's cause, the app work behind a FrameTimeline frame) are
 * mostly zero bytes: each run of zeros is kept as a 0 and its length (gfxstat_cause.h).
 */
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat_cause.h"

size_t gfxstat_zero_pack(const void *in, size_t n, unsigned char *out)
{
	const unsigned char *b = in;
	size_t i = 0, o = 0;

	while (i < n) {
		size_t r = 0;

		if (b[i]) {
			out[o++] = b[i++];
			continue;
		}
		/* the run, 8 bytes at a time while they are all zero: a kept work is mostly
		 * zeros, and this was a fifth of analyze on a capture with the app's sections */
		while (i < n && r < 255) {
			uint64_t w;

			if (i + 8 <= n && r + 8 <= 255) {
				memcpy(&w, b + i, 8);
				if (!w) {
					i += 8;
					r += 8;
					continue;
				}
			}
			if (b[i])
				break;
			i++;
			r++;
		}
		out[o++] = 0;
		out[o++] = (unsigned char)r;
	}
	return o;
}

const unsigned char *gfxstat_zero_unpack(const unsigned char *in, void *out, size_t n)
{
	unsigned char *b = out;
	size_t o = 0;

	while (o < n) {
		if (*in) {
			b[o++] = *in++;
			continue;
		}
		memset(b + o, 0, in[1]);
		o += in[1];
		in += 2;
	}
	return in;
}
