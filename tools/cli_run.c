/* `fabemu run` and `fabemu check`: load, build, run, write results, and for
 * check evaluate the experiment's expect: assertions. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_mempool.h>

#include "cli.h"
#include "cli_mpi.h"
#include "fabric.h"
#include "live.h"
#include "results.h"

/* mkdir -p (cli.h) */
int cli_mkdirs(const char *path)
{
	char buf[4096];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -errno;
	/* EEXIST also for a file of that name: it is no folder to write in. */
	{
		struct stat st;

		if (stat(buf, &st) != 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	return 0;
}

/* Whether @name is one a capture of fabemu's takes: NODE-pPORT.pcap, or
 * capture.pcapng, hosts, ethers and lids.csv. */
static bool cli_capture_name(const char *name)
{
	size_t n = strlen(name), i;

	if (!strcmp(name, "capture.pcapng") || !strcmp(name, "hosts") || !strcmp(name, "ethers") ||
	    !strcmp(name, "lids.csv"))
		return true;

	if (n < 8 || strcmp(name + n - 5, ".pcap"))
		return false;
	i = n - 5;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	return i < n - 5 && i >= 3 && name[i - 1] == 'p' && name[i - 2] == '-';
}

/* Remove what an earlier run left in @dir, so that no stale table or
 * capture sits beside fresh results: only the names fabemu writes, and
 * nothing outside @dir. */
static void cli_clean(const char *dir)
{
	static const char *const files[] = { "summary.json", "flows.csv", "fct_bins.csv",
					     "collectives.csv", "training.csv", "faults.csv", "ports.csv", "pfc.csv", "pfc_log.csv",
					     "series.csv", "rates.csv", "resolved.yaml",
					     "overrides.txt" };
	char path[4200 + sizeof(((struct dirent *)0)->d_name)]; /* the folder, capture/, a name */
	struct dirent *de;
	DIR *d;
	int fd;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	/* capture/ only when it is a folder of its own: a link there would
	 * lead the clean-up (and the run's writes) into its target. */
	snprintf(path, sizeof(path), "%s/capture", dir);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL)
		if (cli_capture_name(de->d_name))
			unlinkat(fd, de->d_name, 0);
	closedir(d);
}

/* resolved.yaml (the experiment that runs, reproducible without
 * overrides) and overrides.txt (the overrides as given). */
static int cli_write_resolved(const struct exp *e, const char *dir, char err[CFG_ERR_BYTES])
{
	char path[4200];
	int r;

	snprintf(path, sizeof(path), "%s/resolved.yaml", dir);
	if ((r = exp_write_resolved(e, path, err)) != 0)
		return r;
	snprintf(path, sizeof(path), "%s/overrides.txt", dir);
	return exp_write_overrides(e, path, err);
}

/* The engine stopped the run before its end (events were left). */
static bool cli_stopped_short(const struct fabric *f)
{
	return f->sim.interrupted || f->sim.horizon || f->sim.stuck || f->no_progress_stopped;
}

/* One WARNING line on stderr when messages stayed incomplete or QPs
 * failed, whatever -q says; not for a run stopped short (its own WARNING
 * says why, and every message left is incomplete). */
static void cli_warn_unfinished(const struct results *r, const struct fabric *f)
{
	double inc = res_value(res_find(r, "messages.incomplete"));
	double failed = res_value(res_find(r, "messages.failed"));
	double qps = res_value(res_find(r, "nic.qp_errors"));

	if (cli_stopped_short(f) || f->deadlock_stopped)
		return;
	if (qps > 0)
		fprintf(stderr,
			"fabemu: WARNING: %.0f messages did not complete (%.0f of them failed with their "
			"QP), %.0f QPs failed\n",
			inc, failed, qps);
	else if (inc > 0)
		fprintf(stderr, "fabemu: WARNING: %.0f messages did not complete%s\n", inc,
			f->sim.stopped ? " by stop_time" : "");
}

/* Hold @dir for this run: an exclusive flock(2) on DIR/.fabemu.lock, kept
 * open (and locked) until the process ends. -EBUSY when another run holds
 * it; the file itself stays (removing it would race with a run that just
 * opened it). */
static int cli_lock(const char *dir, int *fd_out)
{
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/.fabemu.lock", dir);
	/* Not through a link: a dangling one would be created where it points. */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;

		close(fd);
		return e == EWOULDBLOCK ? -EBUSY : -e;
	}
	*fd_out = fd;
	return 0;
}

