/* The cores a fabemu process may keep busy (--threads auto): its CPU
 * affinity, and the CPU bandwidth limit of its cgroup (a container's
 * --cpus, a CI runner's quota), which affinity does not show. Spinning
 * partition threads beyond a quota are throttled in turn, each window
 * waiting on the slowest. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

enum { CORES_PATH = 4096 };

/* The first line of @path as text into @buf; 0 or -1. */
static int cli_cores_read(const char *path, char *buf, size_t size)
{
	FILE *fp = fopen(path, "r");
	int ok;

	if (!fp)
		return -1;
	ok = fgets(buf, (int)size, fp) != NULL;
	fclose(fp);
	return ok ? 0 : -1;
}

/* Cores a quota of @quota per @period allows, rounded up; 0: no limit. */
static uint32_t cli_cores_quota(long long quota, long long period)
{
	if (quota <= 0 || period <= 0)
		return 0;
	return (uint32_t)((quota + period - 1) / period);
}

/* The limit in @dir (v2: cpu.max "QUOTA PERIOD" or "max PERIOD"; v1:
 * cpu.cfs_quota_us, -1 for none, and cpu.cfs_period_us); 0: none. */
static uint32_t cli_cores_dir(const char *dir, bool v2)
{
	char path[CORES_PATH + 32], a[64], b[64];
	long long quota, period;

	if (v2) {
		snprintf(path, sizeof(path), "%s/cpu.max", dir);
		if (cli_cores_read(path, a, sizeof(a)) != 0 || strncmp(a, "max", 3) == 0 ||
		    sscanf(a, "%lld %lld", &quota, &period) != 2)
			return 0;
		return cli_cores_quota(quota, period);
	}
	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
	if (cli_cores_read(path, a, sizeof(a)) != 0)
		return 0;
	snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
	if (cli_cores_read(path, b, sizeof(b)) != 0)
		return 0;
	return cli_cores_quota(strtoll(a, NULL, 10), strtoll(b, NULL, 10));
}

/* Whether the comma-separated controller list @list names "cpu". */
static bool cli_cores_lists_cpu(const char *list)
{
	size_t len;

	for (; *list; list += len + (list[len] == ',')) {
		len = strcspn(list, ",");
		if (len == 3 && strncmp(list, "cpu", 3) == 0)
			return true;
	}
	return false;
}

/* The smallest limit on the way from the cgroup @rel (a path of
 * /proc/self/cgroup) up to the hierarchy's root @root; 0: none. */
static uint32_t cli_cores_walk(const char *root, const char *rel, bool v2)
{
	char dir[CORES_PATH];
	size_t root_len = strlen(root);
	uint32_t best = 0, n;
	char *slash;

	if (snprintf(dir, sizeof(dir), "%s%s", root, rel) >= (int)sizeof(dir))
		return 0;
	for (;;) {
		n = cli_cores_dir(dir, v2);
		if (n && (!best || n < best))
			best = n;
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < root_len)
			break;
		*slash = '\0';
	}
	return best;
}

/* The CPU bandwidth limit of this process's cgroup, in whole cores; 0:
 * none found (or unreadable). */
static uint32_t cli_cgroup_cores(void)
{
	static const char *const v1_roots[] = { "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct" };
	char line[CORES_PATH], *rel;
	uint32_t best = 0, n;
	FILE *fp = fopen("/proc/self/cgroup", "r");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		/* "ID:CONTROLLERS:PATH"; v2 is "0::PATH". */
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		rel = c2 + 1;
		rel[strcspn(rel, "\n")] = '\0';
		if (strcmp(rel, "/") == 0)
			rel = "";
		*c2 = '\0';
		n = 0;
		if (c2 == c1 + 1)
			n = cli_cores_walk("/sys/fs/cgroup", rel, true);
		else if (cli_cores_lists_cpu(c1 + 1))
			for (size_t i = 0; i < sizeof(v1_roots) / sizeof(v1_roots[0]) && !n; i++)
				n = cli_cores_walk(v1_roots[i], rel, false);
		if (n && (!best || n < best))
			best = n;
	}
	fclose(fp);
	return best;
}

uint32_t cli_cores(void)
{
	cpu_set_t set;
	uint32_t n = 0, q;
	long on;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		n = (uint32_t)CPU_COUNT(&set);
	else if ((on = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		n = (uint32_t)on;
	if ((q = cli_cgroup_cores()) != 0 && (n == 0 || q < n))
		n = q;
	return n ? n : 1;
}
