/* libFuzzer target: the flow-size CDF reader of the poisson workload
 * (traffic/tg_wl_poisson.c). Each input is the CDF file's bytes, written
 * to this process's own file and named by the cdf key of an experiment
 * loaded the way `fabemu run` loads one (exp_load_string: the file's size
 * check, the reader, the sizes drawn from it). It must load or be refused
 * with a message; a crash, a leak, a sanitizer report or an empty message
 * is a bug (tools/fuzz-smoke.sh, docs/user-guide.md "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* The workloads each input is read by (%s: the file): a few draws, so
 * that every input is also sampled. */
static const char *const fuzz_cdf_wls[] = {
	"{kind: poisson, load: 30%%, cdf: '%s', flows: 20}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-cdf-XXXXXX", fuzz_cdf_wls,
		       sizeof(fuzz_cdf_wls) / sizeof(fuzz_cdf_wls[0]));
	return 0;
}
