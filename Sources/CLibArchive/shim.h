#ifndef IAPKIT_CLIBARCHIVE_SHIM_H
#define IAPKIT_CLIBARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
// File-type macros Swift does not import.
static const unsigned int iapkit_AE_IFREG = AE_IFREG;
static const unsigned int iapkit_AE_IFDIR = AE_IFDIR;
static const unsigned int iapkit_AE_IFLNK = AE_IFLNK;
#endif