/* Report bad input (exit 2): @msg on stderr, and for check in the JUnit
 * report when one was asked for. */
static int cli_bad_input(const struct cli_run_opts *o, bool check, const char *suite, const char *type,
			 const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	if (check)
		cli_junit_error(o->junit, suite, type, msg);
	return CLI_BAD_INPUT;
}

/* A run that could not be done or written (exit 1). */
static int cli_failed(const struct cli_run_opts *o, bool check, const char *suite, const char *type,
		      const char *msg)
{
	fprintf(stderr, "fabemu: %s\n", msg);
	if (check)
		cli_junit_error(o->junit, suite, type, msg);
	return CLI_FAIL;
}

/* check --skip-nightly: the files of @o without nightly: true, checked
 * as without the flag; a line "SKIP FILE: nightly: true" for each of the
 * others (a file that does not load stays, for its error). Exit 0 when
 * every file was skipped. */
static int cli_skip_nightly(const struct cli_run_opts *o)
{
	struct cli_run_opts k = *o;
	char err[CFG_ERR_BYTES];

	k.skip_nightly = false;
	k.n_exps = 0;
	for (unsigned i = 0; i < o->n_exps; i++) {
		struct exp *e = NULL;
		bool nightly = exp_load(o->exps[i], o->sim.sets, o->sim.n_sets, o->sim.seed_set, o->sim.seed, &e, err) == 0 &&
			       e->nightly;

		exp_free(e);
		if (!nightly)
			k.exps[k.n_exps++] = o->exps[i];
		else if (cli_mpi_world().rank == 0) /* said once in an MPI job */
			printf("SKIP %s: nightly: true (--skip-nightly)\n", o->exps[i]);
	}
	if (!k.n_exps)
		return CLI_OK;
	k.exp_path = k.exps[0];
	return cli_run(&k, true);
}

/* One run of cli_run: what it holds from set-up to the end. */
struct cli_job {
	const struct cli_run_opts *o; /* its options */
	bool check;                    /* fabemu check: assertions evaluated */
	struct exp *e;                 /* the experiment loaded */
	char outdir[4096];             /* its results folder */
	int lock_fd;                   /* the folder's lock, or -1 */
	struct rte_mempool *pool;      /* the packet pool, or NULL */
	struct cfg_doc *base;          /* the --baseline summary, or NULL */
	struct live *live;             /* fabemu live: its live ports, once bound */
	char **eal_argv;               /* the EAL's arguments: `--` ones, live ports' */
	int eal_argc;
};

/* Report bad input for @j (cli_bad_input) in its suite. */
static int cli_job_bad(const struct cli_job *j, const char *type, const char *msg)
{
	return cli_bad_input(j->o, j->check, j->e->name, type, msg);
}

/* A failure of @j (cli_failed) in its suite. */
static int cli_job_failed(const struct cli_job *j, const char *type, const char *msg)
{
	return cli_failed(j->o, j->check, j->e->name, type, msg);
}

