/* What the fuzz targets share: how one input is cut into an experiment
 * file and its --set overrides. An input is YAML text, then optionally a
 * line "#--set" and one override (key.path=value) per line after it, as
 * `fabemu run FILE --set ...` takes them. Text after a NUL byte is left
 * out (the loader reads C strings). */
#ifndef FAB_FUZZ_INPUT_H
#define FAB_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

enum { FUZZ_MAX_SETS = 16 /* overrides taken from one input */ };

/* One input, cut: owns its text. */
struct fuzz_input {
	char *text;                      /* the experiment file, NUL-terminated */
	const char *sets[FUZZ_MAX_SETS]; /* the overrides, into text */
	unsigned n_sets;                 /* their count */
};

/* Cut @data (@size bytes) into @in. 0, or -ENOMEM. */
int fuzz_input_cut(const uint8_t *data, size_t size, struct fuzz_input *in);
void fuzz_input_free(struct fuzz_input *in);
/* @data (@size bytes) into the new file @path: 0, or -1 (a problem of the
 * machine's, not of the input). */
int fuzz_write_file(const char *path, const uint8_t *data, size_t size);

#endif
