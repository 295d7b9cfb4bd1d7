/* SPDX-License-Identifier: MIT */
/*
 * gfxstat_shell_quote(), the one way a string reaches the phone's shell: every byte value,
 * alone and inside a word, quoted and read back by a real shell (/bin/sh, and mksh, Android's
 * shell, where it is installed) and by gfxstat_shell_unquote(); hostile layer names; NUL
 * refused; the room needed, and a word never cut short.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "gfxstat/gfxstat_capture.h"
#include "gfxstat/gfxstat_err.h"

#define WORDS_MAX 1024

struct words {
	char *w[WORDS_MAX];
	size_t n[WORDS_MAX];
	int count;
};

static void add(struct words *ws, const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p || ws->count == WORDS_MAX) {
		free(p);
		CHECK(!"test words");
		return;
	}
	memcpy(p, s, n);
	p[n] = 0;
	ws->w[ws->count] = p;
	ws->n[ws->count++] = n;
}

static void words_free(struct words *ws)
{
	int i;

	for (i = 0; i < ws->count; i++)
		free(ws->w[i]);
	ws->count = 0;
}

/* Names an app can give its windows and SurfaceViews, as `--list` would show them. */
static const char *const hostile[] = {
	"X'$(touch PWN)'#0", "com.x/X'`touch PWN`'#0", "a;touch PWN;b", "a && touch PWN",
	"a | touch PWN", "$(touch PWN)", "`touch PWN`", "${HOME}", "$HOME", "a\ntouch PWN",
	"a\\", "\\'", "\"", "\"$(touch PWN)\"", "'", "''", "'\\''", "", " ", "-n", "*", "~",
	"#0", "!", "{a,b}", "a=b", ">PWN", "<x", "(x)", "a\tb", "\r", "\xff\xfe", "%s%n",
	"SurfaceView[com.x/com.x.A](BLAST)#92", "com.example.app2/com.example.app2.MainActivity#0",
};

/* Every byte 1-255 alone and between 'a' and 'z', and the hostile names. */
static void all_words(struct words *ws)
{
	char w[3];
	size_t i;
	int b;

	for (b = 1; b < 256; b++) {
		w[0] = (char)b;
		add(ws, w, 1);
		w[0] = 'a';
		w[1] = (char)b;
		w[2] = 'z';
		add(ws, w, 3);
	}
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
		add(ws, hostile[i], strlen(hostile[i]));
}

/* @n bytes appended to a growing buffer. Return: 0, or -1 out of memory. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*len + n + 1) * 2;
		char *p = realloc(*buf, c);

		if (!p)
			return -1;
		*buf = p;
		*cap = c;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
	return 0;
}

/*
 * Run `SHELL -c SCRIPT` in a fresh folder and collect its standard output.
 * Return: the exit status, or -1 when it could not run.
 */
static int run_shell(const char *shell, const char *script, char **out, size_t *out_n)
{
	int fd[2], st;
	size_t cap = 0;
	pid_t pid;

	*out = NULL;
	*out_n = 0;
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(shell, shell, "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		char tmp[4096];
		ssize_t k = read(fd[0], tmp, sizeof(tmp));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || append(out, out_n, &cap, tmp, (size_t)k))
			break;
	}
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Every word, quoted, printed back by @shell: the script is one `printf '%s|' WORD` line per
 * word, so the output must be each word's own bytes, then '|', in order. A quote that let
 * the shell read anything (a $(...), a ;, a newline) would print something else, or fail.
 */
static void round_trip(const char *shell, const struct words *ws)
{
	char *script = NULL, *want = NULL, *got = NULL, q[64];
	size_t sl = 0, sc = 0, wl = 0, wc = 0, gl = 0, ql;
	int k, rc, ok = 1;

	for (k = 0; k < ws->count && ok; k++) {
		ok = gfxstat_shell_quote(ws->w[k], ws->n[k], q, sizeof(q), &ql) == 0 &&
		     !append(&script, &sl, &sc, "printf '%s|' ", 13) &&
		     !append(&script, &sl, &sc, q, ql) && !append(&script, &sl, &sc, "\n", 1) &&
		     !append(&want, &wl, &wc, ws->w[k], ws->n[k]) &&
		     !append(&want, &wl, &wc, "|", 1);
	}
	CHECK(ok);
	rc = ok ? run_shell(shell, script, &got, &gl) : -1;
	CHECK_EQ(rc, 0);
	CHECK_EQ(gl, wl);
	ok = got && gl == wl && !memcmp(got, want, wl);
	CHECK(ok);
	if (!ok && got) {
		/* name the first word read back wrong */
		size_t off = 0;

		for (k = 0; k < ws->count; k++) {
			if (off + ws->n[k] + 1 > gl ||
			    memcmp(got + off, ws->w[k], ws->n[k]) || got[off + ws->n[k]] != '|')
				break;
			off += ws->n[k] + 1;
		}
		fprintf(stderr, "  %s read word %d back wrong (its first byte 0x%02x)\n", shell, k,
			k < ws->count && ws->n[k] ? (unsigned char)ws->w[k][0] : 0);
	}
	/* no hostile name ran its command */
	CHECK(access("PWN", F_OK) != 0);
	free(script);
	free(want);
	free(got);
}

