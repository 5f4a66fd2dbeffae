/* A uinput panel that plays evemu recordings through its own uinput descriptor, for
 * scripts/forward-latency.sh (run in the QEMU guest by Benchmarks/latency/forward-guest.sh).
 *
 * Why not evemu-play: while a consumer grabs the panel (EVIOCGRAB), what is written to the
 * panel's event node is dropped by the kernel; what is written to the uinput descriptor that
 * made the device goes through the input core to the grabbing reader like a driver's events.
 *
 *   panel_player RECORDING
 *
 * makes the panel from RECORDING's description (N:, I:, P:, B:, A: lines), with MSC_TIMESTAMP
 * added when it lacks it, prints "NODE\n" (its event node) on stdout, then reads commands on
 * stdin, one a line, and answers each with "done\n" on stdout:
 *
 *   play FILE LOG BASE   plays FILE's E: lines in real time (each frame at its offset from the
 *                        first, clock_nanosleep on CLOCK_MONOTONIC), one write(2) per frame;
 *                        every frame's MSC_TIMESTAMP is replaced by a frame number, BASE for
 *                        the first, so a frame is found again on the copy by that number. LOG
 *                        gets one line per frame: "NUMBER\tBEFORE_NS\tAFTER_NS", CLOCK_MONOTONIC
 *                        just before and just after the frame's write(2).
 *   reset                lifts every slot and BTN_TOUCH (one frame, number 0).
 *
 * The kernel stamps a frame when its SYN_REPORT is handled inside that write(2) (Linux 6.1,
 * input_handle_event → evdev's input_get_timestamp), so the stamp lies between BEFORE and
 * AFTER; forward-guest.sh measures how far from BEFORE with a reader on the panel itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAME 1024 /* events a frame may hold; a longer one is an error, not a split */

static void die(const char *what) { fprintf(stderr, "panel_player: %s\n", what); exit(2); }

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct libevdev *describe(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("cannot open the recording");
    struct libevdev *dev = libevdev_new();
    char line[4096];
    int btype = -1, bindex = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == 'E' && line[1] == ':') break;
        if (line[0] == 'N' && line[1] == ':') {
            char *s = line + 2; while (*s == ' ') s++;
            s[strcspn(s, "\n")] = 0;
            libevdev_set_name(dev, s);
        } else if (line[0] == 'I' && line[1] == ':') {
            unsigned bus, vendor, product, version;
            if (sscanf(line + 2, "%x %x %x %x", &bus, &vendor, &product, &version) == 4) {
                libevdev_set_id_bustype(dev, bus); libevdev_set_id_vendor(dev, vendor);
                libevdev_set_id_product(dev, product); libevdev_set_id_version(dev, version);
            }
        } else if (line[0] == 'P' && line[1] == ':') {
            /* 8 bytes a line, consecutive lines continue the bit field */
            static int pindex = 0;
            unsigned b[8];
            int n = sscanf(line + 2, "%x %x %x %x %x %x %x %x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7]);
            for (int i = 0; i < n; i++)
                for (int bit = 0; bit < 8; bit++)
                    if (b[i] & (1u << bit)) libevdev_enable_property(dev, (pindex + i) * 8 + bit);
            pindex += n;
        } else if (line[0] == 'B' && line[1] == ':') {
            unsigned type, b[8];
            int n = sscanf(line + 2, "%x %x %x %x %x %x %x %x %x", &type, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7]);
            if (n < 1) continue;
            if ((int)type != btype) { btype = type; bindex = 0; }
            if (type == EV_SYN || type == EV_ABS) { bindex += n - 1; continue; } /* ABS from A: lines */
            for (int i = 0; i < n - 1; i++)
                for (int bit = 0; bit < 8; bit++)
                    if (b[i] & (1u << bit)) libevdev_enable_event_code(dev, type, (bindex + i) * 8 + bit, NULL);
            bindex += n - 1;
        } else if (line[0] == 'A' && line[1] == ':') {
            unsigned code; struct input_absinfo a = {0};
            if (sscanf(line + 2, "%x %d %d %d %d %d", &code, &a.minimum, &a.maximum, &a.fuzz, &a.flat, &a.resolution) >= 5)
                libevdev_enable_event_code(dev, EV_ABS, code, &a);
        }
    }
    fclose(f);
    if (!libevdev_has_event_code(dev, EV_MSC, MSC_TIMESTAMP))
        libevdev_enable_event_code(dev, EV_MSC, MSC_TIMESTAMP, NULL);
    return dev;
}

