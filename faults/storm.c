/* PFC storms and slow receivers at run time (storm.h): a chain of XOFFs
 * from the fault's one port, each a fault event (it does not keep a run
 * alive whose traffic is done). */
#include "link_layer.h"
#include "par.h"
#include "storm.h"
#include "port_pfc.h"

static void fault_storm_tick(struct sim *sim, void *obj)
{
	struct fault_storm *s = obj;
	struct fabric *f = fault_fabric(s->ff);
	struct port *p = fault_port(f, fault_get(s->ff, s->fault), 0);

	if (!fault_live(f) || !s->on)
		return;
	/* Every process keeps the chain (its events are fabric-wide); the
	 * one that runs the port sends and counts (par.h). */
	if (par_sim_here(p->sim) && port_pfc_send(p, s->mask, s->quanta) == 0)
		s->xoffs++;
	fault_at(f, sim->now_ps + s->period_ps, &s->src, fault_storm_tick, s);
}

void fault_storm_init(struct fabric_faults *ff, uint32_t i, struct fault_storm *s)
{
	s->ff = ff;
	s->fault = i;
	sim_new_src(&fault_fabric(ff)->sim, &s->src);
}

int fault_storm_act(struct fabric_faults *ff, uint32_t i, void *state)
{
	struct fault_storm *s = state;
	struct fabric *f = fault_fabric(ff);

	(void)i;
	s->on = true;
	f->mon_pending++; /* the first XOFF now, as if it were an event of its own */
	fault_storm_tick(&f->sim, s);
	return 0;
}

int fault_storm_undo(struct fabric_faults *ff, uint32_t i, void *state)
{
	(void)ff;
	(void)i;
	((struct fault_storm *)state)->on = false;
	return 0;
}

void fault_storm_count(const void *state, struct fault_counts *out)
{
	out->xoffs += ((const struct fault_storm *)state)->xoffs;
}

int fault_storm_validate(const struct exp_fault *x, const struct cfg_node *it,
			 char err[CFG_ERR_BYTES])
{
	const char *kind = x->ops->kind.name;

	if (!x->e->ll->pfc) {
		/* Both act through PFC pauses, which an IB link does not have. */
		cfg_errorf(err, cfg_get(it, "kind"),
			   "a %s fault sends PFC pauses: an Ethernet fault, not with fabric.link_layer: %s",
			   kind, x->e->ll->kind.name);
		return -EINVAL;
	}
	if (x->n_ports != 1) {
		cfg_errorf(err, cfg_get(it, "ports"), "a %s fault acts on one port (got %u)", kind,
			   x->n_ports);
		return -EINVAL;
	}
	return 0;
}
