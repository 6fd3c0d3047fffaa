/* The registry of trace formats (core/reg): one file per format
 * (tg_trace_int.h, struct tg_trace_format: its reader and what it takes),
 * one line in the built-in list below. The `format` key's names, its "did
 * you mean", and the format lists in the trace kind's messages ("'map' is
 * for format: pcap", "'op' is for the csv, hpcc-flow and htsim-cm
 * formats") all come from here, in registry order. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tg_trace_int.h"

/* The built-in formats, one line each; the order is the order of the
 * format lists in messages. */
#define TG_TRACE_FORMAT_BUILTIN(X) \
	X(struct tg_trace_format, tg_trace_csv_format) \
	X(struct tg_trace_format, tg_trace_hpcc_format) \
	X(struct tg_trace_format, tg_trace_htsim_format) \
	X(struct tg_trace_format, tg_trace_pcap_format) \
	X(struct tg_trace_format, tg_trace_chakra_format) \
	X(struct tg_trace_format, tg_trace_nccllog_format)

TG_TRACE_FORMAT_BUILTIN(REG_DECLARE)

static const struct reg_kind *const tg_trace_format_builtin[] = {
	TG_TRACE_FORMAT_BUILTIN(REG_ENTRY) NULL
};

static int tg_trace_format_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct tg_trace_format *f = REG_OPS(struct tg_trace_format, k);
	const char *why = NULL;

	if (!f->read)
		why = "needs read";
	else if (f->takes & ~(uint32_t)TG_TRACE_TAKES_ALL)
		why = "takes an unknown flag";
	else if (k->settings)
		why = "a format has no settings of its own (its keys are the trace kind's, by takes)";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "trace format '%s': %s", k->name, why);
		return -EINVAL;
	}
	return 0;
}

static struct reg tg_trace_format_reg = REG_INIT("trace format", tg_trace_format_builtin,
						 tg_trace_format_check);

int tg_trace_format_register(const struct tg_trace_format *f, char err[CFG_ERR_BYTES])
{
	return reg_add(&tg_trace_format_reg, &f->kind, err);
}

int tg_trace_format_read(const struct cfg_node *n, const struct tg_trace_format **out,
			 char err[CFG_ERR_BYTES])
{
	const struct reg_kind *k;
	int rc = reg_read(&tg_trace_format_reg, n, &k, err);

	if (rc == 0)
		*out = REG_OPS(struct tg_trace_format, k);
	return rc;
}

const char *const *tg_trace_format_names(void)
{
	return reg_names(&tg_trace_format_reg);
}

const char *tg_trace_format_noun(const struct tg_trace_format *f, char *buf, size_t size)
{
	if (f->file_noun)
		snprintf(buf, size, "%s", f->file_noun);
	else
		snprintf(buf, size, "a %s trace", f->kind.name);
	return buf;
}

/* The @i-th format, or NULL past the end. */
static const struct tg_trace_format *tg_trace_format_at(unsigned i)
{
	const struct reg_kind *k = reg_at(&tg_trace_format_reg, i);

	return k ? REG_OPS(struct tg_trace_format, k) : NULL;
}

unsigned tg_trace_format_list(uint32_t flags, const char *last, char *buf, size_t size)
{
	const struct tg_trace_format *f;
	unsigned total = 0, seen = 0;
	size_t len = 0;

	for (unsigned i = 0; (f = tg_trace_format_at(i)) != NULL; i++)
		total += (f->takes & flags) == flags;
	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; (f = tg_trace_format_at(i)) != NULL && len < size; i++) {
		if ((f->takes & flags) != flags)
			continue;
		seen++;
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					seen == 1 ? "" : seen == total ? last : ", ", f->kind.name);
	}
	return seen;
}

void tg_trace_format_binary_hint(char *buf, size_t size)
{
	const struct tg_trace_format *f;
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; (f = tg_trace_format_at(i)) != NULL && len < size; i++) {
		char noun[64];

		if (!(f->takes & TG_TRACE_BINARY))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s is format: %s", len ? "; " : "",
					tg_trace_format_noun(f, noun, sizeof(noun)), f->kind.name);
	}
}
