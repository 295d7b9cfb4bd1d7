# gfx_ref.awk -- independent reference implementation of `gfxstat gfx`.
#
# This is the awk program of the android_FPS_frome_GFX article (gfx.sh, the
# `$bb awk -F "|" ... BEGIN{...}` block), rewritten as a plain POSIX awk main
# loop that reads an ftrace text trace on stdin, with six bugs fixed:
#   1. FPS is compared with the target numerically (not as text);
#   2. -f/frames is honoured (the seed passed `fames`), numerically;
#   3. info lists every counter name of the vsync (the seed had `if(info="")`);
#   4. type 1/3 drop rows no longer also require the vsync gap > period;
#   5. the timestamp is found with or without the `(tgid)` column;
#   6. SurfaceTexture-* names are folded into "SurfaceTexture".
# Types 3/4 also keep updating V[p] (in the seed it never advanced).
# See README.md in this directory for the exact semantics and how to run it.
#
# Usage (mawk 1.3.4 or gawk --posix):
#   mawk -f gfx_ref.awk -v target=60 -v kpi=100 -v type=0 -v delay=1 \
#        -v frames=20 -v sync=16.666667 -v focus=unknown \
#        -v csv=OUT/fps.csv -v csv1=OUT/dropFrames.csv < trace.txt
#
# Writes rows only (no header). All times are integer microseconds internally.

# ---------------------------------------------------------------- helpers

# Print a number the way awk's `print` prints it: integral -> integer,
# otherwise %.6g.  %.0f is used for integers because mawk's %d saturates at
# 2^31-1.
function num(x) {
    if (x == int(x)) {
        if (x == 0) return "0"
        return sprintf("%.0f", x)
    }
    return sprintf("%.6g", x)
}

# Double every `"` (CSV quoting of the text between quotes).
function csvq(s,    r, i) {
    r = ""
    while ((i = index(s, "\"")) > 0) {
        r = r substr(s, 1, i) "\""
        s = substr(s, i + 1)
    }
    return r s
}

# round(s * 10^scale) for a decimal string s, exactly when s is a plain
# non-negative decimal (digits, optional '.', digits); round half up.
# Anything else (sign, exponent, garbage) falls back to floating point.
function scaled(s, scale,    t, dot, ip, fp, r, x, pad) {
    t = s
    gsub(/^[ \t]+|[ \t]+$/, "", t)
    if (t ~ /^[0-9]*\.?[0-9]*$/ && t ~ /[0-9]/) {
        dot = index(t, ".")
        if (dot) { ip = substr(t, 1, dot - 1); fp = substr(t, dot + 1) }
        else     { ip = t; fp = "" }
        pad = fp
        while (length(pad) < scale + 1) pad = pad "0"
        r = (ip + 0)
        for (x = 0; x < scale; x++) r = r * 10
        r = r + (substr(pad, 1, scale) + 0)
        if (substr(pad, scale + 1, 1) + 0 >= 5) r = r + 1
        return r
    }
    x = s + 0
    for (r = 0; r < scale; r++) x = x * 10
    if (x >= 0) return int(x + 0.5)
    return -int(-x + 0.5)
}

# "<sec>.<frac>" -> integer microseconds (fraction truncated/padded to 6).
function to_us(ts,    dot) {
    dot = index(ts, ".")
    return (substr(ts, 1, dot - 1) + 0) * 1000000 + (substr(substr(ts, dot + 1) "000000", 1, 6) + 0)
}

# One fps.csv row for key i (16 columns).
function fps_row(i,    n, fps1, fpsv, FPS, g, h, mms, score) {
    n = N[i]
    if (Time[i] == 0) fps1 = "0.0"
    else fps1 = sprintf("%.1f", n * 1000000 / Time[i])
    fpsv = fps1 + 0
    if (fpsv >= target) { FPS = int(fpsv); g = 1 }
    else { FPS = fpsv; g = fpsv / target }
    mms = M[i] / 1000
    if (kpi < mms) h = kpi / mms; else h = 1
    score = sprintf("%.2f", g * 60 + h * 20 + (1 - A[i] / n) * 10 + (1 - B[i] / n) * 7 + (1 - C[i] / n) * 3) + 0
    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", \
        btxt[i], Vtxt[i], num(FPS), num(n), \
        num(sprintf("%.3f", Time[i] / 1000000) + 0), num(mms), \
        num(sprintf("%.3f", StopT[i] / 1000000) + 0), num(Stop[i]), \
        num(A[i]), num(B[i]), num(C[i]), num(D[i]), num(score), i > csv
}

# ---------------------------------------------------------------- BEGIN

BEGIN {
    if (target == "") target = 60
    if (kpi == "")    kpi = 100
    if (type == "")   type = 0
    if (delay == "")  delay = 1
    if (frames == "") frames = 20
    if (sync == "")   sync = 16.666667
    if (focus == "")  focus = "unknown"
    if (csv == "")    csv = "fps.csv"
    if (csv1 == "")   csv1 = "dropFrames.csv"

    period_ns = scaled(sync "", 6)     # round(sync * 1e6)
    delay_ns  = scaled(delay "", 9)    # round(delay * 1e9)
    target = target + 0; kpi = kpi + 0; type = type + 0; frames = frames + 0

    activity = focus
    split(focus, tmp0, "/")
    app = (focus == "") ? "" : tmp0[1]
    if (substr(focus, 1, 1) == "/") app = ""

    # Files exist (possibly empty) for exactly the types that produce them.
    if (type < 3) printf "" > csv
    if (type > 0) printf "" > csv1

    nkeys = 0        # keys[1..nkeys]: keys in order of first credited frame
    seen_vsync = 0
    state = 0; post = 0; TX = 0; sv = ""; info = ""
}

