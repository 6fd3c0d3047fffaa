/* Reading configuration files: a regular file opened without blocking on a
 * FIFO or device, read whole within a size bound, and parsed into a
 * document (cfg.c) or into one already loaded (an include). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfg.h"
#include "cfg_int.h"

enum {
	CFG_READ_BYTES = 65536,     /* file read step */
};

/* The largest experiment or topology file read (docs/config.md): a file
 * is read whole before it is parsed, so a larger one (or a device such as
 * /dev/zero) is refused as it is read, not after memory ran out. */
#define CFG_MAX_FILE_BYTES (64u << 20)

FILE *cfg_fopen_regular(const char *path, char why[CFG_WHY_BYTES])
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0) {
		snprintf(why, CFG_WHY_BYTES, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, CFG_WHY_BYTES, "not a regular file (%s)",
			 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a folder"
			 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "not a file");
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	/* A regular file never blocks; back to ordinary reads. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
		snprintf(why, CFG_WHY_BYTES, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	return f;
}

int cfg_read_text(const char *path, uint64_t max, char **text, uint64_t *size,
		  enum cfg_text_err *what, char why[CFG_WHY_BYTES])
{
	FILE *f = cfg_fopen_regular(path, why);
	struct stat st;
	char *buf;
	size_t n;

	*text = NULL;
	*size = 0;
	if (!f) {
		*what = CFG_TEXT_OPEN;
		return -EINVAL;
	}
	if (fstat(fileno(f), &st) != 0) {
		snprintf(why, CFG_WHY_BYTES, "%s", strerror(errno));
		*what = CFG_TEXT_READ;
		fclose(f);
		return -EINVAL;
	}
	*size = (uint64_t)st.st_size;
	if (*size > max) {
		*what = CFG_TEXT_LARGE;
		fclose(f);
		return -EINVAL;
	}
	/* One byte more than the size, to see a file that grew since. */
	if (!(buf = malloc((size_t)*size + 2))) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, (size_t)*size + 1, f);
	if (ferror(f) || n != *size) {
		snprintf(why, CFG_WHY_BYTES, "%s", ferror(f) ? "read error" : "it changed size while read");
		*what = CFG_TEXT_READ;
		fclose(f);
		free(buf);
		return -EINVAL;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		*what = CFG_TEXT_NUL;
		free(buf);
		return -EINVAL;
	}
	*text = buf;
	return 0;
}

FILE *cfg_fopen_out(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "wb"))) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

/* The whole text of @path, NUL-terminated, malloc'd into *@out. 0 or
 * -errno with @err filled ("PATH: cannot open: ..."). */
static int cfg_read_file(const char *path, char **out, char err[CFG_ERR_BYTES])
{
	char why[CFG_WHY_BYTES];
	size_t len = 0, cap = 0;
	char *text = NULL;
	FILE *f;
	int rc = 0;

	*out = NULL;
	f = cfg_fopen_regular(path, why);
	if (!f) {
		rc = errno ? -errno : -EINVAL;
		cfg_errorf_mark(err, NULL, "%s: cannot open: %s", path, why);
		return rc;
	}
	errno = 0;
	for (;;) {
		if (cap - len < CFG_READ_BYTES) {
			char *t = realloc(text, cap + CFG_READ_BYTES + 1);

			if (!t) {
				rc = -ENOMEM;
				cfg_errorf_mark(err, NULL, "%s: out of memory", path);
				goto out;
			}
			text = t;
			cap += CFG_READ_BYTES;
		}
		size_t got = fread(text + len, 1, cap - len, f);
		const char *nul = memchr(text + len, '\0', got);

		if (ferror(f)) {
			rc = errno ? -errno : -EIO;
			cfg_errorf_mark(err, NULL, "%s: cannot read: %s", path, strerror(-rc));
			goto out;
		}
		/* Checked chunk by chunk, so that /dev/zero stops at once. */
		if (nul) {
			rc = -EINVAL;
			cfg_errorf_mark(err, NULL, "%s: NUL byte at offset %zu: not a text file", path,
					(size_t)(nul - text));
			goto out;
		}
		len += got;
		if (len > CFG_MAX_FILE_BYTES) {
			rc = -EFBIG;
			cfg_errorf_mark(err, NULL, "%s: larger than %u MiB: not an experiment or topology file",
					path, CFG_MAX_FILE_BYTES >> 20);
			goto out;
		}
		if (feof(f))
			break;
	}
	text[len] = '\0';
	*out = text;
	text = NULL;
out:
	free(text);
	fclose(f);
	return rc;
}

int cfg_doc_load(const char *path, struct cfg_doc **out, char err[CFG_ERR_BYTES])
{
	char *text;
	int rc;

	*out = NULL;
	if ((rc = cfg_read_file(path, &text, err)) != 0)
		return rc;
	rc = cfg_doc_load_string(path, text, out, err);
	free(text);
	return rc;
}

int cfg_doc_include(struct cfg_doc *doc, const char *path, struct cfg_node **out,
		    char err[CFG_ERR_BYTES])
{
	char *text;
	int rc;

	*out = NULL;
	if ((rc = cfg_read_file(path, &text, err)) != 0)
		return rc;
	rc = cfg_parse_into(doc, path, text, out, err);
	free(text);
	return rc;
}
