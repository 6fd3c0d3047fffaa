/* fabemu under an MPI launcher (mpirun -np N fabemu ...; docs/user-guide.md,
 * "Across processes and machines (MPI)"). The processes share out the runs
 * of a sweep (or of several experiment files): process k runs those whose
 * index is k modulo N, each in a private folder, and sends its results
 * folders to process 0, which writes them where one process would have and
 * then the sweep's tables. A single run or check, and bench, split their
 * fabric over the processes (core/par.h, par_remote; run/fabric_remote.c
 * brings the results to process 0), unless something keeps them in one
 * process (fabric_par_blocker); topo, compare and plot run in process 0
 * alone. A fabemu built without MPI
 * refuses to start as more than one process instead of running the whole
 * command N times into the same folders. */
#ifndef FAB_CLI_MPI_H
#define FAB_CLI_MPI_H

#include <stdbool.h>
#include <stdint.h>

struct swp_plan;
struct par_remote;

/* Set in the environment of the runs a sweep starts: they are processes
 * of their own, not members of the MPI job their parent is one of. */
#define CLI_MPI_CHILD_ENV "FABEMU_MPI_CHILD"

/* This process's place: rank 0 of 1 when not started by an MPI launcher. */
struct cli_mpi {
	int rank;
	int size;
};

/* Join the MPI job when an MPI launcher started this process (its
 * environment says so), filling @w. CLI_OK, or CLI_BAD_INPUT having said
 * why (launched as several processes by a build without MPI, or MPI would
 * not start). */
int cli_mpi_start(int *argc, char ***argv, struct cli_mpi *w);
/* Leave the MPI job, if this process joined one. */
void cli_mpi_end(void);
/* The MPI this fabemu is built with, for --version: "MPI: Open MPI
 * 4.1.4", or "without MPI". */
const char *cli_mpi_version(void);
/* The worst (largest) of every process's exit status @rc (outside a job:
 * @rc). */
int cli_mpi_agree(int rc);
/* In a process but 0 of a job, stderr to /dev/null until cli_mpi_loud
 * with what cli_mpi_quiet returned: for what every process does alike
 * (reading the command line, planning a sweep), whose notes and errors
 * process 0 says once. -1: nothing done. */
int cli_mpi_quiet(void);
void cli_mpi_loud(int saved);
/* This process's place in the job (rank 0 of 1 outside one). */
struct cli_mpi cli_mpi_world(void);

/* After the sweep's runs: each process but 0 sends process 0 its runs'
 * folders, exit statuses and (check --junit) reports, and process 0 writes
 * them into the runs' folders and its plan. Every process calls it. CLI_OK,
 * or CLI_FAIL when something could not be sent or written (said on
 * stderr; the run it belongs to is then failed). */
int cli_mpi_sweep_gather(struct swp_plan *p);

/* Share the sweep's runs out: run i is this process's when i is its rank
 * modulo the job's size (the others are marked away). A process but 0
 * makes a private folder (into @work, @cap bytes) in which it runs its
 * share, a folder each, and with @junit their reports' folder. 0 or
 * -errno. */
int cli_mpi_sweep_share(struct swp_plan *p, bool junit, char *work, unsigned cap);

/* For a single run or check, and bench: the fabric's partitions shared out over the job's processes
 * (core/par.h), frames and window figures exchanged through MPI; NULL
 * outside a job of several processes (or out of memory). Freed by
 * cli_mpi_remote_free. */
struct par_remote *cli_mpi_remote_new(void);
void cli_mpi_remote_free(struct par_remote *r);
/* Over every process of the job (none: unchanged): @v[0..n) summed, in
 * place. */
void cli_mpi_sum(uint64_t *v, unsigned n);

/* A split run's files written as it went (per-port captures): every
 * process calls it; process k > 0 sends process 0 each file @rel[i]
 * (relative to its folder @dir) with @owner[i] == k, and process 0 writes
 * it at @rel[i] in its own @dir, in place of its own. CLI_OK, or CLI_FAIL
 * in every process when one could not be sent or written (said on
 * stderr). */
int cli_mpi_gather_files(const char *dir, const char *const *rel, const uint32_t *owner, uint32_t n);

/* A private folder for this process's share of a sweep (under $TMPDIR or
 * /tmp), into @dir (@cap bytes); 0 or -errno. Removed, with what is in
 * it, by cli_mpi_rmtree. */
int cli_mpi_workdir(char *dir, unsigned cap);
void cli_mpi_rmtree(const char *dir);

#endif
