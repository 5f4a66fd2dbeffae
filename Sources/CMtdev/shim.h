#include <mtdev.h>
