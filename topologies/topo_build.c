/* Topologies from configuration: the `topology:` map of an experiment,
 * dispatched on its kind through the registry of topology kinds
 * (topo_kinds.c; one file each), read strictly through the kind's key
 * table (core/cfg_schema.h), built, and finally checked by topo_check.
 * Also the pieces the builders share: node naming and link classes. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cfg_schema.h"
#include "topo_int.h"
#include "units.h"

enum { TOPO_NS_PER_S = 1000000000 };

static uint64_t topo_build_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * TOPO_NS_PER_S + (uint64_t)ts.tv_nsec;
}

const struct topo_link_params topo_default_link = {
	.rate_bps = TOPO_DEFAULT_RATE_BPS,
	.delay_ps = TOPO_DEFAULT_DELAY_PS,
};

/* The host and fabric link classes of the regular builders. */
static const char *const topo_link_keys[] = { "rate", "delay", NULL };

/* ---- shared by the builders ---------------------------------------------- */

static void topo_build_node_name(char buf[TOPO_NAME_BYTES], const char *prefix, uint32_t i)
{
	snprintf(buf, TOPO_NAME_BYTES, "%s%u", prefix, i);
}

int topo_build_add_nodes(struct topo *t, uint32_t first, uint32_t n, const char *prefix,
		     enum topo_node_kind kind, uint8_t tier, uint16_t n_ports,
		     const struct cfg_mark *mark)
{
	char name[TOPO_NAME_BYTES];

	for (uint32_t i = 0; i < n; i++) {
		topo_build_node_name(name, prefix, i);
		if (topo_set_node(t, first + i, name, kind, tier, n_ports, mark) != 0)
			return -ENOMEM;
	}
	return 0;
}

int topo_build_finish(struct topo *t, int rc, struct topo **out, char err[CFG_ERR_BYTES])
{
	if (rc == 0)
		rc = topo_index(t);
	if (rc != 0) {
		topo_free(t);
		if (rc == -E2BIG)
			snprintf(err, CFG_ERR_BYTES, "topology: more than %d host ports in all",
				 TOPO_MAX_EPS);
		else
			snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		return rc;
	}
	*out = t;
	return 0;
}

/* rate and delay keys of @map: absent ones take @dflt, present ones are
 * checked strictly. */
int topo_read_rate_delay(const struct cfg_node *map, const struct topo_link_params *dflt,
			   struct topo_link_params *out, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *v;
	int rc = 0;

	*out = *dflt;
	if ((v = cfg_get(map, "rate")) != NULL)
		rc = cfg_rate(v, 1, &out->rate_bps, err);
	if (rc == 0 && (v = cfg_get(map, "delay")) != NULL)
		rc = cfg_time_max(v, UNITS_LINK_DELAY_MAX_PS, UNITS_LINK_DELAY_WHY, &out->delay_ps, err);
	return rc;
}

/* A link class {rate, delay}; @n may be NULL (all defaults). */
int topo_link_read(const struct cfg_node *n, struct topo_link_params *out, char err[CFG_ERR_BYTES])
{
	int rc;

	*out = topo_default_link;
	if (n == NULL)
		return 0;
	rc = cfg_want(n, CFG_MAP, "link settings {rate, delay}", err);
	if (rc == 0)
		rc = cfg_check_keys(n, topo_link_keys, err);
	if (rc == 0)
		rc = topo_read_rate_delay(n, &topo_default_link, out, err);
	return rc;
}


int topo_file_path(const struct cfg_node *at, const char *name, char *path, size_t size)
{
	const char *from = at->mark.file, *slash = from ? strrchr(from, '/') : NULL;
	int rc;

	/* resolved.yaml rewrites it from the results folder (cfg_doc_write_at). */
	((struct cfg_node *)at)->path = at->type == CFG_SCALAR && !strcmp(at->str, name);
	if (name[0] != '/' && slash && strncmp(from, "--set", 5) != 0)
		rc = snprintf(path, size, "%.*s/%s", (int)(slash - from), from, name);
	else
		rc = snprintf(path, size, "%s", name);
	return rc < 0 || (size_t)rc >= size ? -ENAMETOOLONG : 0;
}