/* The results folder of @j: its name checked, created and locked. */
static int cli_job_folder(struct cli_job *j)
{
	const struct cli_run_opts *o = j->o;
	char msg[CFG_ERR_BYTES + 64];
	const char *outdir = j->outdir;
	int r;

	if (strlen(o->outdir ? o->outdir : j->e->name) + sizeof("results/") > CLI_OUTDIR_MAX_BYTES) {
		snprintf(msg, sizeof(msg),
			 "fabemu: -o: a results folder path of %zu bytes is too long (at most %d: the "
			 "files under it must fit in PATH_MAX)",
			 strlen(o->outdir ? o->outdir : j->e->name), CLI_OUTDIR_MAX_BYTES - (int)sizeof("results/"));
		return cli_job_bad(j, "bad_input", msg);
	}
	if (o->outdir)
		snprintf(j->outdir, sizeof(j->outdir), "%s", o->outdir);
	else
		snprintf(j->outdir, sizeof(j->outdir), "results/%s", j->e->name);
	if ((r = cli_mkdirs(outdir)) != 0) {
		snprintf(msg, sizeof(msg), "fabemu: %.400s: cannot create results folder: %s", outdir,
			 r == -ENOTDIR ? "it, or a folder above it, exists and is not a folder"
				       : strerror(-r));
		return cli_job_bad(j, "bad_input", msg);
	}
	if ((r = cli_lock(outdir, &j->lock_fd)) != 0) {
		if (r == -EBUSY)
			snprintf(msg, sizeof(msg),
				 "fabemu: %.200s: in use by another fabemu run (it holds %.200s/.fabemu.lock); "
				 "nothing written there: use another -o folder or wait",
				 outdir, outdir);
		else if (r == -ELOOP)
			snprintf(msg, sizeof(msg),
				 "fabemu: %.200s/.fabemu.lock is a symbolic link: nothing written there (remove it or use another -o folder)",
				 outdir);
		else
			snprintf(msg, sizeof(msg), "fabemu: %.400s: cannot lock the results folder: %s",
				 outdir, strerror(-r));
		return cli_job_bad(j, "folder_in_use", msg);
	}
	return CLI_OK;
}

/* Signals, the EAL and the packet pool of @j. On failure, what was set up
 * here is undone: the EAL is stopped only when the pool failed (as it
 * was: a failed start leaves nothing to stop). */
static int cli_job_engine(struct cli_job *j)
{
	char err[CFG_ERR_BYTES], msg[CFG_ERR_BYTES + 64];
	struct exp *e = j->e;
	int r, rc;

	e->engine.pool_pkts = fabric_pool_pkts(e);
	e->partitions = j->o->sim.partitions;
	if (cli_threads_pick(&j->o->sim, e, true, true, msg) != CLI_OK)
		return cli_job_bad(j, "bad_input", msg);
	if (j->check)
		exp_estimate_print(e, stdout); /* the run's size, before it is built */
	if ((rc = cli_live_engine(j->o, e, &j->eal_argc, &j->eal_argv, msg)) != CLI_OK)
		return rc == CLI_BAD_INPUT ? cli_job_bad(j, "bad_input", msg) : cli_job_failed(j, "live", msg);
	if (cli_arm_stop(j->o) != 0)
		return cli_job_failed(j, "signals", "cannot install signal handlers");
	if ((r = sim_eal_start(j->eal_argc, j->eal_argv, fabric_eal_mem_mb(e), j->o->live && live_eal_hw(e),
			       err)) != 0) {
		snprintf(msg, sizeof(msg), "fabemu: %s", err);
		return r == -EINVAL ? cli_job_bad(j, "eal", msg) : cli_job_failed(j, "eal", err);
	}
	j->pool = sim_pool_create("fabemu", e->engine.pool_pkts, fabric_data_room(e), err);
	if (!j->pool || cli_arm_xfsz() != 0) {
		rc = cli_job_failed(j, "pool", j->pool ? "cannot install signal handlers" : err);
		rte_mempool_free(j->pool);
		j->pool = NULL;
		rte_eal_cleanup();
		return rc;
	}
	return CLI_OK;
}

/* Build @j's fabric into @f and make ready to run: the expect: metrics and
 * the baseline checked, the captures checked, the folder cleaned, the
 * resolved experiment written, the outputs opened. On failure @f is freed. */
