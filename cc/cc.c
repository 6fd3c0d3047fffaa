/* The registry: a plain static array of the algorithms. */
#include <string.h>

#include "cc_int.h"

static const struct cc_ops *const cc_registry[] = {
	&cc_none_ops,
};

static const char *const cc_registry_names[] = {
	"none",
	NULL,
};

const struct cc_ops *cc_find(const char *name)
{
	for (size_t i = 0; i < sizeof(cc_registry) / sizeof(cc_registry[0]); i++)
		if (strcmp(cc_registry[i]->name, name) == 0)
			return cc_registry[i];
	return NULL;
}

const char *const *cc_names(void)
{
	return cc_registry_names;
}
