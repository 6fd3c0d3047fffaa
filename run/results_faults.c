/* Faults' results: faults.csv (every action of the schedule and every
 * recomputation of the forwarding, in time order), faults.* metrics
 * (totals, and per fault what happened on its links and ports) and a line
 * in the human summary. Nothing of this without a faults: list. */
#include <errno.h>
#include <stdio.h>

#include "fault.h"
#include "faults.h"
#include "results.h"
#include "units.h"

int res_faults(struct results *r, const struct fabric *f)
{
	const struct exp *e = f->exp;
	struct fault_counts c;
	uint32_t n_rows, reroutes, failed;

	if (!e->n_faults)
		return 0;
	fabric_fault_rows(f, &n_rows);
	fabric_fault_totals(f, &c, &reroutes, &failed);
	RES_U64(r, e->n_faults, "faults.count");
	RES_U64(r, n_rows, "faults.actions");
	RES_U64(r, reroutes, "faults.reroutes");
	RES_U64(r, failed, "faults.reroutes_failed");
	RES_U64(r, c.routes_changed, "faults.routes_changed");
	RES_U64(r, c.lost_down, "faults.frames_lost_link_down");
	RES_U64(r, c.lost_random, "faults.frames_lost_random");
	RES_U64(r, c.corrupted, "faults.frames_corrupted");
	RES_U64(r, c.fcs_errors, "faults.fcs_errors");
	RES_U64(r, c.xoffs, "faults.storm_xoffs");
	{
		uint32_t drawn = 0;

		for (uint32_t i = 0; i < e->n_faults; i++)
			drawn += e->faults[i].random;
		RES_U64(r, drawn, "faults.random");
	}
	/* Per fault for the faults: entries; a failure process's (up to
	 * 100,000) are in the totals and faults.csv. */
	for (uint32_t i = 0; i < e->n_faults; i++) {
		const char *n = e->faults[i].name;

		if (e->faults[i].random)
			continue;
		fabric_fault_counts(f, i, &c);
		RES_STR(r, e->faults[i].ops->kind.name, "faults.%s.kind", n);
		RES_U64(r, c.lost_down, "faults.%s.frames_lost_link_down", n);
		RES_U64(r, c.lost_random, "faults.%s.frames_lost_random", n);
		RES_U64(r, c.corrupted, "faults.%s.frames_corrupted", n);
		RES_U64(r, c.fcs_errors, "faults.%s.fcs_errors", n);
		RES_DBL(r, units_ps_to_ns(c.down_ps) / 1e3, "faults.%s.down_us", n);
		RES_U64(r, c.xoffs, "faults.%s.storm_xoffs", n);
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

void res_print_faults(const struct fabric *f, FILE *out)
{
	struct fault_counts c;
	uint32_t n_rows, reroutes, failed;

	if (!f->exp->n_faults)
		return;
	fabric_fault_rows(f, &n_rows);
	fabric_fault_totals(f, &c, &reroutes, &failed);
	fprintf(out, "  faults: %u scheduled, %u actions, %u reroutes%s; frames lost %llu (link down) + %llu (loss), %llu corrupted (%llu FCS drops)\n",
		f->exp->n_faults, n_rows, reroutes, failed ? " (some failed)" : "",
		(unsigned long long)c.lost_down, (unsigned long long)c.lost_random,
		(unsigned long long)c.corrupted, (unsigned long long)c.fcs_errors);
}
