/* A small streaming JSON writer for result files: keys in the order written,
 * two-space indentation, numbers printed the same way on every machine so
 * that identical runs give identical bytes. */
#ifndef FAB_JSON_H
#define FAB_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { JSON_MAX_DEPTH = 16 };

struct json_w {
	FILE *f;                       /* destination */
	int depth;                     /* open containers */
	bool first[JSON_MAX_DEPTH];    /* no member written yet at this depth */
	bool is_obj[JSON_MAX_DEPTH];   /* container is an object (else array) */
};

void json_init(struct json_w *w, FILE *f);
/* @key is NULL inside arrays and for the top-level value. */
void json_obj_begin(struct json_w *w, const char *key);
void json_obj_end(struct json_w *w);
void json_arr_begin(struct json_w *w, const char *key);
void json_arr_end(struct json_w *w);
void json_u64(struct json_w *w, const char *key, uint64_t v);
void json_i64(struct json_w *w, const char *key, int64_t v);
/* Finite doubles with up to 10 significant digits; NaN/inf become null. */
void json_double(struct json_w *w, const char *key, double v);
void json_bool(struct json_w *w, const char *key, bool v);
void json_str(struct json_w *w, const char *key, const char *s);
void json_null(struct json_w *w, const char *key);
/* Ends the document with a newline. */
void json_finish(struct json_w *w);

#endif
