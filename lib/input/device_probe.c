/* SPDX-License-Identifier: MIT */
/*
 * Pure parsers for adb and device answers (gfxstat_device.h). Nothing here allocates.
 *
 * Sources of the formats, read for this file:
 * - adb devices -l: AOSP system/core adb/transport.cpp append_transport() and
 *   append_transport_info() ("%-22s %s", then " usb:..", " product:", " model:" (non-
 *   alphanumerics made '_'), " device:", and " transport_id:N" last "so that anyone parsing
 *   the output here can always find it by scanning backwards"); the -l format change is
 *   AOSP commit 2ca3e6b "adb: Generalizing -s to take qualifiers"; the daemon messages are
 *   adb_client.cpp adb_connect() ("* daemon not running; starting now at %s",
 *   "* daemon started successfully").
 * - dumpsys window: mCurrentFocus / mFocusedApp lines as quoted in the tests (csdndocs.com
 *   article 10490799 for Android 5-9, i-rtfsc.github.io/android/input/focused-window for
 *   Android 12+).
 * - dumpsys input: InputDispatcher::dumpDispatchStateLocked() of Android 7-9
 *   ("FocusedWindow: name='%s'", "%zu: name='%s', displayId=%d, paused=%s, hasFocus=%s, ..."),
 *   FocusResolver::dumpFocusedWindows() of Android 12+ ("FocusedWindows:" then
 *   "displayId=%d, name='%s'"), and the seed's gfx.sh (grep "hasFocus=true", awk $4).
 * - dumpsys display: DisplayDeviceInfo.toString() (", modeId ", ", renderFrameRate ",
 *   ", supportedModes " + Arrays.toString), Display.Mode.toString() ("{id=.., width=..,
 *   height=.., fps=..[, vsync=..], alternativeRefreshRates=[..][, supportedHdrTypes=[..]]}"),
 *   LocalDisplayAdapter.LocalDisplayDevice.dumpLocked() ("mActiveSfDisplayMode=",
 *   "mActiveRenderFrameRate=", "mSupportedModes=" + DisplayModeRecord{mMode=..}) and
 *   SurfaceControl.DisplayMode.toString() ("refreshRate=" in Android 12-13,
 *   "peakRefreshRate=, vsyncRate=" later); a real emulator dump in Android Studio's
 *   PhysicalDisplayIdResolverTest.kt.
 * - dumpsys SurfaceFlinger: SurfaceFlinger::dumpAllLocked() "  refresh-rate              :
 *   %f fps" (Android 4.1-9), "VSYNC period: %d ns" and the "60.00 Hz: 0d.." time-in-state
 *   lines of public dumps (Android 11+).
 * - service call SurfaceFlinger 1013: LineageOS/android_frameworks_native
 *   cmds/service/service.cpp (transact, then `aout << "Result: " << reply`, the status
 *   ignored; "service: Service %s does not exist"), libs/binder/Parcel.cpp Parcel::print()
 *   ("Parcel(" then "Error: 0x.. \"strerror\"", a HexDump of the data, or "NULL"), and
 *   services/surfaceflinger/SurfaceFlinger.cpp onTransact(): 1013 wrote
 *   getPageFlipCount() of the default display until it became "case 1013: // Unused.
 *   return NAME_NOT_FOUND;"; a status code leaves the caller's reply empty
 *   (IPCThreadState::waitForResponse, TF_STATUS_CODE), so that and a refusal (uid not
 *   system without HARDWARE_TEST: PERMISSION_DENIED; an SELinux denial: FAILED_TRANSACTION)
 *   print "Parcel(NULL)". Readers of the count: alibaba/mobileperf
 *   mobileperf/android/fps.py _get_surface_stats_legacy() (re '^Result: Parcel\((\w+)',
 *   base 16) and Gracker/FPSDump FPSUtils.java (reply.readInt(), frames over
 *   System.nanoTime()).
 * - dumpsys package PKG: LineageOS/android_frameworks_base @09a217e (Android 9)
 *   services/core/java/com/android/server/pm/Settings.java dumpPackageLPr() ("Package [" +
 *   realName or name + "] (" + identity hash + "):", "  compat name=", "  versionCode=" +
 *   " minSdk=.. targetSdk=.." when the package is parsed, "  versionName=" + mVersionName,
 *   each after the block's prefix) and dumpPackagesLPr() ("Packages:", then "Hidden system
 *   packages:" with the system image's block of an updated system app), reached from
 *   PackageManagerService.dump() (Android 4-12) and ComputerEngine/DumpHelper (13+).
 */
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat_device.h"
#include "../gx_local.h"

/* ---------------------------------------------------------------------------------------- */
/* Slices                                                                                      */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

static int starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s, lit, k) == 0;
}

static int ends(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s + n - k, lit, k) == 0;
}

/* Offset of @lit in (s, n), or -1. */
static long find(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit), i;

	if (!k || k > n)
		return -1;
	for (i = 0; i + k <= n; i++) {
		const char *q = memchr(s + i, lit[0], n - k + 1 - i);

		if (!q)
			return -1;
		i = (size_t)(q - s);
		if (memcmp(q, lit, k) == 0)
			return (long)i;
	}
	return -1;
}

/* The next line of (*p, end), without its '\n' and any '\r' before it. 0 at the end. */
static int next_line(const char **p, const char *end, const char **ls, size_t *ln)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*ls = *p;
	*ln = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	while (*ln && (*ls)[*ln - 1] == '\r')
		(*ln)--;
	return 1;
}

