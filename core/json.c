/* Streaming JSON writer (see json.h). */
#include <math.h>
#include <string.h>

#include "json.h"

void json_init(struct json_w *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void json_indent(struct json_w *w)
{
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

static void json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Separator, newline, indentation and key before a member. */
static void json_member(struct json_w *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		w->first[w->depth] = false;
		fputc('\n', w->f);
		json_indent(w);
	}
	if (key && w->depth > 0 && w->is_obj[w->depth]) {
		json_escape(w->f, key);
		fputs(": ", w->f);
	}
}

static void json_open(struct json_w *w, const char *key, bool obj)
{
	json_member(w, key);
	fputc(obj ? '{' : '[', w->f);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
	w->is_obj[w->depth] = obj;
}

static void json_close(struct json_w *w, bool obj)
{
	bool empty = w->first[w->depth];

	w->depth--;
	if (!empty) {
		fputc('\n', w->f);
		json_indent(w);
	}
	fputc(obj ? '}' : ']', w->f);
}

void json_obj_begin(struct json_w *w, const char *key) { json_open(w, key, true); }
void json_obj_end(struct json_w *w) { json_close(w, true); }
void json_arr_begin(struct json_w *w, const char *key) { json_open(w, key, false); }
void json_arr_end(struct json_w *w) { json_close(w, false); }

void json_u64(struct json_w *w, const char *key, uint64_t v)
{
	json_member(w, key);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

void json_i64(struct json_w *w, const char *key, int64_t v)
{
	json_member(w, key);
	fprintf(w->f, "%lld", (long long)v);
}

void json_double(struct json_w *w, const char *key, double v)
{
	json_member(w, key);
	if (!isfinite(v))
		fputs("null", w->f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(w->f, "%.1f", v);
	else
		fprintf(w->f, "%.10g", v);
}

void json_bool(struct json_w *w, const char *key, bool v)
{
	json_member(w, key);
	fputs(v ? "true" : "false", w->f);
}

void json_str(struct json_w *w, const char *key, const char *s)
{
	json_member(w, key);
	json_escape(w->f, s);
}

void json_null(struct json_w *w, const char *key)
{
	json_member(w, key);
	fputs("null", w->f);
}

void json_finish(struct json_w *w)
{
	fputc('\n', w->f);
}
