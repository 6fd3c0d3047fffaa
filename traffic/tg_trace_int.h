/* Trace replay, private: what the `trace` workload kind (tg_wl_trace.c)
 * shares with its format readers (tg_trace_csv.c, tg_trace_hpcc.c,
 * tg_trace_htsim.c, tg_trace_pcap.c): the trace as a list of operations
 * with dependencies, the reader's inputs, the formats' ops table and
 * registry (tg_trace_reg.c), and the pieces every text format needs
 * (lines, fields, numbers, host names, ids, FILE:LINE:COL errors). */
#ifndef FAB_TG_TRACE_INT_H
#define FAB_TG_TRACE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "reg.h"
#include "tg_wl_int.h"

enum {
	TG_TRACE_MAX_OPS = 10000000,   /* operations (messages, triggers) one trace may hold */
	TG_TRACE_MAX_DEPS = 50000000,  /* dependencies of all its operations together */
	TG_TRACE_MAX_CONNS = 10000000, /* pcap: RC connections (address pair and QP) one capture may hold */
	TG_TRACE_WORD_BYTES = 33,      /* a word quoted in an error (tg_trace_word), NUL included */
	TG_TRACE_MAX_FIELDS = 32,      /* fields of one line a reader looks at */
	TG_TRACE_FIELD_BYTES = 256,    /* a field copied out as a string, NUL included */
	TG_TRACE_MAX_DSCP = 63,        /* DSCPs are 6 bits */
};

/* What an operation of a trace is. */
enum tg_trace_kind {
	TG_TRACE_XFER,    /* a message */
	TG_TRACE_JOIN,    /* a point that waits for others and takes no time (an htsim trigger) */
	TG_TRACE_COMPUTE, /* a duration (dur_ps) on participant src (a compute node) */
	TG_TRACE_COLL,    /* a collective (op: enum tg_coll_kind) of bytes (S, as a collective
			   * workload's size) among the participants (src) of what it waits
			   * for, in that order: each one's gate (a join or any operation on
			   * it), which that rank's part waits for */
};

/* One operation, in the trace's own order (a message's row order). */
struct tg_trace_op {
	uint8_t kind;      /* enum tg_trace_kind */
	uint8_t op;        /* transfer: enum tg_op */
	uint8_t dscp;      /* transfer: DSCP of its data */
	uint32_t src;      /* transfer: source participant (tg_wl_int.h) */
	uint32_t dst;      /* transfer: destination participant */
	uint64_t bytes;    /* transfer: message length */
	uint64_t start_ps; /* transfer: not posted before this */
	uint64_t dur_ps;   /* compute: how long it takes */
	uint32_t line;     /* where the trace defines it (1-based line; a frame for pcap) */
	uint32_t dep_off;  /* what it waits for: deps[dep_off .. dep_off + n_deps) of the
			    * trace, indices of any of its operations */
	uint32_t n_deps;   /* their count */
};

/* A trace being read (zero-initialised; tg_trace_free). */
struct tg_trace {
	struct tg_trace_op *ops; /* operations */
	uint32_t n_ops;          /* their count */
	uint32_t cap_ops;        /* allocated */
	uint32_t *deps;          /* the operations' dependency lists, concatenated */
	uint32_t n_deps;         /* their length */
	uint32_t cap_deps;       /* allocated */
};

/* Room for one more element of @size bytes in the array *@v (*@cap
 * allocated, @n used), doubling. 0 or -ENOMEM. */
int tg_trace_grow(void **v, uint32_t *cap, uint32_t n, size_t size);
/* Append @op (its dep_off and n_deps are set here: none yet). 0, -E2BIG
 * past TG_TRACE_MAX_OPS, or -ENOMEM. */
int tg_trace_push(struct tg_trace *tr, const struct tg_trace_op *op);
/* The last operation appended also waits for operation @dep. 0, -E2BIG
 * past TG_TRACE_MAX_DEPS in all, or -ENOMEM. */
int tg_trace_dep(struct tg_trace *tr, uint32_t dep);
void tg_trace_free(struct tg_trace *tr);

/* What a format reader is given. */
struct tg_trace_in {
	const struct topo *topo;     /* participant names */
	const char *path;            /* the trace file, as errors name it */
	const char *text;            /* text formats: the file, NUL-terminated */
	const uint32_t *hosts;       /* node index i of the trace is participant hosts[i] */
	uint32_t n_hosts;            /* their count */
	uint8_t op;                  /* enum tg_op of messages the format gives none */
	uint8_t dscp;                /* DSCP of messages (the dscp key, else nic.dscp) */
	bool dscp_set;               /* the dscp key was given (pcap: it overrides the capture's) */
	bool pg_dscp;                /* hpcc-flow: a flow's pg is its DSCP (key pg: dscp) */
	bool skip_partial;           /* pcap: leave out messages the capture cuts (partial: skip) */
	const struct cfg_node *map;  /* pcap: the map key (address -> name), or NULL */
	const struct cfg_node *at;   /* the file key: errors about a binary trace point here */
	FILE *file;                  /* pcap: the trace, opened and its size checked; the
				      * reader takes it (closes it, whatever it returns) */
	struct tg_nccl_cfg nccl;     /* the NCCL model of its collectives (the nccl key;
				      * off when absent) */
	bool stream;                 /* its collectives stream where their algorithm does
				      * (tg.h, struct tg_stream; the trace kind's admission
				      * decides, as tg_wl_streams says) */
};