static int cli_job_build(struct cli_job *j, struct fabric *f)
{
	char err[CFG_ERR_BYTES], msg[CFG_ERR_BYTES + 64], why_buf[64];
	struct exp *e = j->e;
	struct results res;
	int rc = CLI_OK, r;

	if ((r = fabric_build(f, e, j->pool, true, err)) != 0) {
		/* -ENOSPC: the configuration cannot fit (bad input, at its line). */
		rc = r == -ENOSPC ? cli_job_bad(j, "bad_input", err) : cli_job_failed(j, "build", err);
		goto fail;
	}
	if (j->o->live && (r = live_attach(f, &j->live, err)) != 0) {
		rc = r == -EINVAL ? cli_job_bad(j, "bad_input", err) : cli_job_failed(j, "live", err);
		goto fail;
	}
	/* check: every metric the assertions name must exist before a
	 * possibly long run is spent on them. */
	if (j->check && e->n_expects) {
		if (res_collect(&res, f) != 0) {
			rc = cli_job_failed(j, "memory", "out of memory");
		} else if (cli_expect_names(e, &res, err) != 0 ||
			   cli_expect_baseline(j->o, e, &j->base, err) != 0) {
			rc = cli_job_bad(j, "bad_input", err);
		}
		res_free(&res);
		if (rc != CLI_OK)
			goto fail;
	}
	if (fabric_captures_check(e, j->outdir, err) != 0) {
		rc = cli_job_bad(j, "bad_input", err);
		goto fail;
	}
	/* A stop asked for during set-up: the run never starts, and the
	 * folder keeps what an earlier run left. */
	if (*cli_stop_flag()) {
		snprintf(msg, sizeof(msg), "stopped by %s before the run started: nothing written in %.400s",
			 cli_stop_why(j->o, why_buf), j->outdir);
		rc = cli_job_failed(j, "interrupted", msg);
		goto fail;
	}
	/* Only now, with the run about to start, is an earlier run's output
	 * removed (a refusal above leaves it as it was). */
	cli_clean(j->outdir);
	if (cli_write_resolved(e, j->outdir, err) != 0) {
		rc = cli_job_failed(j, "write", err);
		goto fail;
	}
	if ((r = fabric_open_outputs(f, j->outdir, err)) != 0) {
		/* -ENOTDIR: a capture folder that is a file, -ELOOP: a link
		 * (a bad -o folder). */
		rc = r == -ENOTDIR || r == -ELOOP ? cli_job_bad(j, "bad_input", err)
						  : cli_job_failed(j, "write", err);
		goto fail;
	}
	return CLI_OK;
fail:
	fabric_free(f);
	return rc;
}

/* After the run of @f: the results collected, written, printed and for
 * check judged. @closed: what closing the outputs returned, @close_err its
 * message. */
static int cli_job_results(struct cli_job *j, struct fabric *f, int closed, const char *close_err)
{
	const struct cli_run_opts *o = j->o;
	char err[CFG_ERR_BYTES], why_buf[64];
	struct results res;
	int rc = closed != 0 ? CLI_FAIL : CLI_OK;

	if (res_collect_run(&res, f, cli_stop_why(o, why_buf)) != 0)
		return cli_job_failed(j, "memory", "out of memory collecting results");
	if (closed != 0)
		res_mark_invalid(&res, "%s", close_err);
	if (res_write_all(&res, f, j->outdir, err) != 0)
		rc = cli_job_failed(j, "write", err);
	if (!o->quiet) {
		res_print_human(&res, f, stdout);
		if (j->live)
			live_print(j->live, stdout);
		printf("  results: %s/summary.json\n", j->outdir);
		if (j->e->flows_csv_auto && !j->e->flows_csv)
			printf("  flows.csv: not written (%u messages, over %u; outputs.flows_csv: true writes it)\n",
			       (unsigned)j->e->n_msgs, (unsigned)EXP_FLOWS_CSV_AUTO_MSGS);
		for (uint32_t i = 0; i < j->e->n_captures; i++)
			printf("  capture: %s\n", f->cap_paths[i]);
	}
	fflush(stdout);
	if (!res.valid)
		fprintf(stderr, "fabemu: WARNING: results not valid: %s\n", res.reasons);
	/* Said even with -q: a run can be valid and still not do its work. */
	cli_warn_unfinished(&res, f);
	/* (A failed write was reported, and fails the run.) */
	if (rc == CLI_OK && j->check)
		rc = cli_check(j->e, &res, j->base, j->outdir, o->junit);
	else if (rc == CLI_OK && cli_stopped_short(f))
		rc = CLI_FAIL;
	res_free(&res);
	return rc;
}

