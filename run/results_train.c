/* Training workloads' results: per step its time and its critical path,
 * part by part. The critical path is walked back from the step's end: at
 * each node the predecessor that completed last is the one it waited for,
 * and the time from that predecessor's end to the node's own end goes to
 * the node's part (compute, or the tensor / pipeline / data / expert
 * parallel communication that was exposed). The parts add up to the step
 * exactly. As training.csv (one row per step), training.<workload>.*
 * metrics (means over the completed steps) and a line in the human
 * summary. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results.h"
#include "units.h"

/* Step @k's time and critical-path parts (ps, by tag); false when it did
 * not complete. The step starts when the one before it ended, or (the
 * first) when its first node started. */
static bool res_train_step(const struct fabric *f, uint32_t k, uint64_t *start, uint64_t *end,
			   uint64_t part[TG_TAG_N])
{
	const struct exp *e = f->exp;
	const struct tg_step *s = &e->steps[k];
	uint64_t a, b;

	if (tg_node_span(f->tg, s->end, &a, end) != 0)
		return false;
	*start = UINT64_MAX;
	if (k > 0 && e->steps[k - 1].workload == s->workload &&
	    tg_node_span(f->tg, e->steps[k - 1].end, &a, &b) == 0)
		*start = b;
	else
		for (uint32_t i = s->first; i < s->end; i++)
			if (tg_node_span(f->tg, i, &a, &b) == 0 && a < *start)
				*start = a;
	return tg_critical_path(&e->graph, tg_op_ends(f->tg), tg_stream_origins(f->tg), s->first, s->end,
				*start, part) == 0;
}

/* Workload @w's steps, how many completed, and the mean step and parts
 * (us) of those. */
static uint32_t res_train_mean(const struct fabric *f, uint16_t w, uint32_t *done, double *us,
			       double part_us[TG_TAG_N])
{
	uint32_t n = 0;

	*done = 0;
	*us = 0;
	for (int t = 0; t < TG_TAG_N; t++)
		part_us[t] = 0;
	for (uint32_t k = 0; k < f->exp->n_steps; k++) {
		uint64_t start, end, part[TG_TAG_N];

		if (f->exp->steps[k].workload != w)
			continue;
		n++;
		if (!res_train_step(f, k, &start, &end, part))
			continue;
		(*done)++;
		*us += units_ps_to_ns(end - start) / 1e3;
		for (int t = 0; t < TG_TAG_N; t++)
			part_us[t] += units_ps_to_ns(part[t]) / 1e3;
	}
	if (*done) {
		*us /= *done;
		for (int t = 0; t < TG_TAG_N; t++)
			part_us[t] /= *done;
	}
	return n;
}

/* A training workload's figures (training.NAME.*): means over its
 * completed steps, us. */
struct res_train {
	uint64_t steps;            /* steps */
	uint64_t completed;        /* of which every operation completed */
	double step_us;            /* a step */
	double part_us[TG_TAG_N];  /* its critical path by part (enum tg_tag) */
	double exposed;            /* (tp + pp + dp + ep) / step */
};

#define TRAIN_ROW(nm, un, ty, field, dc)                                          \
	{ .name = "training.NAME." nm, .unit = (un), .read = METRIC_ONE, .type = (ty), \
	  .off = offsetof(struct res_train, field), .doc = (dc) }

/* The critical path's parts follow enum tg_tag (TG_TAG_NONE is other_us). */
_Static_assert(TG_TAG_N == 6, "a training tag without its critical_path row");

static const struct metric res_train_rows[] = {
	TRAIN_ROW("steps", "—", METRIC_U64, steps, "steps"),
	TRAIN_ROW("completed", "—", METRIC_U64, completed, "of which every operation completed"),
	TRAIN_ROW("step_time_us", "µs", METRIC_DBL, step_us, "a step, end to end"),
	TRAIN_ROW("critical_path.compute_us", "µs", METRIC_DBL, part_us[TG_TAG_COMPUTE],
		  "the compute on the step's critical path"),
	TRAIN_ROW("critical_path.tp_us", "µs", METRIC_DBL, part_us[TG_TAG_TP],
		  "tensor-parallel communication on it"),
	TRAIN_ROW("critical_path.pp_us", "µs", METRIC_DBL, part_us[TG_TAG_PP],
		  "pipeline sends on it"),
	TRAIN_ROW("critical_path.dp_us", "µs", METRIC_DBL, part_us[TG_TAG_DP],
		  "data-parallel communication on it"),
	TRAIN_ROW("critical_path.ep_us", "µs", METRIC_DBL, part_us[TG_TAG_EP],
		  "expert all-to-all on it"),
	TRAIN_ROW("critical_path.other_us", "µs", METRIC_DBL, part_us[TG_TAG_NONE], "the rest"),
	TRAIN_ROW("exposed_comm_fraction", "—", METRIC_DBL, exposed,
		  "how much of the step waited for the network"),
};

