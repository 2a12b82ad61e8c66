#ifndef _UNISTD_H
#define _UNISTD_H
#include <stddef.h>
/* sleep and usleep take time, which the model of memory does not have:
   they order nothing (libc_time.go). */
unsigned sleep(unsigned seconds);
int usleep(unsigned long usec);
int getpid(void);
int gethostname(char *name, size_t len);
int getopt(int argc, char *const argv[], const char *optstring);
extern char *optarg;
extern int optind, opterr, optopt;
#endif