/* Run @j's built fabric @f and write its results. */
static int cli_job_run(struct cli_job *j, struct fabric *f)
{
	char err[CFG_ERR_BYTES];
	int r;

	f->sim.interrupt = cli_stop_flag();
	if (j->live)
		live_run(j->live, cli_stop_flag(), j->o->quiet);
	else
		fabric_run(f, !j->o->quiet);
	cli_disarm_stop();
	/* A capture or series file that could not be written is reported and
	 * marks the run not valid; the rest of the results are still written. */
	if ((r = fabric_close_outputs(f, j->outdir, err)) != 0)
		cli_job_failed(j, "write", err);
	return cli_job_results(j, f, r, err);
}

/* The end of every single run: what @j set up, undone. */
static void cli_job_end(struct cli_job *j)
{
	cfg_doc_free(j->base);
	cli_live_end(j->o, j->e, j->eal_argc, j->eal_argv);
	rte_mempool_free(j->pool);
	exp_free(j->e);
	rte_eal_cleanup();
	if (j->lock_fd >= 0)
		close(j->lock_fd);
}

/* The single run @j (its experiment loaded): folder, engine, build, run. */
static int cli_job_all(struct cli_job *j)
{
	struct fabric f;
	int rc;

	if ((rc = cli_job_folder(j)) != CLI_OK || (rc = cli_job_engine(j)) != CLI_OK) {
		cli_live_end(j->o, j->e, j->eal_argc, j->eal_argv);
		exp_free(j->e);
		if (j->lock_fd >= 0)
			close(j->lock_fd);
		return rc;
	}
	if ((rc = cli_job_build(j, &f)) == CLI_OK) {
		rc = cli_job_run(j, &f);
		fabric_free(&f);
	}
	live_free(j->live);
	cli_job_end(j);
	return rc;
}

/* A split run's per-port captures, each written by the process that ran
 * its port (in @dir: process 0's results folder, the others' private
 * one), into process 0's folder. Every process calls it. */
static int cli_job_captures(const struct cli_job *j, const struct fabric *f, const char *dir)
{
	const struct exp *e = j->e;
	const char **rel;
	uint32_t *owner;
	int rc;

	if (!f->par || !e->n_captures || e->cap_format == EXP_CAP_PCAPNG)
		return CLI_OK;
	rel = calloc(e->n_captures, sizeof(*rel));
	owner = calloc(e->n_captures, sizeof(*owner));
	/* f->cap_paths: the per-port files first, in capture order, named
	 * alike in every process: capture/NODE-pPORT.pcap. */
	for (uint32_t i = 0; rel && owner && i < e->n_captures; i++) {
		rel[i] = strstr(f->cap_paths[i] + strlen(dir), "capture/");
		owner[i] = rel[i] ? fabric_node_process(f, e->captures[i].node) : 0;
	}
	if (rel && owner) {
		rc = cli_mpi_gather_files(dir, rel, owner, e->n_captures);
	} else {
		/* Out of memory here: no file is taken, but every process
		 * still takes part. */
		cli_mpi_gather_files(dir, NULL, NULL, 0);
		rc = CLI_FAIL;
	}
	free(rel);
	free(owner);
	return rc;
}

/* The split run of @j over the processes of the job @w (its experiment
 * loaded, exp->remote set): process 0 makes the folder, writes the
 * results and says what there is to say; the others run their
 * partitions. Each step is agreed on by every process before the next,
 * so that a failure in one ends them all with its status. */
