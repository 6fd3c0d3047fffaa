/* The path-choice registry (see sw_path.h): a plain static array of the
 * policies, the default (ecmp) first. */
#include <string.h>

#include "sw_int.h"

static const struct sw_path_ops *const sw_path_registry[] = {
	&sw_path_ecmp_ops,
	&sw_path_first_ops,
};

static const char *const sw_path_registry_names[] = {
	"ecmp",
	"first",
	NULL,
};

const struct sw_path_ops *sw_path_find(const char *name)
{
	for (size_t i = 0; i < sizeof(sw_path_registry) / sizeof(sw_path_registry[0]); i++)
		if (strcmp(sw_path_registry[i]->name, name) == 0)
			return sw_path_registry[i];
	return NULL;
}

const char *const *sw_path_names(void)
{
	return sw_path_registry_names;
}
