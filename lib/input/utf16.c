/* SPDX-License-Identifier: MIT */
/* Streaming UTF-16LE -> UTF-8 (see utf16_local.h). */
#include "utf16_local.h"

static size_t put(char *out, uint32_t c)
{
	if (c == 0 || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
		c = 0xFFFD;
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

static size_t unit(struct gx_utf16 *u, uint32_t c, char *out)
{
	size_t k = 0;

	if (c >= 0xDC00 && c <= 0xDFFF && u->high) {
		k = put(out, 0x10000 + ((u->high - 0xD800) << 10) + (c - 0xDC00));
		u->high = 0;
		return k;
	}
	if (u->high) {
		k = put(out, 0xFFFD);
		u->high = 0;
	}
	if (c >= 0xD800 && c <= 0xDBFF) {
		u->high = c;
		return k;
	}
	return k + put(out + k, c);
}

size_t gx_utf16_feed(struct gx_utf16 *u, const uint8_t *in, size_t n, char *out)
{
	size_t i = 0, k = 0;

	if (n && u->have_byte) {
		k += unit(u, (uint32_t)u->byte | (uint32_t)in[0] << 8, out);
		u->have_byte = 0;
		i = 1;
	}
	for (; i + 1 < n; i += 2)
		k += unit(u, (uint32_t)in[i] | (uint32_t)in[i + 1] << 8, out + k);
	if (i < n) {
		u->have_byte = 1;
		u->byte = in[i];
	}
	return k;
}

size_t gx_utf16_finish(struct gx_utf16 *u, char *out)
{
	size_t k = 0;

	if (u->high || u->have_byte)
		k = put(out, 0xFFFD);
	gx_utf16_init(u);
	return k;
}
