/* libFuzzer target: the Chakra trace reader (traffic kind trace, format
 * chakra, traffic/tg_trace_chakra.c: its protobuf wire reading, node
 * matching and dependencies). Each input is one rank's file, replayed by
 * an experiment of one rank loaded the way `fabemu run` loads one
 * (exp_load_string). It must load or be refused with a message; a crash,
 * a leak, a sanitizer report or an empty message is a bug
 * (tools/fuzz-smoke.sh, docs/user-guide.md "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* One rank (no {rank} in the name), as a host and as a GPU-less port. */
static const char *const fuzz_trace_wls[] = {
	"{kind: trace, file: '%s', format: chakra, hosts: [h0]}",
	"{kind: trace, file: '%s', format: chakra, hosts: ['h3:0'], dscp: 5}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-trace-chakra-XXXXXX", fuzz_trace_wls,
		       sizeof(fuzz_trace_wls) / sizeof(fuzz_trace_wls[0]));
	return 0;
}
