/* SPDX-License-Identifier: MIT */
/*
 * Containers around trace text, unwrapped as a streaming push filter, and format sniffing.
 *
 * Ownership: gfxstat_unwrap_new() pairs with gfxstat_unwrap_free(), which accepts NULL; the
 * bytes handed to a gfxstat_bytes_fn borrow the unwrapper's memory and are valid only during
 * that call. The caller owns the counters it passes in. Memory is bounded whatever the input:
 * nothing is ever held whole (an HTML file, a base64 block or a 30 MB JavaScript line).
 */
#ifndef GFXSTAT_CONTAINER_H
#define GFXSTAT_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"

/* What a stream (or one layer of it) is. Values are stable once shipped. */
#define GFXSTAT_FORMATS(F)                                                                 \
	F(UNKNOWN, "unknown", "nothing recognised (binary, or empty)")                    \
	F(TEXT, "text", "text of no known format")                                        \
	F(FTRACE_TEXT, "ftrace-text", "ftrace/atrace text (trace, trace_pipe)")           \
	F(ATRACE, "atrace", "atrace output: lines up to 'TRACE:', then the trace")        \
	F(ATRACE_Z, "atrace-z", "atrace -z output: 'TRACE:' then a zlib stream")          \
	F(SYSTRACE_HTML, "systrace-html", "systrace/catapult HTML with trace-data blocks") \
	F(SYSTRACE_JS, "systrace-js", "2012 systrace HTML: var linuxPerfData = \"...\"")  \
	F(VIEWER_DATA, "viewer-data", "trace2html base64 (+ gzip) viewer-data block")     \
	F(GZIP, "gzip", "gzip-compressed stream")                                         \
	F(ZLIB, "zlib", "zlib (RFC 1950) stream")                                         \
	F(ZIP, "zip", "zip archive (systrace .zip): its one trace member is read")         \
	F(UTF16LE, "utf-16le", "UTF-16LE text (a byte-order mark, or mostly ASCII)")      \
	F(UTF16BE, "utf-16be", "UTF-16BE text (a byte-order mark, or mostly ASCII)")      \
	F(PERFETTO, "perfetto", "Perfetto protobuf trace (passed through raw)")           \
	F(JSON, "json", "JSON (Chrome trace events); not a frame source here")            \
	F(SF_LATENCY, "sf-latency", "dumpsys SurfaceFlinger --latency <layer>")           \
	F(SF_LIST, "sf-list", "dumpsys SurfaceFlinger --list")                            \
	F(GFXINFO, "gfxinfo", "dumpsys gfxinfo [<pkg> [framestats]]")

#define GFXSTAT_FMT__(id, name, doc) GFXSTAT_FMT_##id,
enum gfxstat_format {
	GFXSTAT_FORMATS(GFXSTAT_FMT__)
	GFXSTAT_FMT_COUNT
};
#undef GFXSTAT_FMT__

/**
 * gfxstat_format_name() - short name of a format, e.g. "systrace-html"
 * gfxstat_format_doc() - one-line description of a format
 * @f: one of GFXSTAT_FMT_*; anything else gives "unknown"
 */
const char *gfxstat_format_name(enum gfxstat_format f);
const char *gfxstat_format_doc(enum gfxstat_format f);

