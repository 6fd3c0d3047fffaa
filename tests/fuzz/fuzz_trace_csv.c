/* libFuzzer target: the csv trace reader (traffic kind trace, format csv,
 * traffic/tg_trace_csv.c). Each input is the trace file's bytes, written
 * to this process's own file and replayed by an experiment loaded the way
 * `fabemu run` loads one (exp_load_string: the file's size check, the
 * reader, the messages and dependency graph it makes). It must load or be
 * refused with a message; a crash, a leak, a sanitizer report or an empty
 * message is a bug (tools/fuzz-smoke.sh, docs/user-guide.md "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* The workloads each input is replayed by (%s: the file): names and
 * indices of an 8-host fabric. */
static const char *const fuzz_trace_wls[] = {
	"{kind: trace, file: '%s', format: csv}",
	"{kind: trace, file: '%s', format: csv, op: send, hosts: [h3, h2, h1, h0]}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-trace-csv-XXXXXX", fuzz_trace_wls,
		       sizeof(fuzz_trace_wls) / sizeof(fuzz_trace_wls[0]));
	return 0;
}
