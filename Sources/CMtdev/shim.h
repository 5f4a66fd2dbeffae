#include <mtdev.h>
/* mtdev_new, mtdev_init, mtdev_set_*, mtdev_put_event, mtdev_get_event: feeding events by
   hand (recordings, or a device libevdev already reads) instead of letting mtdev read a fd. */
#include <mtdev-plumbing.h>
