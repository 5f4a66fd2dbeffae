// zlib (Debian's zlib1g-dev): the bridge gzips the client module once at start.
#include <zlib.h>
