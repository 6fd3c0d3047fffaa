/* libFuzzer target: compare's reader. Each input is a summary.json: it is
 * written into a results folder of its own and read the way `fabemu
 * compare` reads two folders (cli_cmp_read: the size bound, the YAML
 * loader, the schema checks, then the table of every leaf by dotted name).
 * It must be read, or be refused with a message; a crash, a leak, a
 * sanitizer report or an empty message is a bug. Seeds: summaries of small
 * runs (tests/fuzz/seeds/fuzz_compare/; tools/fuzz-smoke.sh). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz_compare.XXXXXX", path[sizeof(dir) + 16];
	char err[CFG_ERR_BYTES] = "";
	struct cli_cmp *t = NULL;

	if (!mkdtemp(dir))
		abort(); /* no temporary folder: nothing would be fuzzed */
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (fuzz_write_file(path, data, size) != 0)
		abort();
	/* Two folders, as compare takes them: the same one twice. */
	if (cli_cmp_read((const char *const[]){ dir, dir }, 2, &t, err) != 0 && !err[0])
		abort(); /* refused without saying why */
	cli_cmp_free(t);
	unlink(path);
	rmdir(dir);
	return 0;
}