TEST(through_real_shells)
{
	static const char *const shells[] = { "/bin/sh", "/bin/mksh", "/usr/bin/mksh" };
	struct words ws = { { NULL }, { 0 }, 0 };
	char dir[] = "/tmp/gfxstat-quote-XXXXXX", old[4096];
	size_t i;
	int mksh = 0;

	all_words(&ws);
	/* 255 bytes alone + 255 inside "a?z" + the hostile names */
	CHECK_EQ(ws.count, 510 + (int)(sizeof(hostile) / sizeof(hostile[0])));
	/* in a folder of its own: a command that escaped would leave PWN there */
	if (!getcwd(old, sizeof(old)) || !mkdtemp(dir) || chdir(dir)) {
		CHECK(!"scratch folder");
		words_free(&ws);
		return;
	}
	for (i = 0; i < sizeof(shells) / sizeof(shells[0]); i++) {
		if (access(shells[i], X_OK) || (i == 2 && mksh))
			continue;
		mksh += i > 0;
		round_trip(shells[i], &ws);
	}
	if (!mksh)
		fprintf(stderr, "test_shell_quote: mksh (Android's shell) not installed: checked "
			"with /bin/sh only\n");
	unlink("PWN");
	if (chdir(old) || rmdir(dir))
		CHECK(!"scratch folder removed");
	words_free(&ws);
}

TEST(unquote_inverts)
{
	struct words ws = { { NULL }, { 0 }, 0 };
	char q[64], back[64];
	size_t ql, bl;
	unsigned seed = 12345;
	int k, i;

	all_words(&ws);
	for (k = 0; k < ws.count; k++) {
		CHECK_EQ(gfxstat_shell_quote(ws.w[k], ws.n[k], q, sizeof(q), &ql), 0);
		CHECK_EQ(ql, strlen(q));
		CHECK_EQ(gfxstat_shell_unquote(q, ql, back, sizeof(back), &bl), 0);
		CHECK(bl == ws.n[k] && !memcmp(back, ws.w[k], bl));
	}
	words_free(&ws);
	/* random words of 0-12 bytes 1-255 (an LCG: the same words every run) */
	for (i = 0; i < 2000; i++) {
		char w[12];
		int n, j, ok;

		seed = seed * 1103515245u + 12345u;
		n = (int)(seed >> 16) % 13;
		for (j = 0; j < n; j++) {
			seed = seed * 1103515245u + 12345u;
			w[j] = (char)(1 + (seed >> 16) % 255);
		}
		ok = gfxstat_shell_quote(w, (size_t)n, q, sizeof(q), &ql) == 0 &&
		     gfxstat_shell_unquote(q, ql, back, sizeof(back), &bl) == 0 &&
		     bl == (size_t)n && !memcmp(back, w, bl);
		CHECK(ok);
	}
}

TEST(exact_words)
{
	char q[64];
	size_t ql = 99;

	/* only A-Z a-z 0-9 _ - . / : , + @ %: left bare */
	CHECK_EQ(gfxstat_shell_quote("com.example.app2", 16, q, sizeof(q), &ql), 0);
	CHECK_CSTR(q, "com.example.app2");
	CHECK_EQ(ql, 16);
	CHECK_EQ(gfxstat_shell_quote("/sys/kernel/tracing/trace_pipe", 30, q, sizeof(q), NULL), 0);
	CHECK_CSTR(q, "/sys/kernel/tracing/trace_pipe");
	/* anything else: between single quotes; a quote is '\'' (close, \', reopen) */
	CHECK_EQ(gfxstat_shell_quote("", 0, q, sizeof(q), &ql), 0);
	CHECK_CSTR(q, "''");
	CHECK_EQ(gfxstat_shell_quote("a b", 3, q, sizeof(q), NULL), 0);
	CHECK_CSTR(q, "'a b'");
	CHECK_EQ(gfxstat_shell_quote("a=b", 3, q, sizeof(q), NULL), 0);
	CHECK_CSTR(q, "'a=b'");
	CHECK_EQ(gfxstat_shell_quote("com.x/A#0", 9, q, sizeof(q), NULL), 0);
	CHECK_CSTR(q, "'com.x/A#0'");
	CHECK_EQ(gfxstat_shell_quote("X'$(touch PWN)'#0", 17, q, sizeof(q), NULL), 0);
	CHECK_CSTR(q, "'X'\\''$(touch PWN)'\\''#0'");
	CHECK_EQ(gfxstat_shell_quote("'", 1, q, sizeof(q), &ql), 0);
	CHECK_CSTR(q, "''\\'''");
	CHECK_EQ(ql, 6);
}

