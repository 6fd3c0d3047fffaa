/* The InfiniBand switch's routing engines (switch/sw_ib.c) against their
 * definitions: minhop balances destinations over the min-hop ports (each
 * of n uplinks carries the remote LIDs' count / n, consecutive LIDs on
 * different ports), ftree is d-mod-k (a tier-t switch takes digit t - 1 of
 * the destination in base n), and d-mod-k's published property (Zahavi,
 * 2010): on a non-blocking two-tier fat tree every shift permutation
 * leaves a leaf by distinct uplinks, so no two flows share one. */
#include <string.h>

#include "pkt_ll.h"
#include "sim.h"
#include "sw.h"
#include "test.h"

enum {
	SI_HOSTS = 4,               /* hosts per leaf = uplinks (non-blocking) */
	SI_LEAVES = 16,
	SI_EPS = SI_HOSTS * SI_LEAVES,
};

/* The forwarding rows of leaf @leaf of a two-tier fat tree: hosts on
 * ports 0..3, uplinks 4..7; class 0 = every remote endpoint (all four
 * uplinks), class 1 = this leaf's own (rows of their own). */
struct si_fib {
	uint32_t ep_class[SI_EPS];
	uint32_t off[3];
	uint16_t ports[SI_HOSTS];
	uint32_t direct_off[SI_HOSTS + 1];
	uint16_t direct_ports[SI_HOSTS];
	struct fib_rows rows;
};

static void si_fib_leaf(struct si_fib *f, uint32_t leaf)
{
	memset(f, 0, sizeof(*f));
	for (uint32_t e = 0; e < SI_EPS; e++)
		f->ep_class[e] = e / SI_HOSTS == leaf;
	f->off[0] = 0;
	f->off[1] = SI_HOSTS;
	f->off[2] = SI_HOSTS;
	for (uint16_t k = 0; k < SI_HOSTS; k++) {
		f->ports[k] = (uint16_t)(SI_HOSTS + k);
		f->direct_off[k + 1] = k + 1u;
		f->direct_ports[k] = k;
	}
	f->rows = (struct fib_rows){ .n_eps = SI_EPS, .ep_class = f->ep_class, .n_classes = 2,
				     .off = f->off, .ports = f->ports, .direct_lo = leaf * SI_HOSTS,
				     .direct_n = SI_HOSTS, .direct_off = f->direct_off,
				     .direct_ports = f->direct_ports };
}

/* A leaf switch forwarding by @f (filled here; its class map must outlive
 * the switch, as sw_new says). */
static struct sw *si_leaf(struct sim *s, struct si_fib *f, uint8_t engine, uint32_t leaf,
			  uint8_t tier)
{
	struct sw_params p = { .buffer_bytes = 1 << 20, .hash_seed = 1, .ll = &pkt_ll_ib,
			       .ib_routing = engine, .tier = tier };

	si_fib_leaf(f, leaf);
	return sw_new(s, 0, 0, 2 * SI_HOSTS, &p, &f->rows);
}

static void test_sw_ib_minhop(void)
{
	struct sim s;
	struct si_fib f;
	struct sw *sw;
	uint32_t per_port[2 * SI_HOSTS] = { 0 }, same_as_prev = 0;
	uint16_t prev = UINT16_MAX;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	sw = si_leaf(&s, &f, SW_IB_ROUTE_MINHOP, 3, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	for (uint32_t e = 0; e < SI_EPS; e++) {
		uint16_t port = sw_ib_lft_port(sw, e);

		CU_ASSERT_FATAL(port < 2 * SI_HOSTS);
		if (e / SI_HOSTS == 3) {
			/* Attached: its own port. */
			CU_ASSERT_EQUAL(port, e % SI_HOSTS);
			continue;
		}
		per_port[port]++;
		same_as_prev += port == prev;
		prev = port;
	}
	/* 60 remote LIDs over 4 uplinks: 15 each, never twice in a row. */
	for (uint16_t k = SI_HOSTS; k < 2 * SI_HOSTS; k++)
		CU_ASSERT_EQUAL(per_port[k], (SI_EPS - SI_HOSTS) / SI_HOSTS);
	CU_ASSERT_EQUAL(same_as_prev, 0);
	sw_free(sw);
	sim_fini(&s);
}

static void test_sw_ib_ftree(void)
{
	struct sim s;
	struct si_fib f;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	for (uint8_t tier = 1; tier <= 2; tier++) {
		struct sw *sw = si_leaf(&s, &f, SW_IB_ROUTE_FTREE, 0, tier);
		uint32_t bad = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
		for (uint32_t e = SI_HOSTS; e < SI_EPS; e++) {
			uint32_t digit = tier == 1 ? e % SI_HOSTS : e / SI_HOSTS % SI_HOSTS;

			bad += sw_ib_lft_port(sw, e) != SI_HOSTS + digit;
		}
		CU_ASSERT_EQUAL(bad, 0);
		sw_free(sw);
	}
	sim_fini(&s);
}

static void test_sw_ib_shift(void)
{
	struct sim s;
	struct si_fib f;
	uint32_t shared = 0;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	for (uint32_t leaf = 0; leaf < SI_LEAVES; leaf++) {
		struct sw *sw = si_leaf(&s, &f, SW_IB_ROUTE_FTREE, leaf, 1);

		CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
		/* Shift s: host i sends to (i + s) mod N; remote shifts only
		 * (s a multiple of the leaf size keeps every flow remote). */
		for (uint32_t sh = SI_HOSTS; sh < SI_EPS; sh += SI_HOSTS) {
			uint8_t used = 0;

			for (uint32_t h = 0; h < SI_HOSTS; h++) {
				uint32_t dst = (leaf * SI_HOSTS + h + sh) % SI_EPS;
				uint16_t port = sw_ib_lft_port(sw, dst);

				shared += (used >> (port - SI_HOSTS)) & 1;
				used |= (uint8_t)(1u << (port - SI_HOSTS));
			}
		}
		sw_free(sw);
	}
	CU_ASSERT_EQUAL(shared, 0);
	sim_fini(&s);
}

static void test_sw_ib_not_ib(void)
{
	struct sim s;
	struct sw_params p = { .buffer_bytes = 1 << 20, .hash_seed = 1 };
	struct si_fib f;
	struct sw *sw;

	CU_ASSERT_EQUAL_FATAL(sim_init(&s, 1, test_mempool()), 0);
	si_fib_leaf(&f, 0);
	sw = sw_new(&s, 0, 0, 2 * SI_HOSTS, &p, &f.rows);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
	CU_ASSERT_EQUAL(sw_ib_lft_port(sw, SI_HOSTS), UINT16_MAX);
	sw_free(sw);
	sim_fini(&s);
}

int test_sw_ib_register(void)
{
	static const struct test_case tests[] = {
		{ "minhop balances LIDs over the uplinks", test_sw_ib_minhop },
		{ "ftree is d-mod-k per tier", test_sw_ib_ftree },
		{ "ftree routes shift permutations on distinct uplinks", test_sw_ib_shift },
		{ "Ethernet switches have no LFT", test_sw_ib_not_ib },
	};

	return test_suite("ib switch", tests);
}
