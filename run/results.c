/* Storing results and writing summary.json with its digest (see
 * results.h); collecting them is run/results_collect.c, the CSV tables
 * run/results_csv.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "results.h"
#include "units.h"

struct res_metric *res_add(struct results *r, enum res_type type, const char *fmt, ...)
{
	struct res_metric *m;
	va_list ap;

	if (r->n == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : 128;
		struct res_metric *v = realloc(r->m, sizeof(*v) * cap);

		if (!v)
			return NULL;
		r->m = v;
		r->cap = cap;
	}
	m = &r->m[r->n++];
	memset(m, 0, sizeof(*m));
	m->type = type;
	va_start(ap, fmt);
	vsnprintf(m->name, sizeof(m->name), fmt, ap);
	va_end(ap);
	return m;
}


void res_free(struct results *r)
{
	free(r->m);
	free(r->covers);
	memset(r, 0, sizeof(*r));
}

const struct res_metric *res_find(const struct results *r, const char *name)
{
	for (uint32_t i = 0; i < r->n; i++)
		if (strcmp(r->m[i].name, name) == 0)
			return &r->m[i];
	return NULL;
}

double res_value(const struct res_metric *m)
{
	return m->type == RES_U64 || m->type == RES_BOOL ? (double)m->u
	       : m->type == RES_DOUBLE			  ? m->d
							  : NAN;
}

/* Split a dotted name into components (modifies @buf). */
static int res_split(char *buf, char **parts, int max)
{
	int n = 0;

	for (char *p = strtok(buf, "."); p && n < max; p = strtok(NULL, "."))
		parts[n++] = p;
	return n;
}

/* Close @f, which was written: 0, or -errno when a write or the close
 * failed (a full disk, a file-size limit). */
int res_fclose(FILE *f)
{
	int bad = ferror(f), e = errno;

	if (fclose(f) != 0)
		return -(errno ? errno : EIO);
	return bad ? -(e ? e : EIO) : 0;
}

/* summary.json's text into @f. */
static void res_render(const struct results *r, FILE *f)
{
	char cur_buf[RES_NAME_BYTES] = "", buf[RES_NAME_BYTES];
	char *cur[JSON_MAX_DEPTH], *parts[JSON_MAX_DEPTH];
	int n_cur = 0;
	struct json_w w;

	json_init(&w, f);
	json_obj_begin(&w, NULL);
	for (uint32_t i = 0; i < r->n; i++) {
		const struct res_metric *m = &r->m[i];
		int n, common = 0;

		strcpy(buf, m->name);
		n = res_split(buf, parts, JSON_MAX_DEPTH - 2);
		while (common < n_cur && common < n - 1 && strcmp(cur[common], parts[common]) == 0)
			common++;
		while (n_cur > common) {
			json_obj_end(&w);
			n_cur--;
		}
		/* Keep the open path in its own buffer: parts point into buf. */
		strcpy(cur_buf, m->name);
		res_split(cur_buf, cur, JSON_MAX_DEPTH - 2);
		for (; n_cur < n - 1; n_cur++)
			json_obj_begin(&w, parts[n_cur]);
		if (m->type == RES_U64)
			json_u64(&w, parts[n - 1], m->u);
		else if (m->type == RES_DOUBLE)
			json_double(&w, parts[n - 1], m->d);
		else if (m->type == RES_BOOL)
			json_bool(&w, parts[n - 1], m->u != 0);
		else
			json_str(&w, parts[n - 1], m->s);
	}
	while (n_cur-- > 0)
		json_obj_end(&w);
	json_obj_end(&w);
	json_finish(&w);
}

/* summary.json's text in a new buffer (*@len bytes, caller frees). */
static char *res_render_mem(const struct results *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	res_render(r, f);
	if (res_fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Write @n bytes of @text to @path, checked. 0 or -errno. */
static int res_write_text(const char *path, const char *text, size_t n)
{
	FILE *f = cfg_fopen_out(path);

	if (!f)
		return -errno;
	fwrite(text, 1, n, f);
	return res_fclose(f);
}

int res_write_summary(struct results *r, const char *dir)
{
	char path[4096], *text;
	size_t len;
	int rc;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (!(text = res_render_mem(r, &len)))
		return -ENOMEM;
	rc = res_write_text(path, text, len);
	free(text);
	return rc;
}

/* SHA-256 of the file @path as hex. 0 or -errno. */
static int res_file_sha256(const char *path, char hex[SHA256_HEX_BYTES])
{
	uint8_t buf[1 << 16], d[SHA256_DIGEST_BYTES];
	struct sha256 h;
	FILE *f = fopen(path, "rb");
	size_t n;
	int bad;

	if (!f)
		return -errno;
	sha256_init(&h);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(&h, buf, n);
	bad = ferror(f);
	fclose(f);
	if (bad)
		return -EIO;
	sha256_final(&h, d);
	sha256_hex(d, hex);
	return 0;
}

static int res_str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The start of summary.json's provenance block: what the digest covers of
 * summary.json is the text before it (a line of its own, at the top level). */
static const char res_prov_line[] = "\n  \"provenance\": {\n";

/* Write the tables of the run into @dir. A table that cannot be written
 * is removed (no cut table is left to be read as whole), the run marked
 * not valid, and the rest is still written: summary.json says what is
 * missing. Returns the first failure (0: none), with its message in @err. */
static int res_write_tables(struct results *r, const struct fabric *f, const char *dir,
			    char err[CFG_ERR_BYTES])
{
	const struct {
		const char *name;
		bool wanted;
		int (*write)(const struct fabric *, const char *);
	} w[] = {
		{ "flows.csv", f->exp->flows_csv, res_write_flows },
		{ "fct_bins.csv", res_fct_bins_wanted(f), res_write_fct_bins },
		{ "collectives.csv", f->exp->n_colls > 0, res_write_collectives },
		{ "training.csv", f->exp->n_steps > 0, res_write_training },
		{ "faults.csv", f->exp->n_faults > 0, res_write_faults },
		{ "ports.csv", true, res_write_ports },
		{ "pfc.csv", true, res_write_pfc },
	};
	char path[4200];
	int rc, first = 0;

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		if (!w[i].wanted || (rc = w[i].write(f, dir)) == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, w[i].name);
		unlink(path);
		res_mark_invalid(r, "%s could not be written (%s) and was removed", w[i].name,
				 strerror(-rc));
		if (!first) {
			first = rc;
			snprintf(err, CFG_ERR_BYTES, "%.400s/%s: cannot write: %s", dir, w[i].name,
				 strerror(-rc));
		}
	}
	return first;
}

/* What this run wrote into @dir (an earlier run's files were removed
 * before it started), by relative path in byte order; summary.json sorts
 * last. Returns the list (caller frees; NULL: out of memory), *@n its length. */
static const char **res_written(const struct fabric *f, const char *dir, uint32_t *n)
{
	static const char *const tables[] = { "pfc.csv", "ports.csv", "resolved.yaml",
					       "series.csv", "rates.csv", "flows.csv",
					       "fct_bins.csv", "collectives.csv",
					       "training.csv", "faults.csv", "pfc_log.csv" };
	const char **files = malloc(sizeof(*files) *
				    (f->n_cap_paths + sizeof(tables) / sizeof(tables[0])));
	char path[4200];
	struct stat st;

	*n = 0;
	if (!files)
		return NULL;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, tables[i]);
		if (stat(path, &st) == 0)
			files[(*n)++] = tables[i];
	}
	for (uint32_t i = 0; i < f->n_cap_paths; i++) {
		const char *slash = strrchr(f->cap_paths[i], '/');

		/* capture/NAME: the path relative to the folder. */
		files[(*n)++] = f->cap_paths[i] + (slash - f->cap_paths[i]) - strlen("capture");
	}
	qsort(files, *n, sizeof(files[0]), res_str_cmp);
	return files;
}