/* `topology: {file: F, ...}`: the topology map of file F (its top-level
 * `topology:` map, or the file's map itself), with the other keys of
 * @topology overriding its keys; F is relative to the folder of the file
 * that names it (to the current folder in a --set value). @topology
 * becomes the merged map, without `file`, so the resolved experiment
 * stands alone. 0 (nothing to do without `file`) or -errno with @err. */
static int topo_include(struct cfg_doc *doc, struct cfg_node *topology, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *fn = cfg_get(topology, "file"), *inner;
	const struct cfg_node *kn = cfg_get(topology, "kind");
	const struct topo_kind *kind;
	struct cfg_node *root;
	const char *v;
	char path[4096];
	int rc;

	if (!fn)
		return 0;
	/* A kind whose `file` is its own input reads it itself. */
	if (kn && kn->type == CFG_SCALAR && (kind = topo_kind_find(kn->str)) && kind->own_file)
		return 0;
	if (cfg_str(fn, &v, err) != 0)
		return -EINVAL;
	if (!*v) {
		cfg_errorf(err, fn, "topology.file: expected a file name");
		return -EINVAL;
	}
	if (topo_file_path(fn, v, path, sizeof(path)) != 0) {
		cfg_errorf(err, fn, "topology.file: path too long");
		return -ENAMETOOLONG;
	}
	rc = cfg_doc_include(doc, path, &root, err);
	if (rc != 0) {
		char inner_err[CFG_ERR_BYTES];

		/* A file that cannot be read is reported where it is named. */
		if (strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':' &&
		    !isdigit((unsigned char)err[strlen(path) + 1])) {
			snprintf(inner_err, sizeof(inner_err), "%s", err);
			cfg_errorf(err, fn, "topology.file: %s", inner_err);
		}
		return rc;
	}
	inner = root->type == CFG_MAP && cfg_get(root, "topology") ? cfg_get(root, "topology") : root;
	if (inner->type != CFG_MAP) {
		cfg_errorf(err, inner, "a topology file holds a map (a 'topology:' map, or its keys)");
		return -EINVAL;
	}
	if (cfg_get(inner, "file")) {
		cfg_errorf(err, cfg_get(inner, "file"), "a topology file cannot name another ('file')");
		return -EINVAL;
	}
	return cfg_map_underlay(doc, topology, inner, "file", err);
}

int topo_from_cfg(struct cfg_doc *doc, struct cfg_node *topology, struct topo **out,
		  char err[CFG_ERR_BYTES])
{
	uint64_t start_ns = topo_build_now_ns();
	const struct topo_kind *kind;
	const struct cfg_node *kn;
	struct topo *t = NULL;
	char list[CFG_ERR_BYTES / 2];
	void *params;
	int rc;

	*out = NULL;
	if (topology == NULL) {
		snprintf(err, CFG_ERR_BYTES, "missing 'topology'");
		return -EINVAL;
	}
	rc = cfg_want(topology, CFG_MAP, "topology", err);
	if (rc == 0)
		rc = topo_include(doc, topology, err);
	if (rc != 0)
		return rc;
	kn = cfg_get(topology, "kind");
	if (kn == NULL) {
		cfg_errorf(err, topology, "topology needs 'kind' (%s)",
			   topo_kind_list(list, sizeof(list)));
		return -EINVAL;
	}
	rc = topo_kind_read(kn, &kind, err);
	if (rc != 0)
		return rc;
	params = calloc(1, kind->kind.settings_size);
	if (params == NULL) {
		snprintf(err, CFG_ERR_BYTES, "topology: out of memory");
		return -ENOMEM;
	}
	rc = kind->fill != NULL ? kind->fill(doc, topology, err) : 0;
	if (rc == 0)
		rc = cfg_schema_read(doc, topology, "topology",
				     &(struct cfg_bind){ kind->kind.settings, params }, 1, err);
	if (rc == 0)
		rc = kind->build(topology, params, &t, err);
	free(params);
	if (rc == 0)
		rc = topo_check_at(t, &topology->mark, err);
	if (rc != 0) {
		topo_free(t);
		return rc;
	}
	t->build_ns = topo_build_now_ns() - start_ns;
	*out = t;
	return 0;
}
