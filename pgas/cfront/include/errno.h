#ifndef _ERRNO_H
#define _ERRNO_H
/* errno is set by routines the subset refuses; reading it is refused. */
extern int errno;
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define EAGAIN 11
#define ENOMEM 12
#define EINVAL 22
#define ERANGE 34
#endif
