#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/* UI_SET_PHYS on a /dev/uinput descriptor before the device is created: libevdev's
 * libevdev_uinput_create_from_device does not pass the phys on (libevdev 1.13), and the
 * ioctl's number is a macro Swift does not import. -1 and errno on failure, as ioctl(2). */
static inline int gestured_uinput_set_phys(int fd, const char *phys) {
    return ioctl(fd, UI_SET_PHYS, phys);
}
