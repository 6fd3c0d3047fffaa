/* libFuzzer target: the htsim connection matrix reader (traffic kind
 * trace, format htsim-cm, traffic/tg_trace_htsim.c). Each input is the
 * trace file's bytes, written to this process's own file and replayed by
 * an experiment loaded the way `fabemu run` loads one (exp_load_string:
 * the file's size check, the reader, the triggers made a dependency graph
 * and its cycle check). It must load or be refused with a message; a
 * crash, a leak, a sanitizer report or an empty message is a bug
 * (tools/fuzz-smoke.sh, docs/user-guide.md "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* The workloads each input is replayed by (%s: the file): node indices
 * of an 8-host fabric, WRITEs (send_done_trigger) or SENDs
 * (recv_done_trigger). */
static const char *const fuzz_trace_wls[] = {
	"{kind: trace, file: '%s', format: htsim-cm}",
	"{kind: trace, file: '%s', format: htsim-cm, op: send}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-trace-htsim-XXXXXX", fuzz_trace_wls,
		       sizeof(fuzz_trace_wls) / sizeof(fuzz_trace_wls[0]));
	return 0;
}