/* Hash each of @files (in @dir) into @h as a line "HEX  PATH\n" of
 * `sha256sum`, and name them in r->covers (with summary.json, last).
 * 0 or -errno with the message in @err. */
static int res_hash_files(struct results *r, const char *dir, const char **files, uint32_t n,
			  struct sha256 *h, char err[CFG_ERR_BYTES])
{
	char path[4200], hex[SHA256_HEX_BYTES];
	size_t covers_len = 0;
	FILE *covers;
	int rc;

	free(r->covers);
	r->covers = NULL;
	if (!(covers = open_memstream(&r->covers, &covers_len))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory writing results");
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if ((rc = res_file_sha256(path, hex)) != 0) {
			snprintf(err, CFG_ERR_BYTES, "%.400s: cannot read back: %s", path, strerror(-rc));
			fclose(covers);
			return rc;
		}
		sha256_update(h, hex, strlen(hex));
		sha256_update(h, "  ", 2);
		sha256_update(h, files[i], strlen(files[i]));
		sha256_update(h, "\n", 1);
		fprintf(covers, "%s ", files[i]);
	}
	fputs("summary.json", covers);
	if (res_fclose(covers) != 0) {
		snprintf(err, CFG_ERR_BYTES, "out of memory writing results");
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < r->n; i++)
		if (!strcmp(r->m[i].name, "provenance.digest_files"))
			r->m[i].s = r->covers;
	return 0;
}

int res_write_all(struct results *r, const struct fabric *f, const char *dir,
		  char err[CFG_ERR_BYTES])
{
	char path[4200], hex[SHA256_HEX_BYTES], *text = NULL, *at;
	uint32_t n_files = 0;
	const char **files;
	uint8_t d[SHA256_DIGEST_BYTES];
	struct sha256 h;
	size_t len, pre;
	int rc, first;

	first = res_write_tables(r, f, dir, err);
	if (!(files = res_written(f, dir, &n_files))) {
		snprintf(err, CFG_ERR_BYTES, "out of memory writing results");
		return -ENOMEM;
	}
	/* The digest: SHA-256 of the lines "HEX  PATH\n" that `sha256sum
	 * PATH...` prints for those files and summary.json, whose hash is of
	 * its text before the provenance block. */
	sha256_init(&h);
	if ((rc = res_hash_files(r, dir, files, n_files, &h, err)) != 0)
		goto out;
	r->digest[0] = '\0';
	if (!(text = res_render_mem(r, &len)) || !(at = strstr(text, res_prov_line))) {
		free(text);
		rc = -ENOMEM;
		snprintf(err, CFG_ERR_BYTES, "%.400s/summary.json: out of memory", dir);
		goto out;
	}
	pre = (size_t)(at - text) + 1;
	{
		struct sha256 hs;

		sha256_init(&hs);
		sha256_update(&hs, text, pre);
		sha256_final(&hs, d);
		sha256_hex(d, hex);
	}
	free(text);
	sha256_update(&h, hex, strlen(hex));
	sha256_update(&h, "  summary.json\n", strlen("  summary.json\n"));
	sha256_final(&h, d);
	sha256_hex(d, r->digest);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (!(text = res_render_mem(r, &len))) {
		snprintf(err, CFG_ERR_BYTES, "%.400s: out of memory", path);
		rc = -ENOMEM;
		goto out;
	}
	{
		int w = res_write_text(path, text, len);

		rc = first;
		if (w != 0 && rc == 0) {
			rc = w;
			snprintf(err, CFG_ERR_BYTES, "%.400s: cannot write: %s", path, strerror(-w));
		}
	}
	free(text);
out:
	free(files);
	return rc;
}
