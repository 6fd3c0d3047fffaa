/* Faults' results: faults.csv (every action of the schedule and every
 * recomputation of the forwarding, in time order), and the walks over the
 * faults module's metrics (faults/fault_metrics.c: totals, and per fault
 * what happened on its links and ports) and its line of the human summary.
 * Nothing of this without a faults: list. */
#include <errno.h>
#include <stdio.h>

#include "fault.h"
#include "fault_metrics.h"
#include "results.h"
#include "units.h"

int res_faults(struct results *r, const struct fabric *f)
{
	struct fault_totals t;

	if (!f->exp->n_faults)
		return 0;
	fault_totals(f, &t);
	if (res_put_table(r, &fault_metrics_totals, NULL, &t, NULL) != 0)
		return -ENOMEM;
	for (uint32_t i = 0; i < f->exp->n_faults; i++) {
		struct fault_result x;

		if (fault_result(f, i, &x) &&
		    res_put_table(r, &fault_metrics_each, f->exp->faults[i].name, &x, NULL) != 0)
			return -ENOMEM;
	}
	return 0;
}

int res_write_faults(const struct fabric *f, const char *dir)
{
	const struct exp *e = f->exp;
	const struct fault_row *row;
	char path[4200];
	uint32_t n;
	FILE *out;
	int bad, err;

	row = fabric_fault_rows(f, &n);
	snprintf(path, sizeof(path), "%s/faults.csv", dir);
	if (!(out = cfg_fopen_out(path)))
		return -errno;
	fprintf(out, "time_us,fault,kind,action,where\n");
	for (uint32_t i = 0; i < n; i++) {
		const struct exp_fault *x = row[i].fault < e->n_faults ? &e->faults[row[i].fault] : NULL;

		/* where is free text (a reroute's reason): quoted, its quotes
		 * doubled (RFC 4180). */
		fprintf(out, "%.6f,%s,%s,%s,\"", units_ps_to_ns(row[i].t_ps) / 1e3, x ? x->name : "-",
			x ? x->ops->kind.name : "fabric", row[i].what);
		for (const char *c = row[i].detail; *c; c++)
			fputs(*c == '"' ? "\"\"" : (char[2]){ *c, 0 }, out);
		fputs("\"\n", out);
	}
	bad = ferror(out);
	err = errno;
	if (fclose(out) != 0)
		return -errno;
	return bad ? -(err ? err : EIO) : 0;
}

void res_print_faults(const struct results *r, FILE *out)
{
	for (const struct metric_line *l = fault_lines; l->fmt; l++)
		res_print_line(r, l, out);
}
