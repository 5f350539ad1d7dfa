#ifndef IAPKIT_CJANSSON_SHIM_H
#define IAPKIT_CJANSSON_SHIM_H
#include <jansson.h>
#endif
