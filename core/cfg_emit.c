/* Writing a configuration tree back as YAML with libyaml's emitter: the
 * resolved experiment (defaults and overrides applied) that a results
 * folder keeps so that the run can be reproduced without its overrides. */
#include <errno.h>
#include <string.h>

#include <yaml.h>

#include "cfg.h"

struct cfg_doc;

static int cfg_emit_node(yaml_emitter_t *em, const struct cfg_node *n);

static int cfg_emit_scalar(yaml_emitter_t *em, const char *s, bool quoted)
{
	yaml_event_t ev;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
					  quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
						 : YAML_ANY_SCALAR_STYLE))
		return -ENOMEM;
	return yaml_emitter_emit(em, &ev) ? 0 : -EIO;
}

static int cfg_emit_node(yaml_emitter_t *em, const struct cfg_node *n)
{
	yaml_event_t ev;
	int rc = 0;

	switch (n->type) {
	case CFG_NULL:
		return cfg_emit_scalar(em, "~", false);
	case CFG_SCALAR:
		return cfg_emit_scalar(em, n->str, n->quoted);
	case CFG_MAP:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_ANY_MAPPING_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -EIO;
		for (uint32_t i = 0; i < n->n && rc == 0; i++) {
			if (n->items[i]->omit)
				continue;
			rc = cfg_emit_scalar(em, n->keys[i]->str, n->keys[i]->quoted);
			if (rc == 0)
				rc = cfg_emit_node(em, n->items[i]);
		}
		if (rc == 0 && (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev)))
			rc = -EIO;
		return rc;
	case CFG_SEQ: {
		/* A list of plain values reads best on one line: [0, 1, 2]. */
		bool flat = true;

		for (uint32_t i = 0; i < n->n; i++)
			flat = flat && n->items[i]->type != CFG_MAP && n->items[i]->type != CFG_SEQ;
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  flat ? YAML_FLOW_SEQUENCE_STYLE
							       : YAML_BLOCK_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(em, &ev))
			return -EIO;
		for (uint32_t i = 0; i < n->n && rc == 0; i++)
			rc = cfg_emit_node(em, n->items[i]);
		if (rc == 0 && (!yaml_sequence_end_event_initialize(&ev) || !yaml_emitter_emit(em, &ev)))
			rc = -EIO;
		return rc;
	}
	}
	return -EINVAL;
}

int cfg_doc_write(const struct cfg_doc *doc, FILE *out, char err[CFG_ERR_BYTES])
{
	const struct cfg_node *root = cfg_doc_root((struct cfg_doc *)doc);
	yaml_emitter_t em;
	yaml_event_t ev;
	int rc = 0;

	if (!root || !yaml_emitter_initialize(&em)) {
		snprintf(err, CFG_ERR_BYTES, "cannot write the document: out of memory");
		return -ENOMEM;
	}
	yaml_emitter_set_output_file(&em, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, -1);
	if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) ||
	    !yaml_emitter_emit(&em, &ev) ||
	    !yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) ||
	    !yaml_emitter_emit(&em, &ev))
		rc = -EIO;
	if (rc == 0)
		rc = cfg_emit_node(&em, root);
	if (rc == 0 && (!yaml_document_end_event_initialize(&ev, 1) || !yaml_emitter_emit(&em, &ev) ||
			!yaml_stream_end_event_initialize(&ev) || !yaml_emitter_emit(&em, &ev) ||
			!yaml_emitter_flush(&em)))
		rc = -EIO;
	if (rc != 0)
		snprintf(err, CFG_ERR_BYTES, "cannot write the document: %s",
			 em.problem ? em.problem : "write error");
	yaml_emitter_delete(&em);
	return rc;
}
