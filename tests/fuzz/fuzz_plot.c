/* libFuzzer target: plot's readers. Each input is a CSV file: it is written
 * into a results folder of its own as each file plot reads in turn
 * (flows.csv, series.csv, pfc.csv, collectives.csv, rates.csv, ports.csv)
 * and read by that file's reader alone (plot_read with one file), as
 * `fabemu plot` reads it before drawing. Each must read it, or refuse it
 * with a message; a crash, a leak, a sanitizer report or an empty message
 * is a bug. Seeds: the CSV files of small runs, cut short
 * (tests/fuzz/seeds/fuzz_plot/; tools/fuzz-smoke.sh). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "cli_plot_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz_plot.XXXXXX", path[sizeof(dir) + 32];
	char err[CFG_ERR_BYTES];

	if (!mkdtemp(dir))
		abort(); /* no temporary folder: nothing would be fuzzed */
	for (unsigned k = 0; k < PLOT_N_FILES; k++) {
		struct plot_in in;

		memset(&in, 0, sizeof(in));
		snprintf(path, sizeof(path), "%s/%s", dir, plot_file_names[k]);
		if (fuzz_write_file(path, data, size) != 0)
			abort();
		if (plot_read(dir, 1u << k, &in, err) != 0 && !err[0])
			abort(); /* refused without saying why */
		plot_in_free(&in);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}