/* ---- formats: the registry (tg_trace_reg.c) ---- */

/* What a format's file is and which of the trace kind's format-specific
 * keys it takes (flags of struct tg_trace_format's takes). The keys file,
 * hosts and dscp every format takes. */
enum tg_trace_takes {
	TG_TRACE_BINARY = 1u << 0,  /* not text: the reader gets the file opened (in->file),
				     * of at most TG_TRACE_MAX_BINARY_BYTES, and takes it */
	TG_TRACE_OP = 1u << 1,      /* key op: the op of messages the file gives none */
	TG_TRACE_PG = 1u << 2,      /* key pg: ignore or dscp (in->pg_dscp) */
	TG_TRACE_MAP = 1u << 3,     /* key map: address -> host (in->map) */
	TG_TRACE_PARTIAL = 1u << 4, /* key partial: error or skip (in->skip_partial) */
	TG_TRACE_FILES = 1u << 5,   /* the reader opens its files itself from in->path (one a
				     * rank: chakra), neither text nor in->file */
	TG_TRACE_COLLS = 1u << 6,   /* key nccl: it gives collectives, which may run under the
				     * NCCL model (in->nccl) */
	TG_TRACE_TAKES_ALL = (1u << 7) - 1,
};

/* A text trace is held whole in memory while read: 1 GiB is about 100
 * bytes per operation at TG_TRACE_MAX_OPS. A binary one (a capture) is
 * read a frame at a time, and one of a real job is large (a port mirrored
 * for minutes), so its bound only keeps a load from reading for hours. A
 * larger file is refused from its size, before any of it is read. */
#define TG_TRACE_MAX_TEXT_BYTES (UINT64_C(1) << 30)
#define TG_TRACE_MAX_BINARY_BYTES (UINT64_C(64) << 30)

/* A trace format: one file that defines this table (its reader) plus one
 * line in tg_trace_reg.c's built-in list, or tg_trace_format_register. */
struct tg_trace_format {
	struct reg_kind kind;   /* name as `format:` writes it, a doc line; no settings
				 * (a format's keys are the trace kind's, by takes) */
	/* Fill @out (empty on entry) from in->text (text formats) or in->file
	 * (TG_TRACE_BINARY), or return -EINVAL with "FILE:LINE:COL: message"
	 * in @err (-ENOMEM, -E2BIG likewise). */
	int (*read)(const struct tg_trace_in *in, struct tg_trace *out, char err[CFG_ERR_BYTES]);
	uint32_t takes;         /* enum tg_trace_takes flags */
	const char *file_noun;  /* what messages call its file ("a capture"); NULL: "a NAME
				 * trace" */
	uint8_t qp_default;     /* enum tg_qp_mode of a workload without a qp key: the
				 * source simulator's own (0: per-connection) */
};

/* Register @f after the built-in formats: 0, or -EINVAL with @err filled
 * (no name or doc, the name taken, settings, no read, unknown takes
 * flags), -ENOSPC when full. At program start, before any experiment. */
int tg_trace_format_register(const struct tg_trace_format *f, char err[CFG_ERR_BYTES]);
/* The format named at @n (with "did you mean"): 0, or -EINVAL with @err. */
int tg_trace_format_read(const struct cfg_node *n, const struct tg_trace_format **out,
			 char err[CFG_ERR_BYTES]);
/* NULL-terminated names of the registered formats, in registry order. */
const char *const *tg_trace_format_names(void);
/* What messages call @f's file: its file_noun, else "a NAME trace". */
const char *tg_trace_format_noun(const struct tg_trace_format *f, char *buf, size_t size);
/* The names of the formats whose takes has every bit of @flags, in
 * registry order, into @buf: "a", "a@lastb" or "a, b@lastc" (@last: " and
 * ", " or "). Returns how many. */
unsigned tg_trace_format_list(uint32_t flags, const char *last, char *buf, size_t size);
/* A hint for a text read of a binary trace: "a capture is format: pcap"
 * for each binary format, joined by "; " ("" when none). */
void tg_trace_format_binary_hint(char *buf, size_t size);

/* ---- text: lines and fields (tg_trace.c) ---- */

