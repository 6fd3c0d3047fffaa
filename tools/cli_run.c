/* `fabemu run` and `fabemu check`: load, build, run, write results, and for
 * check evaluate the experiment's expect: assertions. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_mempool.h>

#include "cli.h"
#include "fabric.h"
#include "results.h"

/* mkdir -p */
static int cli_mkdirs(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Remove what an earlier run left in @dir, so that no stale table or
 * capture sits beside fresh results. */
static void cli_clean(const char *dir)
{
	static const char *const files[] = { "summary.json", "flows.csv", "ports.csv", "pfc.csv",
					     "series.csv", "resolved.yaml", "overrides.txt" };
	char path[4200];
	struct dirent *de;
	DIR *d;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/capture", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".pcap")) {
			snprintf(path, sizeof(path), "%s/capture/%s", dir, de->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

/* resolved.yaml (the experiment that runs, reproducible without
 * overrides) and overrides.txt (the overrides as given). */
static int cli_write_resolved(const struct exp *e, const char *dir, char err[CFG_ERR_BYTES])
{
	char path[4200];
	int r;

	snprintf(path, sizeof(path), "%s/resolved.yaml", dir);
	if ((r = exp_write_resolved(e, path, err)) != 0)
		return r;
	snprintf(path, sizeof(path), "%s/overrides.txt", dir);
	return exp_write_overrides(e, path, err);
}

static bool cli_expect_holds(const struct exp_expect *a, double m)
{
	if (isnan(m))
		return false;
	switch (a->op) {
	case EXP_OP_LT: return m < a->value + a->tolerance;
	case EXP_OP_LE: return m <= a->value + a->tolerance;
	case EXP_OP_EQ: return fabs(m - a->value) <= a->tolerance;
	case EXP_OP_NE: return fabs(m - a->value) > a->tolerance;
	case EXP_OP_GE: return m >= a->value - a->tolerance;
	case EXP_OP_GT: return m > a->value - a->tolerance;
	}
	return false;
}

static void cli_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* Evaluate all assertions; unknown metrics are bad input (exit 2). */
static int cli_check(const struct exp *e, const struct results *r, const char *junit)
{
	uint32_t failed = 0;
	FILE *jf = NULL;

	for (uint32_t i = 0; i < e->n_expects; i++) {
		if (!res_find(r, e->expects[i].metric)) {
			const char *names[1024];
			const char *near;
			uint32_t n = 0;

			for (uint32_t j = 0; j < r->n && n < 1023; j++)
				names[n++] = r->m[j].name;
			names[n] = NULL;
			near = cfg_nearest(e->expects[i].metric, names);
			fprintf(stderr, "%s:%u:%u: unknown metric '%s'%s%s%s (see docs/results.md)\n",
				e->expects[i].mark.file, e->expects[i].mark.line, e->expects[i].mark.col,
				e->expects[i].metric, near ? " (did you mean '" : "", near ? near : "",
				near ? "'?)" : "");
			return CLI_BAD_INPUT;
		}
	}
	if (junit && !(jf = fopen(junit, "w"))) {
		fprintf(stderr, "fabemu: %s: cannot write: %s\n", junit, strerror(errno));
		return CLI_BAD_INPUT;
	}
	if (jf) {
		uint32_t n_fail = 0;

		for (uint32_t i = 0; i < e->n_expects; i++)
			n_fail += !cli_expect_holds(&e->expects[i],
						    res_value(res_find(r, e->expects[i].metric)));
		fprintf(jf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"");
		cli_xml_escape(jf, e->name);
		fprintf(jf, "\" tests=\"%u\" failures=\"%u\">\n", e->n_expects, n_fail);
	}
	for (uint32_t i = 0; i < e->n_expects; i++) {
		const struct exp_expect *a = &e->expects[i];
		double m = res_value(res_find(r, a->metric));
		bool ok = cli_expect_holds(a, m);
		char line[512];

		snprintf(line, sizeof(line), "%s %s %s %.10g%s measured %.10g", ok ? "PASS" : "FAIL",
			 a->metric, exp_op_name(a->op), a->value, "", m);
		if (a->tolerance > 0)
			snprintf(line, sizeof(line), "%s %s %s %.10g (tolerance %.6g) measured %.10g",
				 ok ? "PASS" : "FAIL", a->metric, exp_op_name(a->op), a->value,
				 a->tolerance, m);
		printf("%s\n", line);
		failed += !ok;
		if (jf) {
			fprintf(jf, "  <testcase classname=\"");
			cli_xml_escape(jf, e->name);
			fprintf(jf, "\" name=\"");
			cli_xml_escape(jf, a->metric);
			fputc(' ', jf);
			cli_xml_escape(jf, exp_op_name(a->op));
			fprintf(jf, " %.10g\"", a->value);
			if (ok) {
				fprintf(jf, "/>\n");
			} else {
				fprintf(jf, "><failure message=\"");
				cli_xml_escape(jf, line);
				fprintf(jf, "\"/></testcase>\n");
			}
		}
	}
	if (jf) {
		fprintf(jf, "</testsuite>\n");
		fclose(jf);
	}
	printf("%u passed, %u failed\n", e->n_expects - failed, failed);
	return failed ? CLI_FAIL : CLI_OK;
}

int cli_run(const struct cli_opts *o, bool check)
{
	char err[CFG_ERR_BYTES], outdir[4096];
	struct rte_mempool *pool;
	struct results res;
	struct fabric f;
	struct exp *e;
	int rc = CLI_OK, r;

	if (exp_load(o->exp_path, o->sets, o->n_sets, o->seed_set, o->seed, &e, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CLI_BAD_INPUT;
	}
	if (o->outdir)
		snprintf(outdir, sizeof(outdir), "%s", o->outdir);
	else
		snprintf(outdir, sizeof(outdir), "results/%s", e->name);
	if ((r = cli_mkdirs(outdir)) != 0) {
		fprintf(stderr, "fabemu: %s: cannot create results folder: %s\n", outdir, strerror(-r));
		exp_free(e);
		return CLI_BAD_INPUT;
	}
	cli_clean(outdir);
	if (cli_write_resolved(e, outdir, err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		exp_free(e);
		return CLI_FAIL;
	}
	if ((r = sim_eal_init(o->eal_argc, o->eal_argv, fabric_eal_mem_mb(e), err)) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		exp_free(e);
		return r == -EINVAL ? CLI_BAD_INPUT : CLI_FAIL;
	}
	pool = sim_pool_create("fabemu", e->engine.pool_pkts, fabric_data_room(e), err);
	if (!pool) {
		fprintf(stderr, "fabemu: %s\n", err);
		exp_free(e);
		rte_eal_cleanup();
		return CLI_FAIL;
	}
	if ((r = fabric_build(&f, e, pool, outdir, err)) != 0) {
		/* -ENOSPC: the configuration cannot fit (bad input, at its line). */
		fprintf(stderr, r == -ENOSPC ? "%s\n" : "fabemu: %s\n", err);
		fabric_free(&f);
		rc = r == -ENOSPC ? CLI_BAD_INPUT : CLI_FAIL;
		goto out;
	}
	fabric_run(&f, isatty(STDERR_FILENO) && !o->quiet);
	if (res_collect(&res, &f) != 0 || res_write_summary(&res, outdir) != 0 ||
	    (e->flows_csv && res_write_flows(&f, outdir) != 0) || res_write_ports(&f, outdir) != 0 ||
	    res_write_pfc(&f, outdir) != 0) {
		fprintf(stderr, "fabemu: %s: cannot write results: %s\n", outdir, strerror(errno));
		rc = CLI_FAIL;
	} else {
		if (!o->quiet) {
			res_print_human(&res, &f, stdout);
			printf("  results: %s/summary.json\n", outdir);
			for (uint32_t i = 0; i < e->n_captures; i++)
				printf("  capture: %s\n", f.cap_paths[i]);
		}
		if (check)
			rc = cli_check(e, &res, o->junit);
	}
	res_free(&res);
	fabric_free(&f);
out:
	rte_mempool_free(pool);
	exp_free(e);
	rte_eal_cleanup();
	return rc;
}

int cli_topo(const struct cli_opts *o)
{
	char err[CFG_ERR_BYTES];
	struct cfg_node *root, *tn;
	struct cfg_doc *doc;
	struct topo *t;

	if (cfg_doc_load(o->exp_path, &doc, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return CLI_BAD_INPUT;
	}
	root = cfg_doc_root(doc);
	tn = cfg_schema_get(root, "topology") ? cfg_schema_get(root, "topology") : root;
	if (topo_from_cfg(doc, tn, &t, err) != 0) {
		fprintf(stderr, "%s\n", err);
		cfg_doc_free(doc);
		return CLI_BAD_INPUT;
	}
	if (o->dot)
		topo_dot(t, stdout);
	else
		topo_describe(t, stdout);
	topo_free(t);
	cfg_doc_free(doc);
	return CLI_OK;
}