/**
 * gfxstat_detect() - sniff the format of a stream from its first bytes
 * @head: the first bytes of the stream (512 or more is plenty; fewer is fine)
 * @n: how many
 *
 * Pure: looks at @head only. Containers are named by their outer layer (a gzip file is
 * GFXSTAT_FMT_GZIP whatever it holds; gfxstat_unwrap_layers() tells the rest). Text is
 * classified from its first lines, after a UTF-8 BOM and blank lines:
 *   "# tracer", or an ftrace event line                       FTRACE_TEXT
 *   a line "TRACE:" within the first lines                    ATRACE or ATRACE_Z
 *   "<!DOCTYPE", "<html", "<head", "<body", "<script", "<!--", "<meta", "<?xml" (any case)
 *                                                             SYSTRACE_HTML
 *   "Applications Graphics Acceleration Info:", "** Graphics info for pid", "Stats since:",
 *   "Total frames rendered:", "---PROFILEDATA---", "Profile data in ms:"   GFXINFO
 *   one integer, then rows of three integers (optionally after the "SurfaceFlinger appears
 *   to be unresponsive" warning)                              SF_LATENCY
 *   most lines end in "#<digits>", or "RequestedLayerState{"  SF_LIST
 *   '{' or '['                                                JSON
 * Binary: 1f 8b GZIP; 78 01/5e/9c/da ZLIB; "PK\3\4" ZIP; FF FE / FE FF UTF16LE / UTF16BE;
 * 0a <varint> 08|10|... (a TracePacket field 1) PERFETTO. UTF-16 without a byte-order mark:
 * 8 bytes or more, no 0 unit in the first 64 and three units in four a text byte (printable
 * Latin-1, tab, CR, LF) with a 0 high byte: UTF16LE when the 0 comes second, UTF16BE when
 * first. Lines end in LF (CRs before it dropped), or in CR when the first line end is a
 * lone CR.
 * Return: the format; GFXSTAT_FMT_UNKNOWN for @n == 0.
 */
enum gfxstat_format gfxstat_detect(const void *head, size_t n);

/* ---------------------------------------------------------------------------------------- */
/* Counters of the unwrapper: F(name, severity, "what it counts"), as GFXSTAT_STATS          */

#define GFXSTAT_UNWRAP_STATS(F)                                                            \
	F(in_bytes, INFO, "container bytes read")                                          \
	F(out_bytes, INFO, "trace bytes passed on")                                        \
	F(html_blocks, INFO, "systrace trace-data blocks")                                 \
	F(html_text_blocks, INFO, "trace-data blocks of ftrace text passed on")            \
	F(html_json_blocks, INFO, "trace-data blocks of JSON skipped")                     \
	F(html_dump_blocks, INFO, "trace-data PROCESS DUMP / CGROUP DUMP blocks (not trace)") \
	F(html_other_blocks, WARN, "trace-data blocks of unknown content skipped")         \
	F(html_tag_too_long, WARN, "HTML tags over the length limit, skipped")             \
	F(prelude_lines, INFO, "lines before atrace's 'TRACE:' dropped")                   \
	F(crlf_collapsed, INFO, "CRLF pairs collapsed before decompressing (adb shell pty)") \
	F(multi_members, INFO, "further gzip members read")                                \
	F(nesting_too_deep, ERROR, "containers nested deeper than the limit, skipped")    \
	F(corrupt, ERROR, "corrupt compressed data or base64: the rest was skipped")       \
	F(truncated, ERROR, "input ended inside a container (compressed stream, block)")   \
	F(trailing_garbage, WARN, "bytes after the end of a compressed stream, skipped")   \
	F(utf16_bad, WARN, "unpaired UTF-16 surrogates or odd bytes, replaced by U+FFFD") \
	F(js_bad_escape, WARN, "malformed escapes in a linuxPerfData string, kept as-is")  \
	F(zip_skipped, ERROR, "zip archives not read: this build cannot read zip; unzip first") \
	F(dump_processes, INFO, "processes named by a PROCESS DUMP (both snapshots)")      \
	F(dump_threads, INFO, "threads named by a PROCESS DUMP (both snapshots)")          \
	F(dump_bad_lines, WARN, "PROCESS DUMP lines not understood or too long, skipped")  \
	F(zip_members, INFO, "zip members read")                                          \
	F(zip_damaged, ERROR, "damaged zip archives (no readable directory or member), not read") \
	F(zip_too_big, ERROR, "zip archives from a stream over the size limit (pass the file)") \
	F(zip_no_trace, ERROR, "zip archives without a trace ('gfxstat unwrap' lists them)") \
	F(zip_several, ERROR, "zip archives with several traces, none read ('gfxstat unwrap' " \
			      "lists them)")                                               \
	F(utf16_no_bom, INFO, "UTF-16 streams without a byte-order mark, read as UTF-16")  \
	F(cr_line_ends, INFO, "text streams whose lines end in CR only, read as lines")    \
	F(text_nul, WARN, "text streams holding NUL bytes (UTF-16 with no byte-order mark?)")