TEST(nul_and_room)
{
	char q[32] = "junk";
	size_t ql = 99;

	/* a NUL cannot be in an argv word: refused, never cut at */
	CHECK_EQ(gfxstat_shell_quote("a\0b", 3, q, sizeof(q), &ql), GFXSTAT_E_INVAL);
	CHECK_CSTR(q, "");
	CHECK_EQ(ql, 0);
	CHECK_EQ(gfxstat_shell_quote("\0", 1, q, sizeof(q), NULL), GFXSTAT_E_INVAL);
	/* "'" is ''\''' : 4 bytes for the quote + 2 around it + the NUL = 7 */
	CHECK_EQ(gfxstat_shell_quote("'", 1, q, 6, NULL), GFXSTAT_E_LIMIT);
	CHECK_CSTR(q, "");
	CHECK_EQ(gfxstat_shell_quote("'", 1, q, 7, NULL), 0);
	/* the bound 4n + 3: five quotes take 4 * 5 + 2 = 22 bytes and the NUL */
	CHECK_EQ(gfxstat_shell_quote("'''''", 5, q, 22, NULL), GFXSTAT_E_LIMIT);
	CHECK_EQ(gfxstat_shell_quote("'''''", 5, q, 23, &ql), 0);
	CHECK_EQ(ql, 22);
	/* bare "abc": 3 bytes and the NUL */
	CHECK_EQ(gfxstat_shell_quote("abc", 3, q, 3, NULL), GFXSTAT_E_LIMIT);
	CHECK_EQ(gfxstat_shell_quote("abc", 3, q, 4, NULL), 0);
	CHECK_EQ(gfxstat_shell_quote("abc", 3, q, 0, NULL), GFXSTAT_E_LIMIT);
}

TEST(unquote_refuses)
{
	static const char *const bad[] = { "", "a b", "\"x\"", "$x", "'open", "\\x", "a'b",
					   "`id`", "a;b", "x\n", "'a'\\" };
	char out[32];
	size_t i;

	/* only what gfxstat_shell_quote() writes: anything else a shell would read otherwise */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(gfxstat_shell_unquote(bad[i], strlen(bad[i]), out, sizeof(out), NULL),
			 GFXSTAT_E_INVAL);
	/* a NUL even between quotes: no word quote writes holds one (found by the fuzzer) */
	CHECK_EQ(gfxstat_shell_unquote("'b\0\n \0'", 7, out, sizeof(out), NULL), GFXSTAT_E_INVAL);
	CHECK_EQ(gfxstat_shell_unquote("'a b'", 5, out, sizeof(out), NULL), 0);
	CHECK_CSTR(out, "a b");
	/* "a b" and the NUL: 4 bytes */
	CHECK_EQ(gfxstat_shell_unquote("'a b'", 5, out, 3, NULL), GFXSTAT_E_LIMIT);
	CHECK_EQ(gfxstat_shell_unquote("'a b'", 5, out, 4, NULL), 0);
}

TEST(grammars)
{
	/* --app: a package or process name */
	CHECK(gfxstat_capture_app_valid("com.example.app2"));
	CHECK(gfxstat_capture_app_valid("com.example.app:remote"));
	CHECK(gfxstat_capture_app_valid("system_server"));
	CHECK(!gfxstat_capture_app_valid(""));
	CHECK(!gfxstat_capture_app_valid(NULL));
	CHECK(!gfxstat_capture_app_valid("com.a;reboot;x"));
	CHECK(!gfxstat_capture_app_valid("com.a b"));
	CHECK(!gfxstat_capture_app_valid("com.a'"));
	CHECK(!gfxstat_capture_app_valid("$(reboot)"));
	CHECK(!gfxstat_capture_app_valid("com.a/x"));
	/* --categories: words of [A-Za-z0-9_], spaces or commas between */
	CHECK(gfxstat_capture_categories_valid("gfx view input"));
	CHECK(gfxstat_capture_categories_valid("gfx,view, input"));
	CHECK(gfxstat_capture_categories_valid("sched_freq"));
	CHECK(!gfxstat_capture_categories_valid(""));
	CHECK(!gfxstat_capture_categories_valid(" , "));
	CHECK(!gfxstat_capture_categories_valid("gfx $(reboot)"));
	CHECK(!gfxstat_capture_categories_valid("gfx'"));
	CHECK(!gfxstat_capture_categories_valid("gfx;reboot"));
	CHECK(!gfxstat_capture_categories_valid("gfx\nview"));
	{
		/* GFXSTAT_CATEGORIES_MAX words at most: "a a a ..." */
		char many[2 * GFXSTAT_CATEGORIES_MAX + 3];
		int i;

		for (i = 0; i <= GFXSTAT_CATEGORIES_MAX; i++) {
			many[2 * i] = 'a';
			many[2 * i + 1] = ' ';
		}
		many[2 * GFXSTAT_CATEGORIES_MAX] = 0; /* 64 words */
		CHECK(gfxstat_capture_categories_valid(many));
		many[2 * GFXSTAT_CATEGORIES_MAX] = 'a'; /* 65 */
		many[2 * GFXSTAT_CATEGORIES_MAX + 1] = 0;
		CHECK(!gfxstat_capture_categories_valid(many));
	}
}

TEST_SUITE(test_shell_quote)
{
	RUN(exact_words);
	RUN(nul_and_room);
	RUN(unquote_inverts);
	RUN(unquote_refuses);
	RUN(through_real_shells);
	RUN(grammars);
}
