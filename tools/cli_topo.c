/* `fabemu topo`: describe a topology (counts, bisection bandwidth,
 * oversubscription per tier, the routes' size) or draw it as Graphviz dot;
 * and topo's entry in the command table. */
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "fabric.h"

/* The topology file: one. */
static int cli_topo_arg(void *opts, const char *a)
{
	struct cli_topo_opts *o = opts;

	if (o->exp_path)
		return cli_bad("unexpected argument '%s'", a);
	o->exp_path = a;
	return CLI_OK;
}

static int cli_topo(const struct cli_topo_opts *o)
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
	if (o->dot) {
		topo_dot(t, stdout);
	} else {
		struct topo_routes *r;
		double t0 = fabric_now_s();

		topo_describe(t, stdout);
		/* The forwarding state the switches would hold: per class, not
		 * per endpoint. */
		if (topo_routes_build(t, &r, err) != 0) {
			fprintf(stderr, "%s\n", err);
			topo_free(t);
			cfg_doc_free(doc);
			return CLI_BAD_INPUT;
		}
		printf("routes: %u destination classes for %u endpoints; hop table %u switches x %u "
		       "classes = %.1f MiB, built in %.3f s; each switch maps a class, not an "
		       "endpoint, to its ports\n",
		       r->n_classes, r->n_eps, r->n_rows, r->n_classes,
		       (double)r->n_rows * r->n_classes / (1 << 20), fabric_now_s() - t0);
		topo_routes_free(r);
	}
	topo_free(t);
	cfg_doc_free(doc);
	return CLI_OK;
}

static int cli_topo_main(const void *opts)
{
	const struct cli_topo_opts *o = opts;

	if (!o->exp_path)
		return cli_bad("%s: missing the file to read", "topo");
	return cli_topo(o);
}

static const struct cli_optdef cli_topo_own_optdefs[] = {
	{ "--dot", NULL, NULL, "draw the topology as Graphviz dot", cli_opt_flag,
	  offsetof(struct cli_topo_opts, dot) },
	{ NULL },
};

static const struct cli_optdef *const cli_topo_optdefs[] = {
	cli_topo_own_optdefs,
	NULL,
};

const struct cli_cmd cli_cmd_topo = {
	.name = "topo",
	.synopsis = "FILE.yaml [options]",
	.what = "Describe a topology (counts, bisection bandwidth, oversubscription per tier).",
	.exits = "0 done, 2 bad input",
	.opts = cli_topo_optdefs,
	.opts_bytes = sizeof(struct cli_topo_opts),
	.arg = cli_topo_arg,
	.main = cli_topo_main,
};