static int cli_job_split(struct cli_job *j, struct cli_mpi w)
{
	bool zero = w.rank == 0;
	char err[CFG_ERR_BYTES], wdir[4096] = "";
	struct fabric f;
	int rc = CLI_OK, quiet, r;

	if (zero)
		rc = cli_job_folder(j);
	if ((rc = cli_mpi_agree(rc)) != CLI_OK || (rc = cli_mpi_agree(cli_job_engine(j))) != CLI_OK) {
		/* cli_job_engine undid itself where it failed; where it did not,
		 * this undoes it. */
		if (j->pool) {
			cli_job_end(j);
		} else {
			exp_free(j->e);
			if (j->lock_fd >= 0)
				close(j->lock_fd);
		}
		return rc;
	}
	if (zero) {
		rc = cli_job_build(j, &f);
	} else {
		quiet = cli_mpi_quiet(); /* what process 0 says too */
		if (fabric_build(&f, j->e, j->pool, true, err) != 0) {
			fabric_free(&f);
			rc = CLI_FAIL;
		}
		cli_mpi_loud(quiet);
		/* Its ports' captures, into a private folder (sent to process 0
		 * once the run is over). */
		if (rc == CLI_OK && f.par && j->e->n_captures &&
		    (cli_mpi_workdir(wdir, sizeof(wdir)) != 0 ||
		     fabric_captures_open(&f, wdir, err) != 0)) {
			fprintf(stderr, "fabemu: MPI process %d: %s\n", w.rank,
				wdir[0] ? err : "cannot make a private folder");
			fabric_free(&f);
			rc = CLI_FAIL;
		}
	}
	if ((r = cli_mpi_agree(rc)) != CLI_OK) {
		if (rc == CLI_OK)
			fabric_free(&f);
		if (wdir[0])
			cli_mpi_rmtree(wdir);
		cli_job_end(j);
		return r;
	}
	f.sim.interrupt = cli_stop_flag();
	r = fabric_remote_begin(&f);
	/* Progress: every process counts, process 0 says it (par_look_remote);
	 * a fabric left whole runs in every process, and process 0 says it. */
	fabric_run(&f, !j->o->quiet && (zero || f.par));
	cli_disarm_stop();
	/* Every process takes part in the gathering, whatever its own
	 * start gave (a failed one fails them all there). */
	if (fabric_remote_results(&f) != 0 || r != 0)
		rc = cli_job_failed(j, "memory", "the other processes' results could not be gathered");
	r = zero ? fabric_close_outputs(&f, j->outdir, err) : wdir[0] ? fabric_captures_close(&f, err) : 0;
	if (r != 0)
		cli_job_failed(j, "write", err);
	if (cli_job_captures(j, &f, zero ? j->outdir : wdir) != CLI_OK && r == 0) {
		r = -EIO;
		snprintf(err, sizeof(err), "the captures of the other MPI processes could not be gathered");
	}
	if (zero && rc == CLI_OK)
		rc = cli_job_results(j, &f, r, err);
	else if (r != 0)
		rc = CLI_FAIL;
	fabric_free(&f);
	if (wdir[0])
		cli_mpi_rmtree(wdir);
	cli_job_end(j);
	return cli_mpi_agree(rc);
}

