/* The registry of fault kinds: the built-in list (one line a kind, each
 * kind one file of this folder), fault_register for more, and what every
 * kind must bring (checked as it is registered). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fault.h"

#define FAULT_BUILTIN(X) \
	X(struct fault_ops, fault_link_down) \
	X(struct fault_ops, fault_link_up) \
	X(struct fault_ops, fault_flap) \
	X(struct fault_ops, fault_rate) \
	X(struct fault_ops, fault_loss) \
	X(struct fault_ops, fault_corrupt) \
	X(struct fault_ops, fault_switch_down) \
	X(struct fault_ops, fault_nic_down) \
	X(struct fault_ops, fault_pfc_storm) \
	X(struct fault_ops, fault_slow_receiver)

FAULT_BUILTIN(REG_DECLARE)

static const struct reg_kind *const fault_builtin[] = { FAULT_BUILTIN(REG_ENTRY) NULL };

bool fault_word(const char *list, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = list; (p = strstr(p, key)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

static int fault_check(const struct reg_kind *k, char err[CFG_ERR_BYTES])
{
	const struct fault_ops *o = REG_OPS(struct fault_ops, k);
	const char *why = NULL;

	if (!o->need || !o->allow)
		why = "need and allow (its keys) are required";
	else if (!o->act || !o->log_start)
		why = "act and log_start are required";
	else if (o->log_end && !o->undo)
		why = "an end (log_end) needs undo";
	else if (!o->log_end && fault_word(o->allow, "duration"))
		why = "a duration needs an end (log_end, undo)";
	else if (fault_word(o->need, "node") != (o->node_noun != NULL))
		why = "a kind needs node exactly when it has node_noun";
	else if (!fault_word(o->need, "node") && !fault_word(o->need, "ports"))
		why = "a kind needs ports or node";
	for (unsigned i = 0; !why && k->settings && i < k->settings->n_keys; i++)
		if (!fault_word(o->need, k->settings->keys[i].name) &&
		    !fault_word(o->allow, k->settings->keys[i].name))
			why = "each of its keys is in need or allow";
	if (why) {
		snprintf(err, CFG_ERR_BYTES, "fault kind '%s': %s", k->name, why);
		return -EINVAL;
	}
	return 0;
}

static struct reg fault_kinds = REG_INIT("fault kind", fault_builtin, fault_check);

struct reg *fault_reg(void)
{
	return &fault_kinds;
}

int fault_register(const struct fault_ops *ops, char err[CFG_ERR_BYTES])
{
	return reg_add(&fault_kinds, &ops->kind, err);
}