#define GFXSTAT_UNWRAP_STAT__(name, sev, doc) GFXSTAT_UNWRAP_STAT_##name,
enum gfxstat_unwrap_stat {
	GFXSTAT_UNWRAP_STATS(GFXSTAT_UNWRAP_STAT__)
	GFXSTAT_UNWRAP_STAT_COUNT
};
#undef GFXSTAT_UNWRAP_STAT__

struct gfxstat_unwrap_stats {
	uint64_t v[GFXSTAT_UNWRAP_STAT_COUNT];
};

/**
 * gfxstat_unwrap_stat_name() - short name of an unwrap counter, e.g. "corrupt"
 * gfxstat_unwrap_stat_doc() - one-line description
 * gfxstat_unwrap_stat_severity() - how much a non-zero value matters
 */
const char *gfxstat_unwrap_stat_name(enum gfxstat_unwrap_stat s);
const char *gfxstat_unwrap_stat_doc(enum gfxstat_unwrap_stat s);
enum gfxstat_severity gfxstat_unwrap_stat_severity(enum gfxstat_unwrap_stat s);

/* ---------------------------------------------------------------------------------------- */
/* The unwrapper                                                                             */

/* Receives decoded bytes, in chunks of any size. Return non-zero to stop. */
typedef int (*gfxstat_bytes_fn)(void *user, const void *buf, size_t n);

struct gfxstat_unwrap;

/* How deep containers may nest (gzip > HTML > base64 > gzip > text is 4). */
#define GFXSTAT_UNWRAP_MAX_DEPTH 6

/**
 * gfxstat_unwrap_new() - make an unwrapper that passes decoded trace bytes to @out
 * @out: called with the decoded bytes
 * @user: passed to @out
 * @stats: counters to update (see GFXSTAT_UNWRAP_STATS); may be NULL
 *
 * The first bytes decide what the stream is (as gfxstat_detect()):
 *   - text: passed on, a UTF-8 BOM dropped, "\r\n" and "\r\r\n" line ends made "\n";
 *   - atrace output: lines up to "TRACE:" dropped, then text or a zlib stream (-z); when
 *     the "TRACE:" line ends in "\r\n" or "\r\r\n" the zlib bytes are taken to have gone
 *     through a pty (adb shell) and that rewriting is undone first, as catapult does;
 *   - systrace HTML: each <script class="trace-data"> block and each trace2html
 *     <script id="viewer-data"> block (base64, then gzip if it starts with 1f 8b) is
 *     unwrapped in turn; blocks of ftrace text are passed on, JSON and CGROUP DUMP blocks
 *     are skipped and counted, a PROCESS DUMP block goes to the task callback (see
 *     gfxstat_unwrap_set_task_fn()); the 2012 form (var linuxPerfData = "...\n\) is
 *     decoded from its JavaScript string;
 *   - gzip (several members too) and zlib: decompressed, and what they hold unwrapped;
 *   - UTF-16LE/BE with a BOM: converted to UTF-8, then unwrapped;
 *   - Perfetto protobuf: passed on raw, byte for byte;
 *   - a zip archive (how systrace files are shared): its one trace member, the one whose
 *     first bytes gfxstat_detect() takes for a trace or a container of one (or the only
 *     member, whatever it is), is unwrapped at the end of the stream. An archive with no
 *     such member or several is not read and counted (zip_no_trace, zip_several), with the
 *     names in gfxstat_unwrap_zip_names(). libzip needs random access: a stream is held
 *     whole up to a limit (256 MiB, see gfxstat_unwrap_set_zip_limit()), a regular file
 *     named by gfxstat_unwrap_set_path() is opened again instead. A build without libzip
 *     (the phone's) passes nothing on and counts zip_skipped.
 * Blocks passed on are separated by a '\n' when one does not end with it.
 * Return: NULL when out of memory.
 */
struct gfxstat_unwrap *gfxstat_unwrap_new(gfxstat_bytes_fn out, void *user,
					  struct gfxstat_unwrap_stats *stats);
void gfxstat_unwrap_free(struct gfxstat_unwrap *u);

/**
 * gfxstat_unwrap_feed() - push a chunk of the container; chunks may be cut anywhere
 * Return: 0, GFXSTAT_E_ABORTED if @out asked to stop, or GFXSTAT_E_NOMEM. Corrupt input is
 * counted, never an error: the rest of the broken layer is skipped.
 */