/* A line of a text trace, and a field of it. */
struct tg_trace_line {
	const char *s;     /* its first byte */
	uint32_t len;      /* bytes, without the line end ("\n" or "\r\n") */
	uint32_t no;       /* 1-based line number */
};

struct tg_trace_tok {
	const char *s;     /* its first byte (blanks around it left out) */
	uint32_t len;      /* bytes */
	uint32_t col;      /* 1-based column of its first byte */
};

/* The next line at *@pos of @text (advanced past it; *@no counted up):
 * false at the end of the text. */
bool tg_trace_next_line(const char **pos, uint32_t *no, struct tg_trace_line *l);
/* True when @l is blank, or a comment (its first non-blank byte is '#'). */
bool tg_trace_blank(const struct tg_trace_line *l);
/* Split @l into fields at every @sep (0: at runs of blanks, empty fields
 * then never made), blanks around each left out, into @toks (room for
 * TG_TRACE_MAX_FIELDS). Returns how many, TG_TRACE_MAX_FIELDS + 1 when
 * there are more. */
uint32_t tg_trace_split(const struct tg_trace_line *l, char sep, struct tg_trace_tok *toks);
/* @t as a NUL-terminated string in @buf (cut at TG_TRACE_FIELD_BYTES - 1). */
const char *tg_trace_str(const struct tg_trace_tok *t, char buf[TG_TRACE_FIELD_BYTES]);
/* Does @t say @word exactly? */
bool tg_trace_is(const struct tg_trace_tok *t, const char *word);
/* @t as a string in @buf when it is a plain word, 1 to TG_TRACE_WORD_BYTES
 * - 1 bytes of [a-z0-9_], else NULL. An error quotes a field of a trace
 * only through this: a trace is a file users bring, and a message must not
 * echo what some other file (a key, a password file) holds. */
const char *tg_trace_word(const struct tg_trace_tok *t, char buf[TG_TRACE_WORD_BYTES]);

/* "PATH:LINE:COL: message" into @err. Returns -EINVAL. */
int tg_trace_errf(char err[CFG_ERR_BYTES], const struct tg_trace_in *in, uint32_t line,
		  uint32_t col, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same for the file @path (a trace of several files: chakra's ranks). */
int tg_trace_errf_at(char err[CFG_ERR_BYTES], const char *path, uint32_t line, uint32_t col,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- numbers and names ---- */

/* @t as a decimal integer (digits only) of at most @max: 0, -EINVAL (not
 * an integer), -ERANGE (digits only, above @max). */
int tg_trace_u64(const struct tg_trace_tok *t, uint64_t max, uint64_t *v);
/* @t as a plain decimal number (digits, an optional fraction; no sign or
 * exponent) times 10^@scale_digits, rounded half up to an integer: seconds
 * with 12 give picoseconds. 0, -EINVAL, -ERANGE (beyond 64 bits). */
int tg_trace_decimal(const struct tg_trace_tok *t, unsigned scale_digits, uint64_t *v);
/* The participant @t names at line @line: an integer is an index into
 * in->hosts, anything else a participant's name (tg_wl_ep: a host, a
 * HOST:PORT, a GPU). 0 or -EINVAL with @err at the field; a field that
 * cannot be a name (topology names are letters, digits, '_', '-', '.') is
 * refused without being quoted. */
int tg_trace_host(const struct tg_trace_in *in, const struct tg_trace_tok *t, uint32_t line,
		  uint32_t *part, char err[CFG_ERR_BYTES]);
/* Participant hosts[@idx], or an error at (@line, @col) when @idx is past
 * the list. */
int tg_trace_index(const struct tg_trace_in *in, uint64_t idx, uint32_t line, uint32_t col,
		   uint32_t *part, char err[CFG_ERR_BYTES]);
/* The message check every format shares: two different participants and
 * at most 2 GiB. Errors at (@line, @col). */
int tg_trace_check_msg(const struct tg_trace_in *in, const struct tg_trace_op *op, uint32_t line,
		       uint32_t col, char err[CFG_ERR_BYTES]);

/* ---- ids: integer names of rows, flows or triggers ---- */

/* A map from 64-bit ids to 32-bit values (zero-initialised; tg_trace_ids_free). */
struct tg_trace_ids {
	uint64_t *keys;    /* ids, cap of them */
	uint32_t *vals;    /* their values */
	uint8_t *used;     /* slot holds an id */
	uint32_t n;        /* ids held */
	uint32_t cap;      /* slots, a power of two */
};

/* Value of @id into *@val: true when present. */
bool tg_trace_ids_get(const struct tg_trace_ids *m, uint64_t id, uint32_t *val);
/* Add @id -> @val (@id absent). 0 or -ENOMEM. */
int tg_trace_ids_put(struct tg_trace_ids *m, uint64_t id, uint32_t val);
void tg_trace_ids_free(struct tg_trace_ids *m);

#endif