static int fd; /* the uinput descriptor */

static void write_frame(struct input_event *ev, int n) {
    size_t len = (size_t)n * sizeof *ev;
    const char *p = (const char *)ev;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) { if (errno == EINTR) continue; die("write to uinput failed"); }
        p += w; len -= (size_t)w;
    }
}

static void play(const char *path, const char *logpath, int32_t number) {
    FILE *f = fopen(path, "r"), *log = fopen(logpath, "w");
    if (!f || !log) die("cannot open a play's recording or log");
    static struct input_event frame[MAX_FRAME + 2];
    int n = 0;
    char line[512];
    double first = -1;
    int64_t start = 0;
    double frame_time = 0;
    while (fgets(line, sizeof line, f)) {
        double t; unsigned type, code; int value;
        if (strncmp(line, "E:", 2) != 0) continue;
        if (sscanf(line + 2, "%lf %x %x %d", &t, &type, &code, &value) != 4) continue;
        if (type == EV_MSC && code == MSC_TIMESTAMP) continue;   /* replaced by the number */
        if (n == 0) frame_time = t;
        if (type == EV_SYN && code == SYN_REPORT) {
            if (n == 0) continue;                                  /* nothing to report */
            frame[n++] = (struct input_event){ .type = EV_MSC, .code = MSC_TIMESTAMP, .value = number };
            frame[n++] = (struct input_event){ .type = EV_SYN, .code = SYN_REPORT, .value = 0 };
            if (first < 0) { first = frame_time; start = now_ns(); }
            int64_t due = start + (int64_t)((frame_time - first) * 1e9);
            struct timespec ts = { .tv_sec = due / 1000000000, .tv_nsec = due % 1000000000 };
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
            int64_t before = now_ns();
            write_frame(frame, n);
            int64_t after = now_ns();
            fprintf(log, "%d\t%lld\t%lld\n", number, (long long)before, (long long)after);
            number++;
            n = 0;
            continue;
        }
        if (n >= MAX_FRAME) die("a frame of more than 1024 events");
        frame[n++] = (struct input_event){ .type = (uint16_t)type, .code = (uint16_t)code, .value = value };
    }
    fclose(f);
    fclose(log);
}

static void reset(const struct libevdev *dev) {
    static struct input_event frame[2 * 256 + 3];
    int n = 0;
    if (libevdev_has_event_code(dev, EV_ABS, ABS_MT_SLOT)) {
        int slots = libevdev_get_abs_maximum(dev, ABS_MT_SLOT) + 1;
        for (int s = 0; s < slots && s < 256; s++) {
            frame[n++] = (struct input_event){ .type = EV_ABS, .code = ABS_MT_SLOT, .value = s };
            frame[n++] = (struct input_event){ .type = EV_ABS, .code = ABS_MT_TRACKING_ID, .value = -1 };
        }
    }
    if (libevdev_has_event_code(dev, EV_KEY, BTN_TOUCH))
        frame[n++] = (struct input_event){ .type = EV_KEY, .code = BTN_TOUCH, .value = 0 };
    frame[n++] = (struct input_event){ .type = EV_MSC, .code = MSC_TIMESTAMP, .value = 0 };
    frame[n++] = (struct input_event){ .type = EV_SYN, .code = SYN_REPORT, .value = 0 };
    write_frame(frame, n);
}

int main(int argc, char **argv) {
    if (argc != 2) die("usage: panel_player RECORDING");
    struct libevdev *dev = describe(argv[1]);
    struct libevdev_uinput *ui;
    fd = open("/dev/uinput", O_RDWR | O_CLOEXEC);
    if (fd < 0) die("cannot open /dev/uinput");
    int rc = libevdev_uinput_create_from_device(dev, fd, &ui);
    if (rc < 0) { errno = -rc; perror("panel_player: libevdev_uinput_create_from_device"); return 2; }
    const char *node = libevdev_uinput_get_devnode(ui);
    printf("%s\n", node ? node : "");
    fflush(stdout);
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        char file[4096], log[4096]; int base;
        if (sscanf(line, "play %4095s %4095s %d", file, log, &base) == 3) play(file, log, base);
        else if (strncmp(line, "reset", 5) == 0) reset(dev);
        else die("unknown command (play FILE LOG BASE, reset)");
        printf("done\n");
        fflush(stdout);
    }
    libevdev_uinput_destroy(ui);
    libevdev_free(dev);
    return 0;
}
