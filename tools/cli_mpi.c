/* fabemu under an MPI launcher (see cli_mpi.h). OpenMPI from Debian
 * (libopenmpi-dev); without it (meson -Dmpi=disabled, or not installed)
 * only the refusal below is built. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef FAB_HAVE_MPI
#include <mpi.h>
#endif

#include "cli.h"
#include "cli_mpi.h"
#include "par.h"
#include "cli_sweep.h"

/* The size of the job this process was started in by an MPI launcher,
 * from what the launcher puts in the environment (OpenMPI, PMIx, the
 * Hydra launcher of MPICH), or 0 when none started it (or it is a run a
 * sweep started, CLI_MPI_CHILD_ENV). *@rank: its rank, as the launcher
 * says. */
static long cli_mpi_launched(long *rank)
{
	static const char *const size_vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE" };
	static const char *const rank_vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
	long size = 0;

	*rank = 0;
	if (getenv(CLI_MPI_CHILD_ENV))
		return 0;
	for (unsigned i = 0; i < 3; i++) {
		const char *s = getenv(size_vars[i]), *r = getenv(rank_vars[i]);

		if (s && *s) {
			size = strtol(s, NULL, 10);
			*rank = r ? strtol(r, NULL, 10) : 0;
			return size > 0 ? size : 1;
		}
		if (r && *r && !size) {
			/* PMIx without a size variable: a member of some job. */
			*rank = strtol(r, NULL, 10);
			size = 1;
		}
	}
	return size;
}

#ifndef FAB_HAVE_MPI

int cli_mpi_start(int *argc, char ***argv, struct cli_mpi *w)
{
	long rank, size = cli_mpi_launched(&rank);

	(void)argc;
	(void)argv;
	w->rank = 0;
	w->size = 1;
	if (size <= 1)
		return CLI_OK;
	if (rank == 0)
		fprintf(stderr, "fabemu: started as %ld processes by an MPI launcher, but this fabemu is "
				"built without MPI: each would run the whole command into the same folders. "
				"Build it with OpenMPI (apt-get install libopenmpi-dev openmpi-bin, then "
				"meson setup -Dmpi=enabled), or run one process\n",
			size);
	return CLI_BAD_INPUT;
}

void cli_mpi_end(void) {}

const char *cli_mpi_version(void) { return "without MPI"; }

struct par_remote *cli_mpi_remote_new(void) { return NULL; }

int cli_mpi_agree(int rc) { return rc; }

void cli_mpi_remote_free(struct par_remote *r) { (void)r; }

void cli_mpi_sum(uint64_t *v, unsigned n)
{
	(void)v;
	(void)n;
}

struct cli_mpi cli_mpi_world(void) { return (struct cli_mpi){ .rank = 0, .size = 1 }; }

int cli_mpi_sweep_gather(struct swp_plan *p)
{
	(void)p;
	return CLI_OK;
}

int cli_mpi_gather_files(const char *dir, const char *const *rel, const uint32_t *owner, uint32_t n)
{
	(void)dir, (void)rel, (void)owner, (void)n;
	return CLI_OK;
}

#else

int cli_mpi_start(int *argc, char ***argv, struct cli_mpi *w)
{
	long rank;
	int rc;

	w->rank = 0;
	w->size = 1;
	if (!cli_mpi_launched(&rank))
		return CLI_OK;
	if ((rc = MPI_Init(argc, argv)) != MPI_SUCCESS) {
		fprintf(stderr, "fabemu: MPI would not start (MPI_Init: error %d)\n", rc);
		return CLI_BAD_INPUT;
	}
	*w = cli_mpi_world();
	return CLI_OK;
}

#define CLI_MPI_STR_(x) #x
#define CLI_MPI_STR(x) CLI_MPI_STR_(x)

const char *cli_mpi_version(void)
{
#ifdef OMPI_MAJOR_VERSION
	return "MPI: Open MPI " CLI_MPI_STR(OMPI_MAJOR_VERSION) "." CLI_MPI_STR(
		OMPI_MINOR_VERSION) "." CLI_MPI_STR(OMPI_RELEASE_VERSION);
#else
	return "MPI " CLI_MPI_STR(MPI_VERSION) "." CLI_MPI_STR(MPI_SUBVERSION);
#endif
}

void cli_mpi_end(void)
{
	int on = 0, off = 0;

	MPI_Initialized(&on);
	if (on)
		MPI_Finalized(&off);
	if (on && !off)
		MPI_Finalize();
}

