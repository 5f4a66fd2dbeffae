/* LD_PRELOAD shim for `libinput debug-events` (issue 15's latency comparison).
 *
 * debug-events prints a touch event's time in milliseconds relative to its own start
 * (print_event_time() in tools/libinput-debug-events.c), which cannot give the kernel's frame
 * timestamp to the microsecond. It asks for that time once per printed touch line, through
 * libinput_event_touch_get_time(). This shim answers exactly as libinput does (the event's
 * time in µs divided by 1000, as uint32_t: us2ms() in libinput's util-time.h), so the output is
 * unchanged, and keeps the microseconds (libinput_event_touch_get_time_usec(): the evdev
 * timestamp of the frame, CLOCK_MONOTONIC) in memory, in call order. At exit they are written,
 * one per line, to $LATENCY_TOUCH_TIMES; Benchmarks/latency/latency_client.py pairs them with
 * the printed lines and checks the pairing against the printed milliseconds.
 *
 * Cost per touch event: one extra call into libinput and a store (no I/O until exit).
 * Build: cc -O2 -shared -fPIC -o touch_times.so touch_times.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct libinput_event_touch;
uint64_t libinput_event_touch_get_time_usec(struct libinput_event_touch *event);

static uint64_t *times;
static size_t count, capacity;

uint32_t libinput_event_touch_get_time(struct libinput_event_touch *event)
{
	uint64_t usec = libinput_event_touch_get_time_usec(event);

	if (count == capacity) {
		capacity = capacity ? 2 * capacity : 1 << 16;
		times = realloc(times, capacity * sizeof *times);
		if (!times)
			abort();
	}
	times[count++] = usec;
	return (uint32_t)(usec / 1000);
}

__attribute__((destructor)) static void write_times(void)
{
	const char *path = getenv("LATENCY_TOUCH_TIMES");
	FILE *out;

	if (!path)
		return;
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return;
	}
	for (size_t i = 0; i < count; i++)
		fprintf(out, "%llu\n", (unsigned long long)times[i]);
	fclose(out);
}
