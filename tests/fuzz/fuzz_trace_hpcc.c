/* libFuzzer target: the HPCC ns-3 flow file reader (traffic kind trace,
 * format hpcc-flow, traffic/tg_trace_hpcc.c). Each input is the trace
 * file's bytes, written to this process's own file and replayed by an
 * experiment loaded the way `fabemu run` loads one (exp_load_string: the
 * file's size check, the reader, the messages it makes). It must load or
 * be refused with a message; a crash, a leak, a sanitizer report or an
 * empty message is a bug (tools/fuzz-smoke.sh, docs/user-guide.md
 * "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* The workloads each input is replayed by (%s: the file): node indices
 * of an 8-host fabric, the pg column ignored or taken as the DSCP. */
static const char *const fuzz_trace_wls[] = {
	"{kind: trace, file: '%s', format: hpcc-flow}",
	"{kind: trace, file: '%s', format: hpcc-flow, pg: dscp, op: read}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-trace-hpcc-XXXXXX", fuzz_trace_wls,
		       sizeof(fuzz_trace_wls) / sizeof(fuzz_trace_wls[0]));
	return 0;
}
