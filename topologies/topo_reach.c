/* Which endpoints can reach which: the islands of the fabric. Switches
 * joined by switch-to-switch links form an island, and an endpoint
 * belongs to the island of the switch behind its port (hosts do not
 * forward); two endpoints linked to each other directly form one of their
 * own. Two endpoints reach each other exactly when they share an island,
 * so a message between islands (two planes, two NVLink domains) can be
 * refused where it is written, before anything runs. */
#include <errno.h>
#include <stdlib.h>

#include "topo_int.h"

int topo_ep_islands(const struct topo *t, uint32_t **out)
{
	uint32_t *island = malloc(sizeof(*island) * (t->n_eps ? t->n_eps : 1));
	uint32_t *of = malloc(sizeof(*of) * (t->n_nodes ? t->n_nodes : 1));
	uint32_t *queue = malloc(sizeof(*queue) * (t->n_nodes ? t->n_nodes : 1));
	uint32_t next = 0;

	if (!island || !of || !queue) {
		free(island);
		free(of);
		free(queue);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < t->n_nodes; i++)
		of[i] = UINT32_MAX;
	for (uint32_t s = 0; s < t->n_switches; s++) {
		uint32_t head = 0, tail = 0;

		if (of[t->switches[s]] != UINT32_MAX)
			continue;
		of[t->switches[s]] = next;
		queue[tail++] = t->switches[s];
		while (head < tail) {
			const struct topo_node *n = &t->nodes[queue[head]];
			uint32_t at = queue[head++];

			for (uint16_t p = 0; p < n->n_ports; p++) {
				uint32_t m = topo_peer(t, at, p);

				if (m != TOPO_NO_LINK && t->nodes[m].kind == TOPO_SWITCH &&
				    of[m] == UINT32_MAX) {
					of[m] = next;
					queue[tail++] = m;
				}
			}
		}
		next++;
	}
	for (uint32_t e = 0; e < t->n_eps; e++) {
		const struct topo_ep *ep = &t->eps[e];
		uint32_t m = topo_peer(t, ep->node, ep->port), l;

		if (m == TOPO_NO_LINK) {
			island[e] = UINT32_MAX;
		} else if (t->nodes[m].kind == TOPO_SWITCH) {
			island[e] = of[m];
		} else {
			/* Host to host: the pair is an island, numbered by its link. */
			l = t->nodes[ep->node].port_links[ep->port];
			island[e] = next + l;
		}
	}
	free(of);
	free(queue);
	*out = island;
	return 0;
}
