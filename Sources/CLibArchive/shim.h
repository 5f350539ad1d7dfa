#ifndef IAPKIT_CLIBARCHIVE_SHIM_H
#define IAPKIT_CLIBARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
// File-type macros Swift does not import.
static const unsigned int iapkit_AE_IFREG = AE_IFREG;
static const unsigned int iapkit_AE_IFDIR = AE_IFDIR;
static const unsigned int iapkit_AE_IFLNK = AE_IFLNK;

#ifdef __linux__
#include <sys/types.h>
// Kernel-side file copy used beside libarchive when assembling archives; Swift's Glibc module does not
// export it because it sits behind _GNU_SOURCE.
extern ssize_t copy_file_range(int fd_in, off_t *off_in, int fd_out, off_t *off_out, size_t len, unsigned int flags);
#endif
#endif
