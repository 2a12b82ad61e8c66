#ifndef _TIME_H
#define _TIME_H
#include <stddef.h>
/* Clocks read time, which the model does not have (libc_time.go). */
typedef long time_t;
typedef long clock_t;
typedef int clockid_t;
struct timespec { time_t tv_sec; long tv_nsec; };
#define CLOCKS_PER_SEC 1000000L
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
clock_t clock(void);
time_t time(time_t *t);
int clock_gettime(clockid_t id, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
#endif
