/* Name patterns: wherever ports or hosts are listed (captures, series,
 * disabled ports, workload host sets), an entry may be a shell-style
 * pattern (fnmatch: `*`, `?`, `[...]`), where `*` and `?` do not cross a
 * `/`: `leaf*` is every leaf, `node3/nic*` every NIC of node 3 and
 * `node?/nic0` NIC 0 of nodes 0..9. */
#include <fnmatch.h>
#include <string.h>

#include "topo.h"

bool topo_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

bool topo_glob_match(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, FNM_PATHNAME) == 0;
}
