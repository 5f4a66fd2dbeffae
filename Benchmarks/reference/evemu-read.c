/*
 * Reference for gestured's replay benchmark (issue 7): the evemu project's own C reader
 * (Debian libevemu-dev) parsing a recording and doing nothing else.
 *
 *   evemu-read FILE [REPEAT]
 *
 * Reads the device description with evemu_read() and every event with evemu_read_event(),
 * REPEAT times (default 1), and prints the events read and the mean time per pass. Built by
 * scripts/bench.sh:  cc -O2 -o evemu-read evemu-read.c -levemu
 */
#include <evemu.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [REPEAT]\n", argv[0]);
		return 2;
	}
	int repeat = argc > 2 ? atoi(argv[2]) : 1;
	long events = 0;
	double start = now();
	for (int pass = 0; pass < repeat; pass++) {
		FILE *fp = fopen(argv[1], "r");
		if (!fp) {
			perror(argv[1]);
			return 1;
		}
		struct evemu_device *device = evemu_new(NULL);
		if (evemu_read(device, fp) <= 0) {
			fprintf(stderr, "%s: evemu_read failed\n", argv[1]);
			return 1;
		}
		struct input_event event;
		events = 0;
		while (evemu_read_event(fp, &event) > 0)
			events++;
		evemu_delete(device);
		fclose(fp);
	}
	double elapsed = (now() - start) / repeat;
	printf("%ld events, %.3f ms per pass, %.0f events/s\n", events, elapsed * 1e3, events / elapsed);
	return 0;
}