struct cli_mpi cli_mpi_world(void)
{
	struct cli_mpi w = { .rank = 0, .size = 1 };
	int on = 0, off = 0;

	MPI_Initialized(&on);
	if (on)
		MPI_Finalized(&off);
	if (on && !off) {
		MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
		MPI_Comm_size(MPI_COMM_WORLD, &w.size);
	}
	return w;
}

/* What a process sends process 0 about its runs: records, each a header,
 * then its path (path_len bytes, FILE only) and its bytes (FILE and JUNIT,
 * in messages of at most CLI_MPI_CHUNK). */
enum cli_mpi_kind {
	CLI_MPI_FILE,   /* a file of a run's folder, at the path relative to it */
	CLI_MPI_JUNIT,  /* a check run's own JUnit report */
	CLI_MPI_STATUS, /* a run's exit status */
	CLI_MPI_END,    /* nothing more from this process */
};

enum {
	CLI_MPI_TAG = 7001,
	CLI_MPI_CHUNK = 16 << 20,
};

struct cli_mpi_hdr {
	uint32_t run;       /* index in the plan's runs */
	uint32_t kind;      /* enum cli_mpi_kind */
	int32_t status;     /* CLI_MPI_STATUS: its exit status */
	uint32_t path_len;  /* CLI_MPI_FILE: bytes of the path that follows */
	uint64_t bytes;     /* CLI_MPI_FILE, CLI_MPI_JUNIT: bytes of the file */
};

