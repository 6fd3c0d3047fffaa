/* libFuzzer target: the NCCL log reader (traffic kind trace, format
 * nccl-log, traffic/tg_trace_nccllog.c: its lines, processes and
 * communicators, and the matching it shares with chakra). Each input is
 * a log, replayed by experiments of 8 and 4 hosts loaded the way `fabemu
 * run` loads one (exp_load_string). It must load or be refused with a message; a crash,
 * a leak, a sanitizer report or an empty message is a bug
 * (tools/fuzz-smoke.sh, docs/user-guide.md "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* The 8 hosts as ranks, and the first 4 of them. */
static const char *const fuzz_trace_wls[] = {
	"{kind: trace, file: '%s', format: nccl-log}",
	"{kind: trace, file: '%s', format: nccl-log, hosts: [h0, h1, h2, h3]}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-trace-nccllog-XXXXXX", fuzz_trace_wls,
		       sizeof(fuzz_trace_wls) / sizeof(fuzz_trace_wls[0]));
	return 0;
}
