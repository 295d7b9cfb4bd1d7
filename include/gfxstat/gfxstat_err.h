/* SPDX-License-Identifier: MIT */
/*
 * gfxstat error codes, defined once in an X-macro (as libtraceevent's TEP_ERRORS).
 * Codes are negative and offset away from errno, so gfxstat_strerror() can take both.
 * Once a code ships its value never changes: retired codes keep their slot.
 */
#ifndef GFXSTAT_ERR_H
#define GFXSTAT_ERR_H

#define GFXSTAT_ERRORS(E)                                                   \
	E(NOMEM, "out of memory")                                           \
	E(INVAL, "invalid argument")                                        \
	E(LINE_TOO_LONG, "line over the length limit")                      \
	E(BAD_TIMESTAMP, "malformed timestamp")                             \
	E(BAD_LINE, "not an ftrace event line")                             \
	E(BAD_MARKER, "malformed atrace marker")                            \
	E(NO_EVENTS, "no ftrace events in the input")                       \
	E(LIMIT, "a size limit was reached")                                \
	E(ABORTED, "stopped by the caller")                                 \
	E(OVERLAP, "inputs of one recording overlap in time")               \
	E(UNSUPPORTED, "needs a library this build or host does not have")  \
	E(IO, "a temporary file in $TMPDIR could not be read back")

#define GFXSTAT_E__(code, msg) GFXSTAT_E_##code,
enum gfxstat_errno {
	GFXSTAT_E_OK = 0,
	GFXSTAT_E__START = -100000, /* don't clash with errno */
	GFXSTAT_ERRORS(GFXSTAT_E__)
	GFXSTAT_E__END
};
#undef GFXSTAT_E__

/**
 * gfxstat_strerror() - message for a gfxstat error code or an errno value
 * @err: a negative GFXSTAT_E_* code, or an errno value (positive or negated)
 *
 * Return: a static string; never NULL.
 */
const char *gfxstat_strerror(int err);

#endif
