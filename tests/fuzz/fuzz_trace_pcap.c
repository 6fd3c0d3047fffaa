/* libFuzzer target: the pcap trace reader (traffic kind trace, format
 * pcap, traffic/tg_trace_pcap.c over libpcap and core's header view).
 * Each input is the capture file's bytes, written to this process's own
 * file and replayed by an experiment loaded the way `fabemu run` loads one
 * (exp_load_string: the file's size check, the reader, the messages it
 * rebuilds). It must load or be refused with a message; a crash, a leak,
 * a sanitizer report or an empty message is a bug (tools/fuzz-smoke.sh,
 * docs/user-guide.md "Fuzzing"). */
#include <stdint.h>

#include "fuzz_file.h"

/* The workloads each input is replayed by (%s: the file): addresses onto
 * the 8 hosts in order of appearance or by a map (the seeds' addresses),
 * a cut SEND an error or left out. */
static const char *const fuzz_trace_wls[] = {
	"{kind: trace, file: '%s', format: pcap}",
	"{kind: trace, file: '%s', format: pcap, partial: skip, dscp: 3,"
	" map: {10.0.0.1: h0, 10.0.0.2: h1, 10.0.0.6: h5, 10.0.0.3: 'h3:0'}}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_file_load(data, size, "/tmp/fuzz-trace-pcap-XXXXXX", fuzz_trace_wls,
		       sizeof(fuzz_trace_wls) / sizeof(fuzz_trace_wls[0]));
	return 0;
}
