/* The kernel's time of every frame on an event node, for scripts/forward-latency.sh.
 *
 *   frame_times NODE LOG
 *
 * reads NODE (not grabbed) until SIGTERM or SIGINT and writes to LOG one line a frame that
 * carried an MSC_TIMESTAMP: "VALUE\tTIME_NS", the value (panel_player's frame number) and the
 * evdev time of the frame's SYN_REPORT in nanoseconds, on CLOCK_MONOTONIC (set by EVIOCSCLOCKID).
 * Lines are kept in memory and written at the end, so the reader costs one read(2) a wake-up
 * while it runs. A SYN_DROPPED is counted and reported on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAMES 4000000 /* frames kept: 64 MB; a longer play stops counting, with a message */

static volatile sig_atomic_t stop;
static void on_signal(int s) { (void)s; stop = 1; }

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: frame_times NODE LOG\n"); return 2; }
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) { perror("frame_times: open"); return 2; }
    int clock = CLOCK_MONOTONIC;            /* evdev's default is CLOCK_REALTIME */
    if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) { perror("frame_times: EVIOCSCLOCKID"); return 2; }
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;              /* no SA_RESTART: read(2) returns EINTR */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int32_t *values = malloc(MAX_FRAMES * sizeof *values);
    int64_t *times = malloc(MAX_FRAMES * sizeof *times);
    if (!values || !times) { fprintf(stderr, "frame_times: out of memory\n"); return 2; }
    long frames = 0, dropped = 0, overflow = 0;
    int have = 0;
    int32_t value = 0;
    struct input_event ev[256];
    fprintf(stderr, "frame_times: reading %s\n", argv[1]);
    while (!stop) {
        ssize_t r = read(fd, ev, sizeof ev);
        if (r < 0) { if (errno == EINTR) continue; perror("frame_times: read"); break; }
        if (r == 0) break;
        for (size_t i = 0; i < (size_t)r / sizeof *ev; i++) {
            if (ev[i].type == EV_MSC && ev[i].code == MSC_TIMESTAMP) { have = 1; value = ev[i].value; }
            else if (ev[i].type == EV_SYN && ev[i].code == SYN_DROPPED) dropped++;
            else if (ev[i].type == EV_SYN && ev[i].code == SYN_REPORT) {
                if (have) {
                    if (frames < MAX_FRAMES) {
                        values[frames] = value;
                        times[frames] = (int64_t)ev[i].input_event_sec * 1000000000 + (int64_t)ev[i].input_event_usec * 1000;
                        frames++;
                    } else overflow++;
                }
                have = 0;
            }
        }
    }
    FILE *log = fopen(argv[2], "w");
    if (!log) { perror("frame_times: log"); return 2; }
    for (long i = 0; i < frames; i++) fprintf(log, "%d\t%lld\n", values[i], (long long)times[i]);
    fclose(log);
    fprintf(stderr, "frame_times: %ld frames, %ld SYN_DROPPED%s\n", frames, dropped, overflow ? ", frames past the limit not kept" : "");
    return dropped || overflow ? 1 : 0;
}
