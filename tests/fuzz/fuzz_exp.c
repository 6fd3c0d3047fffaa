/* libFuzzer target: the experiment loader. Each input is an experiment
 * file with --set overrides (fuzz_input.h), loaded the way `fabemu run`
 * loads one (exp_load_string: YAML, every module's key table, topology,
 * traffic expansion). It must load, or be refused with a message; a
 * crash, a leak, a sanitizer report or an empty message is a bug. Run it
 * from experiments/ so that the corpus's relative file names resolve
 * (tools/fuzz-smoke.sh, docs/user-guide.md "Fuzzing"). */
#include <stdint.h>
#include <stdlib.h>

#include "exp.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[CFG_ERR_BYTES] = "";
	struct fuzz_input in;
	struct exp *e = NULL;

	if (fuzz_input_cut(data, size, &in) != 0)
		return 0;
	if (exp_load_string("fuzz.yaml", in.text, in.sets, in.n_sets, &e, err) == 0)
		exp_free(e);
	else if (!err[0])
		abort(); /* refused without saying why */
	fuzz_input_free(&in);
	return 0;
}