const struct metric_table res_metrics_train = METRIC_TABLE("training", res_train_rows);

int res_training(struct results *r, const struct fabric *f)
{
	const struct exp *e = f->exp;

	for (uint32_t w = 0; w < e->n_workloads; w++) {
		struct res_train x = { 0 };
		uint32_t done;
		double net = 0;

		x.steps = res_train_mean(f, w, &done, &x.step_us, x.part_us);
		if (!x.steps)
			continue;
		x.completed = done;
		for (int t = TG_TAG_COMPUTE + 1; t < TG_TAG_N; t++)
			net += x.part_us[t];
		x.exposed = x.step_us > 0 ? net / x.step_us : 0;
		if (res_put_table(r, &res_metrics_train, e->workloads[w].name, &x, NULL) != 0)
			return -ENOMEM;
	}
	return 0;
}

int res_write_training(const struct fabric *f, const char *dir)
{
	const struct exp *e = f->exp;
	const char *const *tags = tg_tag_names();
	char path[4200];
	FILE *out;
	int bad, err;

	snprintf(path, sizeof(path), "%s/training.csv", dir);
	if (!(out = cfg_fopen_out(path)))
		return -errno;
	fputs("workload,step,start_us,end_us,step_time_us", out);
	for (int t = TG_TAG_COMPUTE; t < TG_TAG_N; t++)
		fprintf(out, ",%s_us", tags[t]);
	fputs(",other_us,status\n", out);
	for (uint32_t k = 0; k < e->n_steps; k++) {
		const struct tg_step *s = &e->steps[k];
		uint64_t start, end, part[TG_TAG_N];

		fprintf(out, "%s,%u,", e->workloads[s->workload].name, s->step);
		if (!res_train_step(f, k, &start, &end, part)) {
			fputs(",,", out);
			for (int t = TG_TAG_COMPUTE; t < TG_TAG_N; t++)
				fputc(',', out);
			fputs(",,incomplete\n", out);
			continue;
		}
		fprintf(out, "%.6f,%.6f,%.6f", units_ps_to_ns(start) / 1e3, units_ps_to_ns(end) / 1e3,
			units_ps_to_ns(end - start) / 1e3);
		for (int t = TG_TAG_COMPUTE; t < TG_TAG_N; t++)
			fprintf(out, ",%.6f", units_ps_to_ns(part[t]) / 1e3);
		fprintf(out, ",%.6f,complete\n", units_ps_to_ns(part[TG_TAG_NONE]) / 1e3);
	}
	bad = ferror(out);
	err = errno;
	if (fclose(out) != 0)
		return -errno;
	return bad ? -(err ? err : EIO) : 0;
}

void res_print_training(const struct fabric *f, FILE *out)
{
	const struct exp *e = f->exp;
	const char *const *tags = tg_tag_names();

	for (uint32_t w = 0; w < e->n_workloads; w++) {
		double us, part[TG_TAG_N];
		uint32_t done, n = res_train_mean(f, w, &done, &us, part);

		if (!n)
			continue;
		fprintf(out, "  %s: %u of %u steps, step %.2f us; critical path:", e->workloads[w].name,
			done, n, us);
		for (int t = TG_TAG_COMPUTE; t < TG_TAG_N; t++)
			if (part[t] > 0 || t == TG_TAG_COMPUTE)
				fprintf(out, " %s %.1f%%", tags[t], us > 0 ? 100 * part[t] / us : 0);
		if (part[TG_TAG_NONE] > 0)
			fprintf(out, " other %.1f%%", us > 0 ? 100 * part[TG_TAG_NONE] / us : 0);
		fputc('\n', out);
	}
}