# ---------------------------------------------------------------- main loop

{
    line = $0
    sub(/\r$/, "", line)
    if (substr(line, 1, 1) == "#") next
    # Only counters and B|..|postFramebuffer matter; both contain '|'.
    if (index(line, "|") == 0) next

    # Anchor: [cpu] <optional flags> <sec>.<frac>:<space>
    if (!match(line, /\[[0-9]+\][ \t]+([^ \t:]+[ \t]+)?[0-9]+\.[0-9]+: /)) next
    hdr = substr(line, RSTART, RLENGTH)
    rest = substr(line, RSTART + RLENGTH)
    nh = split(hdr, hp, " ")
    Ttxt = hp[nh]
    sub(/:$/, "", Ttxt)

    if (substr(rest, 1, 20) == "tracing_mark_write: ") payload = substr(rest, 21)
    else if (substr(rest, 1, 3) == "0: ") payload = substr(rest, 4)
    else next

    nf = split(payload, P, "|")
    is_counter = (nf >= 4 && P[1] == "C")
    if (is_counter) {
        name = P[3]
        if (index(name, "VSYNC-sf") || index(name, "VSYNC-app")) {
            on_vsync()
            next
        }
        if (state == 1 && !index(name, "HW_VSYNC_ON_0") && !index(name, "HW_VSYNC_0") \
            && !index(name, "hasClientComposition") && !index(name, "FrameMissed") \
            && !index(name, "FramebufferSurface")) {
            if (type > 0) {
                if (info == "") info = name; else info = info "\n" name
            }
            if (index(name, "TX - ")) {
                TX = 1
            } else {
                sv = name
                if (substr(name, 1, 14) == "SurfaceTexture") sv = "SurfaceTexture"
                if (split(name, ck, ".") > 2 && split(name, sl, "/") > 1 && split(name, ck, " ") == 1) {
                    app = sl[1]
                    activity = name
                }
            }
        }
        next
    }
    if (nf == 3 && P[1] == "B" && P[3] == "postFramebuffer") {
        post = 1
        state = 0
    }
}

function on_vsync(    Tus, SV, p, t, d, wt, has_v, k, i) {
    Tus = to_us(Ttxt)
    if (!seen_vsync) {
        seen_vsync = 1
        f_us = Tus
    } else if (post == 1) {
        SV = (sv != "") ? sv : activity
        p = TX "," app ",\"" csvq(SV) "\""
        t = Tus - VSYNC_us
        d = (t * 1000 > period_ns) ? 1 : 0
        has_v = (p in Vus)
        if (has_v) wt = Tus - Vus[p]
        if (has_v && wt < 500000) {
            if ((type == 1 || type == 3) && wt >= 42000)
                printf "%s,%s,%s,%s,%s,\"%s\"\n", Vtxt[p], Ttxt, num(wt / 1000), name, p, csvq(info) > csv1
            if ((type == 2 || type == 4) && d == 1)
                printf "%s,%s,%s,%s,%s,\"%s\"\n", VSYNC_txt, Ttxt, num(t / 1000), name, p, csvq(info) > csv1
            N[p]++
            Time[p] += wt
            if (!(p in M) || M[p] < wt) M[p] = wt
            if (wt >= 100000) A[p]++
            else if (wt >= 50000) B[p]++
            else if (wt >= 42000) C[p]++
        } else if (p in btxt) {
            Stop[p]++
            StopT[p] += wt
        }
        if (d == 1) D[p]++
        if (!(p in btxt)) {
            btxt[p] = Ttxt
            keys[++nkeys] = p
            N[p] = 0; Time[p] = 0; Stop[p] = 0; StopT[p] = 0
            A[p] = 0; B[p] = 0; C[p] = 0; D[p] = D[p] + 0
        }
        Vus[p] = Tus
        Vtxt[p] = Ttxt

        if ((Tus - f_us) * 1000 >= delay_ns) {
            for (k = 1; k <= nkeys; k++) {
                i = keys[k]
                if (N[i] > frames && N[i] > 0) {
                    if (type < 3) fps_row(i)
                    btxt[i] = Vtxt[i]
                    N[i] = 0; Time[i] = 0; StopT[i] = 0; Stop[i] = 0
                    A[i] = 0; B[i] = 0; C[i] = 0; D[i] = 0
                    delete M[i]
                }
            }
            f_us = Tus
        }
    }
    VSYNC_us = Tus
    VSYNC_txt = Ttxt
    state = 1; post = 0; TX = 0; sv = ""; info = ""
}

# ---------------------------------------------------------------- END

END {
    if (type < 3)
        for (k = 1; k <= nkeys; k++)
            if (N[keys[k]] > 0) fps_row(keys[k])
}
