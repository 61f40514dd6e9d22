// SPDX-License-Identifier: MIT
/*
 * navibench top: a full-screen live view of every GPU and the processes
 * using them (top/top.h): the options, the keys and the loop. The
 * terminal is restored on every way out: q, --count, SIGINT, SIGTERM,
 * SIGHUP, and a read that fails.
 */
#include "navibench.h"
#include "optional.h"

/* Without ncursesw: the command's declaration only (off in this build). */
#ifndef NB_WITHOUT_NCURSESW
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "top/top.h"

static unsigned long opt_interval = 1000;
static unsigned long opt_window = 120000;
static long opt_count;
static bool opt_no_color, opt_cpu;

static const struct cli_option top_opts[] = {
	CLI_DURATION_OPT("interval", 'i', &opt_interval, 100, 3600000,
			 "time between samples (default 1s; + and - change it)"),
	CLI_DURATION_OPT("window", 0, &opt_window, 10000, 3600000,
			 "the time the history charts span (default 2m; < and > change it)"),
	CLI_INT_OPT("count", 'n', &opt_count, "N", 1, 100000000,
		    "quit after N samples (default: until q or Ctrl-C)"),
	CLI_FLAG_OPT("no-color", 0, &opt_no_color,
		     "no colours (also when NO_COLOR is set): bold and reverse video only"),
	CLI_FLAG_OPT("cpu", 0, &opt_cpu, "a panel for the CPU too"),
	CLI_OPT_END
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: the wait for a key ends */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void set_status(struct top_view *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_status(struct top_view *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->status, sizeof(v->status), fmt, ap);
	va_end(ap);
}

static const double intervals[] = { 250, 500, 1000, 2000, 5000, 10000 };	/* ms */
static const double windows[] = { 30, 60, 120, 300, 600, 1800, 3600 };

/* The next step of a ladder from cur, up (dir 1) or down (-1). */
static double step(const double *ladder, int n, double cur, int dir)
{
	if (dir > 0) {
		for (int i = 0; i < n; i++)
			if (ladder[i] > cur)
				return ladder[i];
		return ladder[n - 1];
	}
	for (int i = n - 1; i >= 0; i--)
		if (ladder[i] < cur)
			return ladder[i];
	return ladder[0];
}

/* Handle key k. Returns false when it quits. */
static bool key(int k, struct top_model *m, struct top_view *v)
{
	int nint = (int)(sizeof(intervals) / sizeof(intervals[0]));

	v->status[0] = '\0';
	if (v->help && k != 'q') {
		v->help = false;
		return true;
	}
	switch (k) {
	case 'q': case 'Q':
		return false;
	case 'h': case '?': case KEY_F(1):
		v->help = true;
		break;
	case 's': case KEY_F(6):
		v->sort = (enum top_col)((v->sort + 1) % TOP_COL_COUNT);
		set_status(v, "sort: %s", top_cols[v->sort].name);
		break;
	case 'S':
		v->sort = (enum top_col)((v->sort + TOP_COL_COUNT - 1) % TOP_COL_COUNT);
		set_status(v, "sort: %s", top_cols[v->sort].name);
		break;
	case 'r':
		v->sort_rev = !v->sort_rev;
		set_status(v, "sort: %s %s", top_cols[v->sort].name,
			   v->sort_rev ? "descending" : "ascending");
		break;
	case 'd': case '\t':
		v->select = v->select + 1 >= m->n ? -1 : v->select + 1;
		set_status(v, "device: %s", v->select < 0 ? "all" : m->dev[v->select].sd.e->dev.name);
		break;
	case 'D': case KEY_BTAB:
		v->select = v->select < 0 ? m->n - 1 : v->select - 1;
		set_status(v, "device: %s", v->select < 0 ? "all" : m->dev[v->select].sd.e->dev.name);
		break;
	case 'a':
		v->select = -1;
		set_status(v, "device: all");
		break;
	case ' ':
		v->paused = !v->paused;
		break;
	case '+': case '=':
		v->interval_ms = (unsigned long)step(intervals, nint, (double)v->interval_ms, 1);
		set_status(v, "interval %lu ms", v->interval_ms);
		break;
	case '-':
		v->interval_ms = (unsigned long)step(intervals, nint, (double)v->interval_ms, -1);
		set_status(v, "interval %lu ms", v->interval_ms);
		break;
	case '>':
		v->window_s = step(windows, (int)(sizeof(windows) / sizeof(windows[0])), v->window_s, 1);
		break;
	case '<':
		v->window_s = step(windows, (int)(sizeof(windows) / sizeof(windows[0])), v->window_s, -1);
		break;
	case 'g':
		v->show_devices = !v->show_devices;
		break;
	case 'c':
		v->show_charts = !v->show_charts;
		break;
	case 'p':
		v->show_procs = !v->show_procs;
		break;
	default:
		break;
	}
	return true;
}

/* The device --device names, as an index into m->dev; -1 when not given. */
static int chosen(const struct cli_common *cc, struct top_model *m, int *rc)
{
	struct nb_devent *e;

	*rc = 0;
	if (!cc->device_given)
		return -1;
	*rc = nb_devices_find(&m->l, cc->device, "top", &e);
	if (*rc)
		return -1;
	for (int i = 0; i < m->n; i++)
		if (m->dev[i].sd.e == e)
			return i;
	fprintf(stderr, "navibench top: device %d (%s) has no panel: top shows amdgpu, "
		"simulated and GPU-runtime devices%s\n", e->dev.index, e->dev.name,
		e->dev.kind == NB_DEV_CPU ? ", and the CPU with --cpu" : "");
	*rc = NB_EXIT_NODEV;
	return -1;
}

/*
 * The loop: a sample every interval, keys in between; a key redraws at
 * once. Returns the exit status; *why is set when a read failed.
 */
static int loop(struct top_model *m, struct top_view *v, const char **why)
{
	double next = 0;
	long samples = 0;
	int early = 0;

	*why = NULL;
	for (;;) {
		double now = top_now(), t0;
		int k, wait;

		if (got_signal)
			return 128 + got_signal;
		if (!v->paused && now >= next) {
			if (!top_model_sample(m)) {
				*why = m->error;
				return NB_EXIT_FAIL;
			}
			samples++;
			next = now + v->interval_ms / 1000.0;
		}
		top_sort(m, v->sort, v->sort_rev);
		top_draw(m, v);
		if (opt_count && samples >= opt_count)
			return NB_EXIT_OK;
		wait = v->paused ? 1000 : (int)((next - top_now()) * 1000);
		timeout(wait < 0 ? 0 : wait);
		t0 = top_now();
		k = getch();
		if (k == ERR) {
			/*
			 * ERR long before the time: the terminal is gone (its
			 * reads fail at once), unless a signal came.
			 */
			if (!got_signal && wait > 50 && top_now() - t0 < wait / 10000.0) {
				if (++early >= 50) {
					*why = "cannot read the terminal";
					return NB_EXIT_FAIL;
				}
			} else {
				early = 0;
			}
			continue;
		}
		early = 0;
		if (k == KEY_RESIZE)
			continue;
		if (!key(k, m, v))
			return NB_EXIT_OK;
	}
}

static int cmd_top(int argc, char **argv)
{
	const struct cli_spec spec = {
		.name = nb_cmd_top.name,
		.summary = nb_cmd_top.summary,
		.description = "A full-screen live view of every AMD GPU and simulated GPU and the processes\n"
			       "using them: busy, clocks, temperatures, power, fan, VRAM, GTT, PCIe link and\n"
			       "the throttle reasons active now, with history charts and a process pane.\n"
			       "A GPU runtime's device (a GPU plugin's) shows what its plugin reports.",
		.common = CLI_DEVICE,
		.device_default = "every device; --device shows one and its processes",
		.options = top_opts,
		.epilog = "Needs a terminal on standard output (else exit 2: 'navibench sensors --all\n"
			  "--watch' and 'navibench processes --watch' give the same readings as records).\n"
			  "Readings come from the sources 'navibench sensors' uses, a process's use from\n"
			  "DRM fdinfo as 'navibench processes'. With the gputelemetry module loaded the\n"
			  "charts begin with its history. A runtime-suspended GPU shows as ASLEEP and\n"
			  "is never woken. Charts draw in Unicode blocks where the locale is UTF-8, in\n"
			  "ASCII otherwise. Keys: h shows them all.",
	};
	struct cli_common cc;
	struct top_model m;
	struct top_view v;
	const char *nc = getenv("NO_COLOR"), *why;
	SCREEN *scr;
	int rc = cli_parse(&spec, argc, argv, &cc);

	if (rc != CLI_CONTINUE)
		return rc;
	setlocale(LC_ALL, "");
	memset(&v, 0, sizeof(v));
	v.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	v.color = !opt_no_color && !(nc && nc[0]);
	v.show_devices = v.show_charts = v.show_procs = true;
	v.sort = TOP_COL_GFX;
	v.sort_rev = true;
	v.interval_ms = opt_interval;
	v.window_s = opt_window / 1000.0;
	rc = top_model_open(&m, opt_cpu);
	if (rc)
		return rc;
	v.select = chosen(&cc, &m, &rc);
	if (!rc && !isatty(STDOUT_FILENO))
		rc = cli_usage_error("top", "standard output is not a terminal: top is a "
				     "full-screen view; for records over time use 'navibench "
				     "sensors --all --watch' and 'navibench processes --watch'");
	if (rc) {
		top_model_close(&m);
		return rc;
	}
	catch_signals();
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		fprintf(stderr, "navibench top: cannot use the terminal (TERM=%s): set TERM to "
			"the terminal's type (xterm-256color, screen, linux)\n",
			getenv("TERM") ? getenv("TERM") : "");
		top_model_close(&m);
		return NB_EXIT_FAIL;
	}
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	top_view_init(&v);
	rc = loop(&m, &v, &why);
	endwin();
	delscreen(scr);
	if (why)
		fprintf(stderr, "navibench top: %s\n", why);
	top_model_close(&m);
	return rc;
}
#endif /* NB_WITHOUT_NCURSESW */

const struct nb_command nb_cmd_top = {
	.name = "top",
	.summary = "a live full-screen view of every GPU and the processes using them",
	.run = NB_WITH_NCURSESW(cmd_top),
	.needs = NB_LIB_NCURSESW,
};