static struct gfxstat_str mkstr(const char *p, size_t n)
{
	struct gfxstat_str s;

	s.p = p;
	s.n = n;
	return s;
}

/* Unsigned decimal of at most 18 digits; the whole slice. 0 on success. */
static int parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!n || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		if (!gx_isdigit(s[i]))
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* adb devices                                                                                 */

static const struct {
	const char *name;
	enum gfxstat_adb_state st;
} adb_states[] = {
	{ "device", GFXSTAT_ADB_DEVICE },
	{ "offline", GFXSTAT_ADB_OFFLINE },
	{ "unauthorized", GFXSTAT_ADB_UNAUTHORIZED },
	{ "authorizing", GFXSTAT_ADB_AUTHORIZING },
	{ "connecting", GFXSTAT_ADB_CONNECTING },
	{ "recovery", GFXSTAT_ADB_RECOVERY },
	{ "rescue", GFXSTAT_ADB_RESCUE },
	{ "sideload", GFXSTAT_ADB_SIDELOAD },
	{ "bootloader", GFXSTAT_ADB_BOOTLOADER },
	{ "host", GFXSTAT_ADB_HOST },
	{ "detached", GFXSTAT_ADB_DETACHED },
	{ "unknown", GFXSTAT_ADB_UNKNOWN },
};

static enum gfxstat_adb_state adb_state_of(const char *s, size_t n)
{
	size_t i;

	if (starts(s, n, "no permissions"))
		return GFXSTAT_ADB_NO_PERMISSIONS;
	for (i = 0; i < sizeof(adb_states) / sizeof(adb_states[0]); i++)
		if (strlen(adb_states[i].name) == n && memcmp(adb_states[i].name, s, n) == 0)
			return adb_states[i].st;
	return GFXSTAT_ADB_UNKNOWN;
}

/* A " key:value" extra of -l at the end of the line; fills @out. 1 if it was one. */
static int adb_extra(const char *t, size_t n, struct gfxstat_adb_device *out)
{
	uint64_t id;

	if (starts(t, n, "usb:") && n > 4) {
		out->devpath = mkstr(t, n);
	} else if (starts(t, n, "product:")) {
		out->product = mkstr(t + 8, n - 8);
	} else if (starts(t, n, "model:")) {
		out->model = mkstr(t + 6, n - 6);
	} else if (starts(t, n, "device:")) {
		out->device = mkstr(t + 7, n - 7);
	} else if (starts(t, n, "transport_id:")) {
		if (parse_u64(t + 13, n - 13, &id))
			return 0;
		out->transport_id = (int64_t)id;
	} else if (!starts(t, n, "features:")) {
		return 0;
	}
	return 1;
}

enum gfxstat_parse_res gfxstat_adb_device_line(const char *s, size_t n,
					       struct gfxstat_adb_device *out)
{
	static const char *const chatter[] = {
		"List of devices attached", "* ", "adb server", "adb: ", "error: ", "adb.exe: ",
	};
	static const char noserial[] = "(no serial number)";
	size_t i, sn, end;

	memset(out, 0, sizeof(*out));
	out->transport_id = -1;
	trim(&s, &n);
	if (!n)
		return GFXSTAT_PARSE_UNSUPPORTED;
	for (i = 0; i < sizeof(chatter) / sizeof(chatter[0]); i++)
		if (starts(s, n, chatter[i]))
			return GFXSTAT_PARSE_UNSUPPORTED;
	if (starts(s, n, noserial)) {
		sn = sizeof(noserial) - 1;
	} else {
		for (sn = 0; sn < n && s[sn] != ' ' && s[sn] != '\t'; sn++)
			;
	}
	out->serial = mkstr(s, sn);
	i = sn;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == sn || i == n)
		return GFXSTAT_PARSE_FAIL;
	/* peel the extras off the end; what is left is the state, spaces and all */
	end = n;
	for (;;) {
		size_t sp = end;

		while (sp > i && s[sp - 1] != ' ' && s[sp - 1] != '\t')
			sp--;
		if (sp == i || !adb_extra(s + sp, end - sp, out))
			break;
		end = sp;
		while (end > i && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
	}
	out->state_text = mkstr(s + i, end - i);
	out->state = adb_state_of(s + i, end - i);
	return GFXSTAT_PARSE_OK;
}

int gfxstat_adb_devices_next(struct gfxstat_str *text, struct gfxstat_adb_device *out)
{
	const char *p = text->p, *end = text->p + text->n, *ls;
	size_t ln;

	if (!text->p)
		return 0;
	while (next_line(&p, end, &ls, &ln)) {
		text->n -= (size_t)(p - text->p);
		text->p = p;
		if (gfxstat_adb_device_line(ls, ln, out) == GFXSTAT_PARSE_OK)
			return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Focus                                                                                       */

static int is_hex_word(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!gx_isdigit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return 0;
	return 1;
}

/* "u<digits>" */
static int user_word(const char *s, size_t n, int32_t *user)
{
	uint64_t u;

	if (n < 2 || s[0] != 'u' || parse_u64(s + 1, n - 1, &u) || u > INT32_MAX)
		return 0;
	*user = (int32_t)u;
	return 1;
}

static size_t word_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != ' ' && s[i] != '}')
		i++;
	return i;
}

