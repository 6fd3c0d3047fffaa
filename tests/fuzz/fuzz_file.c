/* The file-reader fuzz targets' shared part (fuzz_file.h). */
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp.h"

enum {
	FUZZ_FILE_PATH_BYTES = 64,  /* the scratch file's path */
	FUZZ_FILE_EXP_BYTES = 1024, /* one experiment's text */
};

/* libFuzzer gives a target no context: the scratch file's path lives for
 * the process, as its one piece of state. */
static char fuzz_file_path[FUZZ_FILE_PATH_BYTES];

static void fuzz_file_cleanup(void)
{
	unlink(fuzz_file_path);
}

void fuzz_file_load(const uint8_t *data, size_t size, const char *pattern,
		    const char *const *wls, size_t n)
{
	char text[FUZZ_FILE_EXP_BYTES], wl[FUZZ_FILE_EXP_BYTES];
	FILE *f;

	if (!fuzz_file_path[0]) {
		int fd;

		snprintf(fuzz_file_path, sizeof(fuzz_file_path), "%s", pattern);
		if ((fd = mkstemp(fuzz_file_path)) < 0)
			abort();
		close(fd);
		atexit(fuzz_file_cleanup);
	}
	if (!(f = fopen(fuzz_file_path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	for (size_t i = 0; i < n; i++) {
		char err[CFG_ERR_BYTES] = "";
		struct exp *e = NULL;

		snprintf(wl, sizeof(wl), wls[i], fuzz_file_path);
		snprintf(text, sizeof(text),
			 "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts_per_leaf: 4}\n"
			 "traffic:\n  - %s\n", wl);
		if (exp_load_string("fuzz.yaml", text, NULL, 0, &e, err) == 0)
			exp_free(e);
		else if (!err[0])
			abort(); /* refused without saying why */
	}
}
