/* How a run is stopped from outside: the signals that would end the
 * process stop the run at an event boundary instead (its results written),
 * and --max-wall's timer (tools/cli.h). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include "cli.h"

/* The one variable outside a run's structures: what a signal handler may
 * touch. The signal that asked the run to stop (SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE, SIGXFSZ, or SIGALRM for --max-wall), 0 while none did; the
 * simulation polls it through sim.interrupt. */
static volatile sig_atomic_t cli_stop_sig;

/* When the first one came (CLOCK_MONOTONIC, ns): see cli_on_signal. */
static volatile uint64_t cli_stop_ns;

enum { CLI_STOP_REPEAT_NS = 500000000 }; /* a second signal within this is the same */

/* The first signal asks the run to stop. A second SIGINT, SIGTERM or
 * SIGHUP ends the process as usual, but only 0.5 s or more after the
 * first: `timeout` sends its signal to the process and to its process
 * group, so two come at once, and the second must not end the run whose
 * results the first asked for. */
static void cli_on_signal(int sig)
{
	struct timespec ts;
	uint64_t now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (!cli_stop_sig) {
		cli_stop_sig = sig;
		cli_stop_ns = now;
	} else if ((sig == SIGINT || sig == SIGTERM || sig == SIGHUP) &&
		   now - cli_stop_ns >= CLI_STOP_REPEAT_NS) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

const volatile sig_atomic_t *cli_stop_flag(void)
{
	return &cli_stop_sig;
}

/* Every signal that would end the process stops the run at an event
 * boundary instead, and the results are written, marked not valid:
 * SIGINT, SIGTERM and SIGHUP (a terminal closed) once, a second one
 * (cli_on_signal) ending the process as usual; SIGPIPE (a closed pipe on
 * stdout or stderr) and SIGXFSZ (a write past the file-size limit) stay
 * caught, the write that raised them failing with EPIPE or EFBIG and being
 * reported as a write error. System calls they interrupt restart (a file
 * read or written on set-up). With --max-wall, a one-shot timer raises
 * SIGALRM after that wall-clock time. */
int cli_arm_stop(const struct cli_run_opts *o)
{
	struct sigaction once = { .sa_handler = cli_on_signal, .sa_flags = SA_RESTART };
	struct sigaction keep = { .sa_handler = cli_on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&once.sa_mask);
	sigemptyset(&keep.sa_mask);
	cli_stop_sig = 0;
	cli_stop_ns = 0;
	if (sigaction(SIGINT, &once, NULL) != 0 || sigaction(SIGTERM, &once, NULL) != 0 ||
	    sigaction(SIGHUP, &once, NULL) != 0 || sigaction(SIGPIPE, &keep, NULL) != 0)
		return -errno;
	/* Not yet SIGXFSZ: DPDK's set-up sizes a memfd for its memory and,
	 * under a file-size limit, falls back to an anonymous map when that
	 * fails; ignored, the failure is all it sees (cli_arm_xfsz follows). */
	signal(SIGXFSZ, SIG_IGN);
	if (o->max_wall_ps) {
		uint64_t us = o->max_wall_ps / 1000000 ? o->max_wall_ps / 1000000 : 1;
		struct itimerval it = { .it_value = { .tv_sec = (time_t)(us / 1000000),
						      .tv_usec = (suseconds_t)(us % 1000000) } };

		if (sigaction(SIGALRM, &once, NULL) != 0 || setitimer(ITIMER_REAL, &it, NULL) != 0)
			return -errno;
	}
	return 0;
}

/* After the set-up: a write past the file-size limit stops the run. */
int cli_arm_xfsz(void)
{
	struct sigaction keep = { .sa_handler = cli_on_signal, .sa_flags = SA_RESTART };

	sigemptyset(&keep.sa_mask);
	return sigaction(SIGXFSZ, &keep, NULL) != 0 ? -errno : 0;
}

/* The run is over; the results are being written: no timer, and a closed
 * pipe or the file-size limit is a failed write (reported), not the end
 * of the process. */
void cli_disarm_stop(void)
{
	struct itimerval off = { 0 };

	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
}

/* What stopped the run, for invalid_reasons, or NULL. */
const char *cli_stop_why(const struct cli_run_opts *o, char buf[64])
{
	switch (cli_stop_sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGPIPE: return "SIGPIPE (a closed pipe)";
	case SIGXFSZ: return "SIGXFSZ (the file-size limit)";
	case SIGALRM:
		snprintf(buf, 64, "--max-wall %.40s", o->max_wall ? o->max_wall : "");
		return buf;
	}
	return NULL;
}