static int cli_mpi_send(const void *buf, size_t n)
{
	return MPI_Send(buf, (int)n, MPI_BYTE, 0, CLI_MPI_TAG, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -EIO;
}

/* Send record @h, then @path (FILE), then the bytes of file @fd. */
static int cli_mpi_send_file(struct cli_mpi_hdr *h, const char *path, int fd, char *buf)
{
	struct stat st;
	uint64_t left;
	int rc;

	if (fstat(fd, &st) != 0)
		return -errno;
	h->bytes = (uint64_t)st.st_size;
	if ((rc = cli_mpi_send(h, sizeof(*h))) != 0 || (path && (rc = cli_mpi_send(path, h->path_len))))
		return rc;
	for (left = h->bytes; left > 0;) {
		size_t want = left < CLI_MPI_CHUNK ? (size_t)left : CLI_MPI_CHUNK, got = 0;

		/* The size was promised: a file that shrank is padded with zeros
		 * (it is not written by anyone once its run has ended). */
		while (got < want) {
			ssize_t r = read(fd, buf + got, want - got);

			if (r <= 0) {
				memset(buf + got, 0, want - got);
				got = want;
				break;
			}
			got += (size_t)r;
		}
		if ((rc = cli_mpi_send(buf, want)) != 0)
			return rc;
		left -= want;
	}
	return 0;
}

/* Send every regular file under @dir (relative paths from @rel) of run @run. */
static int cli_mpi_send_tree(uint32_t run, const char *dir, const char *rel, char *buf)
{
	char path[SWP_PATH_BYTES], sub[SWP_PATH_BYTES];
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (rc == 0 && (de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = cli_mpi_send_tree(run, path, sub, buf);
		} else if (S_ISREG(st.st_mode)) {
			struct cli_mpi_hdr h = { .run = run, .kind = CLI_MPI_FILE,
						 .path_len = (uint32_t)strlen(sub) + 1 };
			int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

			if (fd < 0)
				continue;
			rc = cli_mpi_send_file(&h, sub, fd, buf);
			close(fd);
		}
	}
	closedir(d);
	return rc;
}

/* A process but 0: its runs' folders, reports and statuses. */
static int cli_mpi_send_runs(const struct swp_plan *p, char *buf)
{
	struct cli_mpi_hdr end = { .kind = CLI_MPI_END };
	int rc = 0;

	for (unsigned i = 0; i < p->n_runs && rc == 0; i++) {
		const struct swp_run *r = &p->runs[i];
		struct cli_mpi_hdr st = { .run = i, .kind = CLI_MPI_STATUS, .status = r->status };
		char part[SWP_PATH_BYTES + 32];
		int fd;

		if (r->away)
			continue;
		if ((rc = cli_mpi_send_tree(i, r->wdir, "", buf)) != 0)
			break;
		snprintf(part, sizeof(part), "%s/%u.xml", p->junit_dir, i);
		if (p->junit_dir[0] && (fd = open(part, O_RDONLY | O_CLOEXEC)) >= 0) {
			struct cli_mpi_hdr h = { .run = i, .kind = CLI_MPI_JUNIT };

			rc = cli_mpi_send_file(&h, NULL, fd, buf);
			close(fd);
		}
		if (rc == 0)
			rc = cli_mpi_send(&st, sizeof(st));
	}
	if (rc == 0)
		rc = cli_mpi_send(&end, sizeof(end));
	return rc;
}

/* Whether @rel is a path inside a folder: relative, no "." or ".." part. */
static bool cli_mpi_rel_ok(const char *rel)
{
	const char *s = rel;

	if (!*rel || *rel == '/')
		return false;
	while (*s) {
		size_t n = strcspn(s, "/");

		if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		s += n;
		if (*s == '/')
			s++;
	}
	return true;
}

/* Process 0: receive @h's bytes from @src into @path (NULL: discard). */
static int cli_mpi_recv_file(int src, const struct cli_mpi_hdr *h, const char *path, char *buf)
{
	int fd = -1, rc = 0;

	if (path) {
		char dir[3 * SWP_PATH_BYTES], *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		if ((slash = strrchr(dir, '/'))) {
			*slash = '\0';
			cli_mkdirs(dir);
		}
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0)
			rc = -errno;
	}
	for (uint64_t left = h->bytes; left > 0;) {
		size_t want = left < CLI_MPI_CHUNK ? (size_t)left : CLI_MPI_CHUNK;

		if (MPI_Recv(buf, (int)want, MPI_BYTE, src, CLI_MPI_TAG, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS)
			rc = -EIO;
		if (fd >= 0 && rc == 0 && write(fd, buf, want) != (ssize_t)want)
			rc = errno ? -errno : -EIO;
		left -= want;
	}
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* A buffer of CLI_MPI_CHUNK bytes for files sent to process 0 (without
 * memory the job ends: the others wait in sends). */
static char *cli_mpi_chunk(void)
{
	char *buf = malloc(CLI_MPI_CHUNK);

	if (!buf) {
		fprintf(stderr, "fabemu: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
	}
	return buf;
}

/* CLI_OK when every process's @rc (0 or -errno) is 0, else CLI_FAIL. */
static int cli_mpi_all_ok(int rc)
{
	int all = 0;

	MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	return all == 0 ? CLI_OK : CLI_FAIL;
}

/* Process 0: what process @src sends, until its END. */
static int cli_mpi_recv_runs(struct swp_plan *p, int src, int size, char *buf)
{
	char rel[SWP_PATH_BYTES], path[3 * SWP_PATH_BYTES];
	int bad = 0;

	for (;;) {
		struct cli_mpi_hdr h;
		const char *to = NULL;
		struct swp_run *r;
		int rc = 0;

		if (MPI_Recv(&h, sizeof(h), MPI_BYTE, src, CLI_MPI_TAG, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -EIO;
		if (h.kind == CLI_MPI_END)
			return bad;
		r = h.run < p->n_runs && (int)(h.run % (unsigned)size) == src ? &p->runs[h.run] : NULL;
		if (h.kind == CLI_MPI_FILE) {
			if (h.path_len == 0 || h.path_len > sizeof(rel) ||
			    MPI_Recv(rel, (int)h.path_len, MPI_BYTE, src, CLI_MPI_TAG, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE) != MPI_SUCCESS)
				return -EIO;
			rel[h.path_len - 1] = '\0';
			if (r && cli_mpi_rel_ok(rel)) {
				snprintf(path, sizeof(path), "%s/%s", r->dir, rel);
				to = path;
			}
		} else if (h.kind == CLI_MPI_JUNIT && r && p->junit_dir[0]) {
			snprintf(path, sizeof(path), "%s/%u.xml", p->junit_dir, h.run);
			to = path;
		} else if (h.kind == CLI_MPI_STATUS) {
			if (r)
				r->status = h.status;
			continue;
		}
		if (h.kind == CLI_MPI_FILE || h.kind == CLI_MPI_JUNIT)
			rc = cli_mpi_recv_file(src, &h, to, buf);
		if (rc != 0 || !to) {
			fprintf(stderr, "fabemu: results of run %u from MPI process %d: %s\n", h.run, src,
				rc ? strerror(-rc) : "not a file of that process's runs (dropped)");
			if (r)
				r->status = CLI_FAIL;
			bad = -EIO;
		}
	}
}

int cli_mpi_sweep_gather(struct swp_plan *p)
{
	struct cli_mpi w = cli_mpi_world();
	char *buf;
	int rc = 0;

	if (w.size <= 1)
		return CLI_OK;
	buf = cli_mpi_chunk();
	if (w.rank > 0) {
		if ((rc = cli_mpi_send_runs(p, buf)) != 0) {
			fprintf(stderr, "fabemu: MPI process %d could not send its results: %s\n", w.rank,
				strerror(-rc));
			MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
		}
	} else {
		for (int src = 1; src < w.size; src++) {
			int r = cli_mpi_recv_runs(p, src, w.size, buf);

			rc = rc ? rc : r;
		}
	}
	free(buf);
	return cli_mpi_all_ok(rc);
}

int cli_mpi_gather_files(const char *dir, const char *const *rel, const uint32_t *owner, uint32_t n)
{
	struct cli_mpi w = cli_mpi_world();
	char *buf, path[3 * SWP_PATH_BYTES];
	int rc = 0;

	if (w.size <= 1)
		return CLI_OK;
	buf = cli_mpi_chunk();
	if (w.rank > 0) {
		struct cli_mpi_hdr end = { .kind = CLI_MPI_END };

		for (uint32_t i = 0; i < n && rc == 0; i++) {
			struct cli_mpi_hdr h = { .run = i, .kind = CLI_MPI_FILE };
			int fd;

			if (owner[i] != (uint32_t)w.rank)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, rel[i]);
			if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0) {
				rc = -errno;
				break;
			}
			rc = cli_mpi_send_file(&h, NULL, fd, buf);
			close(fd);
		}
		if (rc == 0)
			rc = cli_mpi_send(&end, sizeof(end));
		if (rc != 0) {
			fprintf(stderr, "fabemu: MPI process %d could not send its files: %s\n", w.rank,
				strerror(-rc));
			MPI_Abort(MPI_COMM_WORLD, CLI_FAIL);
		}
	} else {
		for (int src = 1; src < w.size; src++)
			for (;;) {
				struct cli_mpi_hdr h;
				const char *to = NULL;
				int r;

				if (MPI_Recv(&h, sizeof(h), MPI_BYTE, src, CLI_MPI_TAG, MPI_COMM_WORLD,
					     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
					rc = -EIO;
					break;
				}
				if (h.kind == CLI_MPI_END)
					break;
				if (h.kind == CLI_MPI_FILE && h.run < n && owner[h.run] == (uint32_t)src) {
					snprintf(path, sizeof(path), "%s/%s", dir, rel[h.run]);
					to = path;
				}
				r = cli_mpi_recv_file(src, &h, to, buf);
				if (r != 0 || !to) {
					fprintf(stderr, "fabemu: a file from MPI process %d: %s\n", src,
						r ? strerror(-r) : "not one of its files (dropped)");
					rc = rc ? rc : r ? r : -EIO;
				}
			}
	}
	free(buf);
	return cli_mpi_all_ok(rc);
}

/* The partitions' transport (core/par.h) over MPI_COMM_WORLD. */
struct cli_mpi_wire {
	struct par_remote r;   /* first: what par.c is given */
	uint64_t *n_out;       /* per process: bytes this one sends it */
	uint64_t *n_in;        /* per process: bytes it sends this one */
	uint8_t **in;          /* per process: its bytes (grown) */
	size_t *cap;           /* their allocations */
	MPI_Request *req;      /* 2 per process: receives, then sends */
};

static int cli_mpi_swap(void *ctx, uint8_t *const *out, const size_t *out_len, uint8_t **in,
			size_t *in_len)
{
	struct cli_mpi_wire *w = ctx;
	uint32_t n = w->r.size, me = w->r.rank, nreq = 0;
	uint64_t *n_out = w->n_out;

	/* Counts: one all-to-all; then the bytes, point to point. */
	for (uint32_t k = 0; k < n; k++)
		n_out[k] = k == me ? 0 : out_len[k];
	if (MPI_Alltoall(n_out, 1, MPI_UINT64_T, w->n_in, 1, MPI_UINT64_T, MPI_COMM_WORLD) !=
	    MPI_SUCCESS)
		return -EIO;
	for (uint32_t k = 0; k < n; k++) {
		in_len[k] = k == me ? 0 : (size_t)w->n_in[k];
		if (in_len[k] > INT32_MAX || (k != me && out_len[k] > INT32_MAX))
			return -E2BIG;
		if (in_len[k] > w->cap[k]) {
			uint8_t *b = realloc(w->in[k], in_len[k]);

			if (!b)
				return -ENOMEM;
			w->in[k] = b;
			w->cap[k] = in_len[k];
		}
		in[k] = w->in[k];
	}
	for (uint32_t k = 0; k < n; k++) {
		if (k != me && in_len[k] &&
		    MPI_Irecv(in[k], (int)in_len[k], MPI_BYTE, (int)k, CLI_MPI_TAG + 1, MPI_COMM_WORLD,
			      &w->req[nreq++]) != MPI_SUCCESS)
			return -EIO;
	}
	for (uint32_t k = 0; k < n; k++) {
		if (k != me && out_len[k] &&
		    MPI_Isend(out[k], (int)out_len[k], MPI_BYTE, (int)k, CLI_MPI_TAG + 1, MPI_COMM_WORLD,
			      &w->req[nreq++]) != MPI_SUCCESS)
			return -EIO;
	}
	return MPI_Waitall((int)nreq, w->req, MPI_STATUSES_IGNORE) == MPI_SUCCESS ? 0 : -EIO;
}

static void cli_mpi_combine(void *ctx, uint64_t *mx, uint32_t n_mx, uint64_t *sum, uint32_t n_sum)
{
	(void)ctx;
	if (n_mx)
		MPI_Allreduce(MPI_IN_PLACE, mx, (int)n_mx, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	if (n_sum)
		MPI_Allreduce(MPI_IN_PLACE, sum, (int)n_sum, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

struct par_remote *cli_mpi_remote_new(void)
{
	struct cli_mpi world = cli_mpi_world();
	struct cli_mpi_wire *w;
	uint32_t n = (uint32_t)world.size;

	if (world.size < 2 || !(w = calloc(1, sizeof(*w))))
		return NULL;
	w->r = (struct par_remote){ .rank = (uint32_t)world.rank, .size = n, .swap = cli_mpi_swap,
				    .combine = cli_mpi_combine, .ctx = w };
	w->n_out = calloc(n, sizeof(*w->n_out));
	w->n_in = calloc(n, sizeof(*w->n_in));
	w->in = calloc(n, sizeof(*w->in));
	w->cap = calloc(n, sizeof(*w->cap));
	w->req = calloc(2 * (size_t)n, sizeof(*w->req));
	if (!w->n_out || !w->n_in || !w->in || !w->cap || !w->req) {
		cli_mpi_remote_free(&w->r);
		return NULL;
	}
	return &w->r;
}

void cli_mpi_remote_free(struct par_remote *r)
{
	struct cli_mpi_wire *w = (struct cli_mpi_wire *)r;

	if (!w)
		return;
	for (uint32_t k = 0; w->in && k < w->r.size; k++)
		free(w->in[k]);
	free(w->n_out);
	free(w->n_in);
	free(w->in);
	free(w->cap);
	free(w->req);
	free(w);
}

int cli_mpi_agree(int rc)
{
	int worst = rc;

	if (cli_mpi_world().size > 1)
		MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return worst;
}

void cli_mpi_sum(uint64_t *v, unsigned n)
{
	if (cli_mpi_world().size > 1)
		MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

#endif

int cli_mpi_quiet(void)
{
	int saved, null;

	if (cli_mpi_world().rank == 0)
		return -1;
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		if (null >= 0)
			close(null);
		return -1;
	}
	close(null);
	return saved;
}

void cli_mpi_loud(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

int cli_mpi_sweep_share(struct swp_plan *p, bool junit, char *work, unsigned cap)
{
	struct cli_mpi w = cli_mpi_world();
	char dir[SWP_PATH_BYTES + 32];
	int rc;

	for (unsigned i = 0; i < p->n_runs; i++)
		p->runs[i].away = (int)(i % (unsigned)w.size) != w.rank;
	if (w.rank == 0)
		return 0;
	if ((rc = cli_mpi_workdir(work, cap)) != 0)
		return rc;
	for (unsigned i = 0; i < p->n_runs; i++) {
		if (p->runs[i].away)
			continue;
		snprintf(dir, sizeof(dir), "%s/%u", work, i);
		if (mkdir(dir, 0777) != 0 || !(p->runs[i].wdir = strdup(dir)))
			return errno ? -errno : -ENOMEM;
	}
	if (junit) {
		snprintf(p->junit_dir, sizeof(p->junit_dir), "%s/junit", work);
		if (mkdir(p->junit_dir, 0777) != 0)
			return -errno;
	}
	return 0;
}

int cli_mpi_workdir(char *dir, unsigned cap)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, cap, "%s/fabemu-mpi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -errno;
}

static int cli_mpi_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void cli_mpi_rmtree(const char *dir)
{
	nftw(dir, cli_mpi_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
