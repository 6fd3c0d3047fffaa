/* What the file-reader fuzz targets share: each input is the bytes of a
 * file a workload names (a trace, a CDF); it is written to this process's
 * own scratch file and loaded by small experiments the way `fabemu run`
 * loads one (exp_load_string on an 8-host leaf-spine). Not a target. */
#ifndef FAB_FUZZ_FILE_H
#define FAB_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Write @data (@size bytes) to the scratch file (made on the first call
 * from @pattern, a mkstemp pattern, and removed at exit), then load one
 * experiment per workload of @wls (@n of them; "%s" in each stands for
 * the file's path) and free it. A load refused without a message, or a
 * scratch file that cannot be written, aborts: both are bugs. */
void fuzz_file_load(const uint8_t *data, size_t size, const char *pattern,
		    const char *const *wls, size_t n);

#endif