int gfxstat_unwrap_feed(struct gfxstat_unwrap *u, const void *buf, size_t n);

/**
 * gfxstat_unwrap_finish() - end of input: flush what is held, count an unfinished layer
 * Return: as gfxstat_unwrap_feed(). The unwrapper can then be fed a new stream, which is
 * sniffed afresh.
 */
int gfxstat_unwrap_finish(struct gfxstat_unwrap *u);

/*
 * Receives one entry of a systrace PROCESS DUMP. @tid is 0 for a process entry, whose @name
 * is ps's NAME column (the package for an app, e.g. "com.tencent.mm:push"); @tid > 0 for a
 * thread of process @pid, whose @name is the thread's comm (at most 15 bytes, may hold
 * spaces). @name borrows the unwrapper's memory: valid during the call only. Return non-zero
 * to stop.
 */
typedef int (*gfxstat_task_fn)(void *user, int32_t pid, int32_t tid, struct gfxstat_str name);

/**
 * gfxstat_unwrap_set_task_fn() - receive the names a systrace PROCESS DUMP block gives
 * @u: the unwrapper (call before the first feed)
 * @fn: called once per process and per thread entry as its line arrives; NULL: none
 * @user: passed to @fn
 *
 * systrace's android_process_data agent snapshots ps when tracing starts and again when it
 * stops, so a pid usually comes twice: keep the last entry (as catapult's importer does) to
 * get the names at the end of the trace. Both forms the agent writes are read:
 *   "ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM && ps -AT -o USER,PID,TID,CMD"
 *   "ps && ps -t" (legacy toolbox: a thread line shows its tid as PID and its process as
 *   PPID; a line whose PID is a process of the first table is that process's main thread).
 * Each line is handled on its own (lines over 512 bytes are counted and skipped); memory is
 * bounded (the legacy form keeps a set of at most 8192 process ids).
 */
void gfxstat_unwrap_set_task_fn(struct gfxstat_unwrap *u, gfxstat_task_fn fn, void *user);

/**
 * gfxstat_unwrap_set_path() - the stream fed next is the regular file at @path
 * @u: the unwrapper, before the stream's first byte
 * @path: the file; NULL or "-" (standard input): none
 *
 * Only a zip archive uses it: libzip then reads the file's directory and the one member
 * from the file itself instead of holding the whole stream. The file must not change while
 * it is read. Cleared by gfxstat_unwrap_finish().
 * Return: 0 or GFXSTAT_E_NOMEM.
 */
int gfxstat_unwrap_set_path(struct gfxstat_unwrap *u, const char *path);

/**
 * gfxstat_unwrap_set_zip_limit() - most bytes of a zip archive held from a stream
 * @u: the unwrapper
 * @bytes: the limit (0: the default, 256 MiB); a larger archive is counted (zip_too_big)
 */
void gfxstat_unwrap_set_zip_limit(struct gfxstat_unwrap *u, size_t bytes);

/**
 * gfxstat_unwrap_zip_names() - the members of the last zip archive that was not read
 * because it held no trace member or several, "a.html, b.html" (cut with "..." past about
 * 500 bytes); "" when there was none. Valid until the next feed.
 */
const char *gfxstat_unwrap_zip_names(const struct gfxstat_unwrap *u);

/**
 * gfxstat_unwrap_zip_support() - 1 when this build reads zip archives (libzip), else 0
 */
int gfxstat_unwrap_zip_support(void);

/**
 * gfxstat_unwrap_kind() - the outer format detected (GFXSTAT_FMT_UNKNOWN before the first
 * bytes decided it)
 */
enum gfxstat_format gfxstat_unwrap_kind(const struct gfxstat_unwrap *u);

/**
 * gfxstat_unwrap_layers() - every layer detected, outermost first, e.g.
 * GZIP, SYSTRACE_HTML, FTRACE_TEXT
 * @out: filled with up to @max formats
 * Return: the number of layers (may exceed @max). For HTML, the inner layer is that of the
 * first block passed on.
 */
int gfxstat_unwrap_layers(const struct gfxstat_unwrap *u, enum gfxstat_format *out, int max);

#endif