int cli_run(const struct cli_run_opts *o, bool check)
{
	char err[CFG_ERR_BYTES];
	struct cli_job j = { .o = o, .check = check, .lock_fd = -1 };
	struct cli_run_opts other;
	struct par_remote *remote = NULL;
	struct cli_mpi w;
	const char *why = NULL;
	int rc, r, quiet = -1;

	if (check && o->skip_nightly)
		return cli_skip_nightly(o);
	if (o->n_exps > 1 || o->n_sweeps || o->seeds || o->n_metric_names)
		return cli_sweep(o, check);
	if ((w = cli_mpi_world()).size > 1 && w.rank > 0) {
		/* Process 0 says, writes and reports; the others run. */
		other = *o;
		other.junit = NULL;
		j.o = o = &other;
		if (!freopen("/dev/null", "w", stdout))
			return CLI_FAIL;
		quiet = cli_mpi_quiet();
	}
	rc = CLI_OK;
	if (check && o->junit && (r = cli_junit_probe(o->junit)) != 0) {
		fprintf(stderr, "fabemu: %s: cannot write the JUnit report: %s\n", o->junit,
			strerror(-r));
		rc = CLI_BAD_INPUT;
	} else if (exp_load(o->exp_path, o->sim.sets, o->sim.n_sets, o->sim.seed_set, o->sim.seed, &j.e, err) != 0) {
		rc = cli_bad_input(o, check, o->exp_path, "bad_input", err);
	}
	cli_mpi_loud(quiet);
	if (w.size > 1 && (rc = cli_mpi_agree(rc)) == CLI_OK) {
		/* Several MPI processes: the fabric's partitions shared out over
		 * them (run/fabric_remote.c), unless something keeps the run in
		 * one process. */
		j.e->remote = remote = cli_mpi_remote_new();
		why = remote ? fabric_par_blocker(j.e, true) : "out of memory";
		if (!why) {
			rc = cli_job_split(&j, w);
			cli_mpi_remote_free(remote);
			return rc;
		}
		j.e->remote = NULL;
		cli_mpi_remote_free(remote);
		if (w.rank > 0) {
			exp_free(j.e);
			return CLI_OK;
		}
		fprintf(stderr, "fabemu: %d MPI processes: %s: process 0 runs it alone\n", w.size, why);
	}
	if (rc != CLI_OK) {
		exp_free(j.e);
		return rc;
	}
	return cli_job_all(&j);
}

/* cli.h */
int cli_metrics_exist(const struct cli_run_opts *o, const char *path, const char *const *sets,
		      unsigned n_sets, const char *const *names, unsigned n_names, bool check)
{
	char err[CFG_ERR_BYTES];
	struct rte_mempool *pool;
	struct results res;
	struct fabric f;
	struct exp *e;
	int rc = CLI_OK;

	if (exp_load(path, sets, n_sets, o->sim.seed_set, o->sim.seed, &e, err) != 0)
		return cli_bad_input(o, check, path, "bad_input", err);
	e->engine.pool_pkts = fabric_pool_pkts(e);
	if (sim_eal_init(o->sim.eal_argc, o->sim.eal_argv, fabric_eal_mem_mb(e), err) != 0) {
		fprintf(stderr, "fabemu: %s\n", err);
		exp_free(e);
		return CLI_BAD_INPUT;
	}
	pool = sim_pool_create("fabemu", e->engine.pool_pkts, fabric_data_room(e), err);
	if (!pool) {
		fprintf(stderr, "fabemu: %s\n", err);
		rc = CLI_FAIL;
	} else if (fabric_build(&f, e, pool, false, err) != 0) {
		rc = cli_bad_input(o, check, e->name, "bad_input", err);
		fabric_free(&f);
	} else {
		if (res_collect(&res, &f) != 0) {
			fprintf(stderr, "fabemu: out of memory\n");
			rc = CLI_FAIL;
		} else if (check && cli_expect_names(e, &res, err) != 0) {
			rc = cli_bad_input(o, check, e->name, "bad_input", err);
		}
		for (unsigned i = 0; rc == CLI_OK && i < n_names; i++) {
			const char *all[1024];
			const char *near;
			uint32_t n = 0;

			if (res_find(&res, names[i]))
				continue;
			for (uint32_t j = 0; j < res.n && n < 1023; j++)
				all[n++] = res.m[j].name;
			all[n] = NULL;
			near = cfg_nearest(names[i], all);
			snprintf(err, sizeof(err), "fabemu: --metric '%s': unknown metric%s%s%s (see docs/results.md)",
				 names[i], near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			rc = cli_bad_input(o, check, e->name, "bad_input", err);
		}
		res_free(&res);
		fabric_free(&f);
	}
	rte_mempool_free(pool);
	exp_free(e);
	rte_eal_cleanup();
	return rc;
}
