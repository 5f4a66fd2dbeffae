// Linux headers that the Swift Glibc module does not export.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <signal.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// gettid(2), which glibc declares only under _GNU_SOURCE: a thread's id for setpriority(2).
static inline int gestured_thread_id(void) { return (int)syscall(SYS_gettid); }

// SCHED_BATCH, which glibc declares only under _GNU_SOURCE (sched(7)).
static const int gestured_sched_batch = 3;
