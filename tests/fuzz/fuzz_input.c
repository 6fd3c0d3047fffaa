/* Cutting a fuzz input into an experiment file and its --set overrides,
 * and writing an input to a file (fuzz_input.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"

static const char fuzz_set_line[] = "\n#--set\n";

int fuzz_input_cut(const uint8_t *data, size_t size, struct fuzz_input *in)
{
	char *p, *line;

	memset(in, 0, sizeof(*in));
	in->text = malloc(size + 1);
	if (!in->text)
		return -ENOMEM;
	memcpy(in->text, data, size);
	in->text[size] = '\0';
	p = strstr(in->text, fuzz_set_line);
	if (!p)
		return 0;
	*p = '\0'; /* the file ends before the marker */
	for (line = p + sizeof(fuzz_set_line) - 1; *line && in->n_sets < FUZZ_MAX_SETS;) {
		char *end = strchr(line, '\n');

		if (end)
			*end = '\0';
		if (*line)
			in->sets[in->n_sets++] = line;
		if (!end)
			break;
		line = end + 1;
	}
	return 0;
}

void fuzz_input_free(struct fuzz_input *in)
{
	free(in->text);
	in->text = NULL;
}

int fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return close(fd) == 0 && done == size ? 0 : -1;
}