enum gfxstat_parse_res gfxstat_focus_name_parse(const char *s, size_t n,
						struct gfxstat_focus *out)
{
	long ar, br;
	size_t w, slash;

	memset(out, 0, sizeof(*out));
	out->user = -1;
	trim(&s, &n);
	if (!n)
		return GFXSTAT_PARSE_FAIL;
	if ((n == 4 && memcmp(s, "null", 4) == 0) || (n == 6 && memcmp(s, "<null>", 6) == 0))
		return GFXSTAT_PARSE_UNSUPPORTED;
	/* AppWindowToken{.. token=Token{.. ActivityRecord{hash u0 pkg/.A t56}}}: the record */
	ar = find(s, n, "ActivityRecord{");
	if (ar > 0) {
		s += ar;
		n -= (size_t)ar;
	}
	br = find(s, n, "{");
	if (br >= 0) {
		long close;
		size_t k;

		/* Window{ / ActivityRecord{: a word of letters, then the brace */
		for (k = 0; k < (size_t)br; k++)
			if (!((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z')))
				return GFXSTAT_PARSE_FAIL;
		s += br + 1;
		n -= (size_t)br + 1;
		close = find(s, n, "}");
		if (close < 0)
			return GFXSTAT_PARSE_FAIL;
		n = (size_t)close;
		/* the identity hash, always there */
		w = word_len(s, n);
		if (w == n)
			return GFXSTAT_PARSE_FAIL;
		s += w + 1;
		n -= w + 1;
	} else {
		/* Android 12+ input names: "e225d94 com.pkg/com.pkg.Act" */
		w = word_len(s, n);
		if (w < n && is_hex_word(s, w)) {
			s += w + 1;
			n -= w + 1;
		}
	}
	trim(&s, &n);
	w = word_len(s, n);
	if (w < n && user_word(s, w, &out->user)) {
		s += w + 1;
		n -= w + 1;
		trim(&s, &n);
	}
	if (!n)
		return GFXSTAT_PARSE_FAIL;
	out->title = mkstr(s, n);
	w = word_len(s, n);
	for (slash = 0; slash < w && s[slash] != '/'; slash++)
		;
	if (slash == 0 || slash + 1 >= w)
		return GFXSTAT_PARSE_UNSUPPORTED;
	out->title = mkstr(s, w);
	out->pkg = mkstr(s, slash);
	out->activity = mkstr(s + slash + 1, w - slash - 1);
	return GFXSTAT_PARSE_OK;
}

/* The value after @key to the end of the line, parsed as a name. */
static enum gfxstat_parse_res focus_after(const char *ls, size_t ln, long at, size_t keylen,
					  struct gfxstat_focus *f)
{
	return gfxstat_focus_name_parse(ls + at + keylen, ln - (size_t)at - keylen, f);
}

/* A quoted name='...' in the line. */
static enum gfxstat_parse_res focus_quoted(const char *ls, size_t ln, struct gfxstat_focus *f)
{
	long at = find(ls, ln, "name='"), q;

	memset(f, 0, sizeof(*f));
	f->user = -1;
	if (at < 0)
		return GFXSTAT_PARSE_FAIL;
	ls += at + 6;
	ln -= (size_t)at + 6;
	q = find(ls, ln, "'");
	if (q < 0)
		return GFXSTAT_PARSE_FAIL;
	return gfxstat_focus_name_parse(ls, (size_t)q, f);
}

/* Keep the first result of each kind: OK beats UNSUPPORTED beats nothing. */
static void keep(enum gfxstat_parse_res r, const struct gfxstat_focus *f,
		 enum gfxstat_parse_res *best, struct gfxstat_focus *out)
{
	if (r == GFXSTAT_PARSE_FAIL)
		return;
	if (*best == GFXSTAT_PARSE_FAIL || (r == GFXSTAT_PARSE_OK && *best != GFXSTAT_PARSE_OK)) {
		*best = r;
		*out = *f;
	}
}

enum gfxstat_parse_res gfxstat_focus_from_window(const char *s, size_t n,
						 struct gfxstat_focus *out)
{
	const char *p = s, *end = s + n, *ls;
	enum gfxstat_parse_res cur = GFXSTAT_PARSE_FAIL, app = GFXSTAT_PARSE_FAIL, r;
	struct gfxstat_focus fc, fa, f;
	size_t ln;

	memset(out, 0, sizeof(*out));
	out->user = -1;
	memset(&fc, 0, sizeof(fc));
	memset(&fa, 0, sizeof(fa));
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		long at = find(ls, ln, "mCurrentFocus=");

		if (at >= 0) {
			r = focus_after(ls, ln, at, 14, &f);
			if (r == GFXSTAT_PARSE_OK) {
				*out = f;
				return r;
			}
			/* a "null" or malformed value still says the line is there */
			if (cur == GFXSTAT_PARSE_FAIL) {
				cur = GFXSTAT_PARSE_UNSUPPORTED;
				if (r == GFXSTAT_PARSE_UNSUPPORTED)
					fc = f;
			}
			continue;
		}
		at = find(ls, ln, "mFocusedApp=");
		if (at >= 0) {
			r = focus_after(ls, ln, at, 12, &f);
			if (r == GFXSTAT_PARSE_FAIL)
				r = GFXSTAT_PARSE_UNSUPPORTED;
			keep(r, &f, &app, &fa);
		}
	}
	if (app == GFXSTAT_PARSE_OK) {
		*out = fa;
		return app;
	}
	if (cur != GFXSTAT_PARSE_FAIL) {
		*out = fc;
		if (!fc.title.p)
			out->user = -1;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	if (app != GFXSTAT_PARSE_FAIL) {
		*out = fa;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	return GFXSTAT_PARSE_FAIL;
}

enum gfxstat_parse_res gfxstat_focus_from_input(const char *s, size_t n,
						struct gfxstat_focus *out)
{
	const char *p = s, *end = s + n, *ls;
	enum gfxstat_parse_res expl = GFXSTAT_PARSE_FAIL, has = GFXSTAT_PARSE_FAIL, r;
	struct gfxstat_focus fe, fh, f;
	int in_block = 0;
	size_t ln;

	memset(out, 0, sizeof(*out));
	out->user = -1;
	memset(&fe, 0, sizeof(fe));
	memset(&fh, 0, sizeof(fh));
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		const char *t = ls;
		size_t tn = ln;

		trim(&t, &tn);
		if (starts(t, tn, "FocusedWindows:")) {
			/* "FocusedWindows: <none>" has no entries */
			in_block = tn == 15;
			if (!in_block && expl == GFXSTAT_PARSE_FAIL)
				expl = GFXSTAT_PARSE_UNSUPPORTED;
			continue;
		}
		if (in_block) {
			if (starts(t, tn, "displayId=") && find(t, tn, "name='") >= 0) {
				r = focus_quoted(t, tn, &f);
				keep(r, &f, &expl, &fe);
				continue;
			}
			in_block = 0;
		}
		if (starts(t, tn, "FocusedWindow:")) {
			r = focus_quoted(t, tn, &f);
			if (r == GFXSTAT_PARSE_FAIL && find(t, tn, "<null>") >= 0)
				r = GFXSTAT_PARSE_UNSUPPORTED;
			keep(r, &f, &expl, &fe);
			continue;
		}
		if (find(t, tn, "hasFocus=true") >= 0) {
			r = focus_quoted(t, tn, &f);
			keep(r, &f, &has, &fh);
		}
	}
	if (expl == GFXSTAT_PARSE_OK) {
		*out = fe;
		return expl;
	}
	if (has == GFXSTAT_PARSE_OK) {
		*out = fh;
		return has;
	}
	if (expl != GFXSTAT_PARSE_FAIL) {
		*out = fe;
		if (!fe.title.p)
			out->user = -1;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	if (has != GFXSTAT_PARSE_FAIL) {
		*out = fh;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	return GFXSTAT_PARSE_FAIL;
}

size_t gfxstat_focus_component(const struct gfxstat_focus *f, char *buf, size_t cap)
{
	struct gx_out o;

	if (!f->pkg.n || !f->activity.n) {
		if (cap)
			buf[0] = '\0';
		return 0;
	}
	o.p = buf;
	o.cap = cap;
	o.len = 0;
	gx_out_put(&o, f->pkg.p, f->pkg.n);
	gx_out_put(&o, "/", 1);
	if (f->activity.p[0] == '.')
		gx_out_put(&o, f->pkg.p, f->pkg.n);
	gx_out_put(&o, f->activity.p, f->activity.n);
	if (cap)
		buf[o.len < cap ? o.len : cap - 1] = '\0';
	return o.len;
}

/* ---------------------------------------------------------------------------------------- */
/* Refresh rates                                                                               */

enum gfxstat_parse_res gfxstat_fps_parse(const char *s, size_t n, uint32_t *mhz)
{
	uint64_t ip = 0, uhz, frac = 0;
	size_t i = 0, d = 0, fd = 0;

	if (n == 8 && memcmp(s, "Infinity", 8) == 0)
		return GFXSTAT_PARSE_UNSUPPORTED;
	if (n == 3 && memcmp(s, "NaN", 3) == 0)
		return GFXSTAT_PARSE_UNSUPPORTED;
	for (; i < n && gx_isdigit(s[i]); i++, d++)
		if (ip <= 1000000)
			ip = ip * 10 + (uint64_t)(s[i] - '0');
	if (!d)
		return GFXSTAT_PARSE_FAIL;
	if (i < n && s[i] == '.') {
		for (i++; i < n && gx_isdigit(s[i]); i++, fd++)
			if (fd < 6)
				frac = frac * 10 + (uint64_t)(s[i] - '0');
		if (!fd)
			return GFXSTAT_PARSE_FAIL;
		for (; fd < 6; fd++)
			frac *= 10;
	}
	if (i != n)
		return GFXSTAT_PARSE_FAIL;
	if (ip > 10000)
		return GFXSTAT_PARSE_UNSUPPORTED;
	uhz = ip * 1000000 + frac;
	if (uhz > 10000000000ULL || (uhz + 500) / 1000 == 0)
		return GFXSTAT_PARSE_UNSUPPORTED;
	*mhz = (uint32_t)((uhz + 500) / 1000);
	return GFXSTAT_PARSE_OK;
}

int64_t gfxstat_mhz_to_period_ns(uint32_t mhz)
{
	if (!mhz)
		return 0;
	return (int64_t)((1000000000000ULL + mhz / 2) / mhz);
}

static void add_rate(struct gfxstat_display_rates *r, uint32_t mhz)
{
	uint32_t i, j;

	for (i = 0; i < r->n && r->mhz[i] < mhz; i++)
		;
	if (i < r->n && r->mhz[i] == mhz)
		return;
	if (r->n == GFXSTAT_RATES_MAX)
		return;
	for (j = r->n; j > i; j--)
		r->mhz[j] = r->mhz[j - 1];
	r->mhz[i] = mhz;
	r->n++;
}

/* The number after @key (preceded by '{', ' ', ',' or the start) up to , } ] or space. */
static enum gfxstat_parse_res field_fps(const char *s, size_t n, const char *key, uint32_t *mhz)
{
	size_t k = strlen(key);
	long at, off = 0;

	while ((at = find(s + off, n - (size_t)off, key)) >= 0) {
		size_t v = (size_t)(off + at) + k, e = v;

		if (off + at == 0 || s[off + at - 1] == '{' || s[off + at - 1] == ' ' ||
		    s[off + at - 1] == ',') {
			while (e < n && s[e] != ',' && s[e] != '}' && s[e] != ']' && s[e] != ' ')
				e++;
			return gfxstat_fps_parse(s + v, e - v, mhz);
		}
		off += at + 1;
	}
	return GFXSTAT_PARSE_FAIL;
}

static int field_int(const char *s, size_t n, const char *key, int64_t *v)
{
	long at = find(s, n, key);
	size_t i, e;
	uint64_t u;

	if (at < 0)
		return -1;
	i = (size_t)at + strlen(key);
	for (e = i; e < n && gx_isdigit(s[e]); e++)
		;
	if (parse_u64(s + i, e - i, &u))
		return -1;
	*v = (int64_t)u;
	return 0;
}

/* "[{id=1, ..., fps=60.0, ...}, {...}]" at @s: every mode's rate, and the one of @active_id. */
static void mode_list(const char *s, size_t n, int64_t active_id,
		      struct gfxstat_display_rates *r)
{
	size_t i = 0;

	if (!n || s[0] != '[')
		return;
	for (i = 1; i < n;) {
		const char *o;
		long close;
		uint32_t mhz;
		int64_t id;

		while (i < n && (s[i] == ',' || s[i] == ' '))
			i++;
		if (i >= n || s[i] != '{')
			return;
		o = s + i;
		close = find(o, n - i, "}");
		if (close < 0)
			return;
		if (field_fps(o + 1, (size_t)close - 1, "fps=", &mhz) == GFXSTAT_PARSE_OK) {
			add_rate(r, mhz);
			if (active_id >= 0 && !field_int(o + 1, (size_t)close - 1, "id=", &id) &&
			    id == active_id)
				r->active_mhz = mhz;
		}
		i += (size_t)close + 1;
	}
}

/* A DisplayDeviceInfo{..} or DisplayInfo{..} line. */
static void info_line(const char *ls, size_t ln, const char *id_key, const char *list_key,
		      struct gfxstat_display_rates *r)
{
	int64_t active = -1;
	long at;
	uint32_t mhz;

	if (field_int(ls, ln, id_key, &active))
		active = -1;
	at = find(ls, ln, list_key);
	if (at >= 0) {
		size_t k = (size_t)at + strlen(list_key);

		mode_list(ls + k, ln - k, active, r);
	}
	if (field_fps(ls, ln, "renderFrameRate ", &mhz) == GFXSTAT_PARSE_OK)
		r->render_mhz = mhz;
}

enum gfxstat_parse_res gfxstat_display_rates_parse(const char *s, size_t n,
						   struct gfxstat_display_rates *out)
{
	const char *p = s, *end = s + n, *ls, *info = NULL;
	size_t ln, info_n = 0;
	int dev = 0;

	memset(out, 0, sizeof(*out));
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		long at;
		uint32_t mhz;

		if (find(ls, ln, "DisplayDeviceInfo{") >= 0) {
			if (dev)
				break;
			dev = 1;
			info_line(ls, ln, ", modeId ", "supportedModes ", out);
			continue;
		}
		if (!dev) {
			if (!info && find(ls, ln, "DisplayInfo{") >= 0) {
				info = ls;
				info_n = ln;
			}
			continue;
		}
		at = find(ls, ln, "DisplayModeRecord{mMode=");
		if (at >= 0) {
			if (field_fps(ls + at, ln - (size_t)at, "fps=", &mhz) == GFXSTAT_PARSE_OK)
				add_rate(out, mhz);
			continue;
		}
		at = find(ls, ln, "mActiveSfDisplayMode=");
		if (at >= 0) {
			const char *v = ls + at;
			size_t vn = ln - (size_t)at;

			if (field_fps(v, vn, "refreshRate=", &mhz) == GFXSTAT_PARSE_OK ||
			    field_fps(v, vn, "peakRefreshRate=", &mhz) == GFXSTAT_PARSE_OK)
				out->active_mhz = mhz;
			continue;
		}
		at = find(ls, ln, "mActiveRenderFrameRate=");
		if (at >= 0) {
			size_t v = (size_t)at + 23, e = ln;

			while (e > v && is_space(ls[e - 1]))
				e--;
			if (gfxstat_fps_parse(ls + v, e - v, &mhz) == GFXSTAT_PARSE_OK)
				out->render_mhz = mhz;
		}
	}
	if (!dev && info)
		info_line(info, info_n, ", mode ", " modes ", out);
	if (out->active_mhz)
		add_rate(out, out->active_mhz);
	if (!out->n) {
		memset(out, 0, sizeof(*out));
		return GFXSTAT_PARSE_FAIL;
	}
	return GFXSTAT_PARSE_OK;
}

/* "60.00 Hz: 0d.." or "60.00fps: 0d..": the rate. */
static enum gfxstat_parse_res time_in_state(const char *t, size_t tn, uint32_t *mhz)
{
	size_t e = 0;

	while (e < tn && (gx_isdigit(t[e]) || t[e] == '.'))
		e++;
	if (!e)
		return GFXSTAT_PARSE_FAIL;
	if (!starts(t + e, tn - e, " Hz:") && !starts(t + e, tn - e, "fps:") &&
	    !starts(t + e, tn - e, " fps:"))
		return GFXSTAT_PARSE_FAIL;
	return gfxstat_fps_parse(t, e, mhz);
}

enum gfxstat_parse_res gfxstat_sf_rates_parse(const char *s, size_t n,
					      struct gfxstat_display_rates *out)
{
	const char *p = s, *end = s + n, *ls;
	size_t ln;

	memset(out, 0, sizeof(*out));
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		const char *t = ls;
		size_t tn = ln;
		uint32_t mhz;
		int64_t period;
		long at;

		trim(&t, &tn);
		if (starts(t, tn, "refresh-rate")) {
			at = find(t, tn, ":");
			if (at >= 0 && ends(t, tn, " fps") && !out->active_mhz) {
				const char *v = t + at + 1;
				size_t vn = tn - (size_t)at - 1 - 4;

				trim(&v, &vn);
				if (gfxstat_fps_parse(v, vn, &mhz) == GFXSTAT_PARSE_OK)
					out->active_mhz = mhz;
			}
			continue;
		}
		at = find(t, tn, "VSYNC period: ");
		if (at >= 0) {
			if (!out->active_mhz && !field_int(t + at, tn - (size_t)at, "period: ",
							   &period) &&
			    period >= 100000 && period <= 1000000000)
				out->active_mhz =
					(uint32_t)((1000000000000LL + period / 2) / period);
			continue;
		}
		if (time_in_state(t, tn, &mhz) == GFXSTAT_PARSE_OK)
			add_rate(out, mhz);
	}
	if (out->active_mhz && !out->n)
		add_rate(out, out->active_mhz);
	if (!out->n) {
		memset(out, 0, sizeof(*out));
		return GFXSTAT_PARSE_FAIL;
	}
	return GFXSTAT_PARSE_OK;
}

/* The first line, trimmed. */
static void first_line(const char **s, size_t *n)
{
	const char *p = *s, *ls = *s;
	size_t ln = 0;

	if (*s)
		next_line(&p, *s + *n, &ls, &ln);
	trim(&ls, &ln);
	*s = ls;
	*n = ln;
}

enum gfxstat_parse_res gfxstat_sf_latency_period(const char *s, size_t n, int64_t *period_ns)
{
	uint64_t v = 0;
	size_t i = 0;
	int neg = 0;

	first_line(&s, &n);
	if (n && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == n)
		return GFXSTAT_PARSE_FAIL;
	for (; i < n; i++) {
		if (!gx_isdigit(s[i]))
			return GFXSTAT_PARSE_FAIL;
		if (v > ((uint64_t)INT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return GFXSTAT_PARSE_FAIL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (neg || v < 1000000 || v > 1000000000)
		return GFXSTAT_PARSE_UNSUPPORTED;
	*period_ns = (int64_t)v;
	return GFXSTAT_PARSE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* Small answers                                                                               */

enum gfxstat_parse_res gfxstat_getprop_value(const char *s, size_t n, struct gfxstat_str *value)
{
	first_line(&s, &n);
	*value = mkstr(s, n);
	return n ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_UNSUPPORTED;
}

enum gfxstat_parse_res gfxstat_getprop_find(const char *s, size_t n, const char *name,
					    struct gfxstat_str *value)
{
	const char *p = s, *end = s + n, *ls;
	size_t ln, k = strlen(name);

	value->p = NULL;
	value->n = 0;
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		const char *t = ls;
		size_t tn = ln;

		trim(&t, &tn);
		/* "[name]: [value]" */
		if (tn < k + 6 || t[0] != '[' || memcmp(t + 1, name, k) != 0 ||
		    !starts(t + 1 + k, tn - 1 - k, "]: [") || t[tn - 1] != ']')
			continue;
		*value = mkstr(t + k + 5, tn - k - 6);
		return GFXSTAT_PARSE_OK;
	}
	return GFXSTAT_PARSE_FAIL;
}

enum gfxstat_parse_res gfxstat_id_uid(const char *s, size_t n, int64_t *uid)
{
	uint64_t v;
	size_t e = 0;

	first_line(&s, &n);
	if (starts(s, n, "uid=")) {
		s += 4;
		n -= 4;
		while (e < n && gx_isdigit(s[e]))
			e++;
		if (e == n || s[e] != '(')
			return GFXSTAT_PARSE_FAIL;
		n = e;
	}
	if (n > 10 || parse_u64(s, n, &v) || v > UINT32_MAX)
		return GFXSTAT_PARSE_FAIL;
	*uid = (int64_t)v;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_tracefs_detect(const char *s, size_t n, struct gfxstat_str *dir)
{
	static const char pipe[] = "/trace_pipe";
	static const char best[] = "/sys/kernel/tracing";
	const char *p = s, *end = s + n, *ls;
	size_t ln;
	int found = 0;

	dir->p = NULL;
	dir->n = 0;
	if (!s)
		return GFXSTAT_PARSE_UNSUPPORTED;
	while (next_line(&p, end, &ls, &ln)) {
		const char *t = ls;
		size_t tn = ln, d;

		trim(&t, &tn);
		if (tn <= sizeof(pipe) - 1 || t[0] != '/' || !ends(t, tn, pipe) ||
		    memchr(t, ':', tn) || memchr(t, ' ', tn))
			continue;
		d = tn - (sizeof(pipe) - 1);
		if (d == sizeof(best) - 1 && memcmp(t, best, d) == 0) {
			*dir = mkstr(t, d);
			return GFXSTAT_PARSE_OK;
		}
		if (!found) {
			*dir = mkstr(t, d);
			found = 1;
		}
	}
	return found ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_UNSUPPORTED;
}

enum gfxstat_parse_res gfxstat_tracing_on_parse(const char *s, size_t n, int *on)
{
	first_line(&s, &n);
	if (n != 1 || (s[0] != '0' && s[0] != '1'))
		return GFXSTAT_PARSE_FAIL;
	*on = s[0] - '0';
	return GFXSTAT_PARSE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* service call SurfaceFlinger 1013                                                          */

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* What follows "Result: Parcel(" on its line (@t), with the rest of the text after it. */
static enum gfxstat_parse_res parcel(const char *t, size_t tn, const char *rest,
				     const char *end, struct gfxstat_pageflip_reply *out)
{
	size_t i = 0, words = 0;
	uint32_t first = 0;

	if (starts(t, tn, "NULL)")) {
		out->kind = GFXSTAT_PAGEFLIP_EMPTY;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	if (starts(t, tn, "Error: 0x")) {
		uint64_t v = 0;
		size_t k = 9;

		/* (void*)(intptr_t)err: 8 hex digits on 32-bit, 16 sign-extended on 64-bit */
		while (k < tn && k < 9 + 16 && hex_digit(t[k]) >= 0)
			v = v << 4 | (uint64_t)hex_digit(t[k++]);
		if (k == 9 || (k < tn && hex_digit(t[k]) >= 0))
			return GFXSTAT_PARSE_FAIL;
		out->kind = GFXSTAT_PAGEFLIP_ERROR;
		out->status = (int32_t)(uint32_t)(v & 0xffffffffu);
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	if (!tn) {
		/* HexDump's multi-line form ("0x00000000: ...") for more than 16 bytes */
		const char *ls = NULL, *p = rest;
		size_t ln = 0;

		if (!next_line(&p, end, &ls, &ln))
			return GFXSTAT_PARSE_FAIL;
		trim(&ls, &ln);
		t = ls;
		tn = ln;
	}
	if (starts(t, tn, "0x")) {
		out->kind = GFXSTAT_PAGEFLIP_NOT_A_COUNT;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	/* one line: 32-bit words of 8 hex digits, spaces, then the bytes quoted, then ')' */
	while (i < tn) {
		uint32_t v = 0;
		size_t k = 0;

		while (k < 8 && i + k < tn && hex_digit(t[i + k]) >= 0)
			v = v << 4 | (uint32_t)hex_digit(t[i + k++]);
		if (k != 8 || (i + 8 < tn && hex_digit(t[i + 8]) >= 0))
			return GFXSTAT_PARSE_FAIL;
		if (!words++)
			first = v;
		i += 8;
		while (i < tn && t[i] == ' ')
			i++;
		if (i < tn && (t[i] == '\'' || t[i] == ')'))
			break;
	}
	if (!words || i >= tn || t[tn - 1] != ')')
		return GFXSTAT_PARSE_FAIL;
	if (words > 1) {
		out->kind = GFXSTAT_PAGEFLIP_NOT_A_COUNT;
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
	out->kind = GFXSTAT_PAGEFLIP_COUNT;
	out->count = first;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_pageflip_reply_parse(const char *s, size_t n,
						    struct gfxstat_pageflip_reply *out)
{
	const char *p = s, *end = s + n, *ls;
	size_t ln;

	memset(out, 0, sizeof(*out));
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		trim(&ls, &ln);
		if (starts(ls, ln, "service: ")) {
			if (!ends(ls, ln, " does not exist"))
				return GFXSTAT_PARSE_FAIL;
			out->kind = GFXSTAT_PAGEFLIP_NO_SERVICE;
			return GFXSTAT_PARSE_UNSUPPORTED;
		}
		if (starts(ls, ln, "Result: Parcel("))
			return parcel(ls + 15, ln - 15, p, end, out);
		if (starts(ls, ln, "Result:"))
			return GFXSTAT_PARSE_FAIL;
	}
	return GFXSTAT_PARSE_FAIL;
}

enum gfxstat_pageflip_step_kind gfxstat_pageflip_step(uint32_t prev, uint32_t cur,
							int64_t interval_ns, int64_t slack_ns,
							uint32_t max_mhz,
							struct gfxstat_pageflip_step *out)
{
	/* µs, capped so that us * max_mhz stays within 64 bits (1e12 µs is 11.6 days) */
	const uint64_t cap_us = 1000000000000ull;
	uint32_t d = cur - prev; /* modulo 2^32: right across a wrap */
	uint64_t us, allowed, whole;
	int64_t need;
	double fps;

	memset(out, 0, sizeof(*out));
	if (!max_mhz)
		max_mhz = GFXSTAT_PAGEFLIP_UNKNOWN_MAX_MHZ;
	if (max_mhz > 10000000u)
		max_mhz = 10000000u; /* 10 kHz, as gfxstat_fps_parse(); keeps the products in range */
	if (interval_ns <= 0) {
		out->kind = GFXSTAT_PAGEFLIP_STEP_BAD_TIME;
		return out->kind;
	}
	if (slack_ns < 0)
		slack_ns = 0;
	us = (uint64_t)(interval_ns / 1000) + (uint64_t)(slack_ns / 1000);
	if (us > cap_us)
		us = cap_us;
	/* one flip per refresh period at most, and one more for where the reads fall */
	allowed = us * max_mhz / 1000000000u + 1;
	if (cur < prev && d > allowed) {
		out->kind = GFXSTAT_PAGEFLIP_STEP_RESET;
		return out->kind;
	}
	out->flips = d;
	if (cur >= prev && d > allowed) {
		out->kind = GFXSTAT_PAGEFLIP_STEP_TOO_FAST;
		return out->kind;
	}
	out->kind = cur < prev ? GFXSTAT_PAGEFLIP_STEP_WRAP : GFXSTAT_PAGEFLIP_STEP_OK;
	/* d flips take at least d refresh periods, d * 1e12 / max_mhz ns, rounded up */
	whole = d / max_mhz;
	need = whole >= (uint64_t)INT64_MAX / 1000000000000ull
		       ? INT64_MAX
		       : (int64_t)(whole * 1000000000000ull +
				   ((d % max_mhz) * 1000000000000ull + max_mhz - 1) / max_mhz);
	out->span_ns = need > interval_ns ? need : interval_ns;
	fps = (double)d * 1e12 / (double)out->span_ns + 0.5;
	/* d / span <= max by construction; the min only absorbs the rounding */
	out->fps_mhz = fps >= (double)max_mhz ? max_mhz : (uint32_t)fps;
	return out->kind;
}

/* ---------------------------------------------------------------------------------------- */
/* An app's version                                                                            */

/* Leading spaces and tabs of a line. */
static size_t indent_of(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* A Java long printed in decimal, >= 0; the whole slice. 0 on success. */
static int parse_long(const char *s, size_t n, int64_t *v)
{
	int64_t x = 0;
	size_t i;

	if (!n || n > 19)
		return -1;
	for (i = 0; i < n; i++) {
		if (!gx_isdigit(s[i]) || x > (INT64_MAX - (s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return 0;
}

/* "Package [NAME] (hash):" (trimmed): NAME into @name. 0 on success. */
static int package_header(const char *t, size_t tn, struct gfxstat_str *name)
{
	const char *close;

	if (!starts(t, tn, "Package [") || tn < 11 || t[tn - 1] != ':')
		return -1;
	close = memchr(t + 9, ']', tn - 9);
	if (!close || close == t + 9)
		return -1;
	*name = mkstr(t + 9, (size_t)(close - t - 9));
	return 0;
}

static int str_is(struct gfxstat_str s, const char *lit)
{
	return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

/* versionCode= and versionName= of one line of a block, the first of each kept. */
static void version_line(const char *t, size_t tn, int *have_code, int *have_name,
			 struct gfxstat_pkg_version *out)
{
	if (!*have_code && starts(t, tn, "versionCode=")) {
		size_t k = 12, e = k;

		while (e < tn && t[e] != ' ' && t[e] != '\t')
			e++;
		*have_code = 1;
		if (parse_long(t + k, e - k, &out->code))
			out->code = -1;
	} else if (!*have_name && starts(t, tn, "versionName=")) {
		const char *v = t + 12;
		size_t vn = tn - 12;

		*have_name = 1;
		trim(&v, &vn);
		if (!(vn == 4 && memcmp(v, "null", 4) == 0))
			out->name = mkstr(v, vn);
	}
}

enum gfxstat_parse_res gfxstat_pkg_version_parse(const char *s, size_t n, const char *pkg,
						 struct gfxstat_pkg_version *out)
{
	const char *p = s, *end = s + n, *ls;
	size_t ln, head = 0;
	int in = 0, mine = 0, have_code = 0, have_name = 0;

	out->pkg = mkstr(NULL, 0);
	out->name = mkstr(NULL, 0);
	out->code = -1;
	if (!s)
		return GFXSTAT_PARSE_FAIL;
	while (next_line(&p, end, &ls, &ln)) {
		const char *t = ls;
		size_t tn = ln, ind = indent_of(ls, ln);
		struct gfxstat_str name;

		trim(&t, &tn);
		if (!tn)
			continue;
		if (in && ind <= head) {
			/* the block ended: the first one of the package is the one */
			if (mine)
				break;
			in = 0;
		}
		if (!in) {
			if (package_header(t, tn, &name))
				continue;
			in = 1;
			head = ind;
			out->pkg = name;
			mine = !pkg || str_is(name, pkg);
			continue;
		}
		if (!mine && pkg && starts(t, tn, "compat name=") &&
		    str_is(mkstr(t + 12, tn - 12), pkg))
			mine = 1;
		if (mine)
			version_line(t, tn, &have_code, &have_name, out);
	}
	if (!in || !mine) {
		out->pkg = mkstr(NULL, 0);
		return GFXSTAT_PARSE_FAIL;
	}
	return out->name.n || out->code >= 0 ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_UNSUPPORTED;
}
