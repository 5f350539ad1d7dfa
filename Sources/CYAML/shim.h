#ifndef IAPKIT_CYAML_SHIM_H
#define IAPKIT_CYAML_SHIM_H
#include <yaml.h>
#endif
